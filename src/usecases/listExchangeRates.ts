import type { components } from '../../generated/api.js';
import { formatExact } from '../domain/money.js';
import { isRateUsable, rateAgeMs, rateAsOf } from '../domain/rates.js';
import { listCurrencyCodes } from '../store/exchangeRates.js';
import type { UseCaseDeps } from './deps.js';
import { type Principal, requireAdmin } from './principal.js';

type ExchangeRateStatusList = components['schemas']['ExchangeRateStatusList'];

/**
 * Admin: every pair of the reference data's currencies that has a rate, as an estimate would take
 * it now (through the rate port, as the estimate and the quote read it): its source, asOf, fetch
 * time, age and bound, and whether the service stands behind it.
 */
export async function listExchangeRates(deps: UseCaseDeps, caller: Principal): Promise<ExchangeRateStatusList> {
  requireAdmin(caller);
  const pairs = await deps.rates.listRates(await listCurrencyCodes(deps.db));
  const now = deps.clock();
  return {
    items: pairs.map((pair) => ({
      fromCurrencyCode: pair.from,
      toCurrencyCode: pair.to,
      rate: formatExact(pair.rate),
      source: pair.source,
      asOf: rateAsOf(pair, now).toISOString(),
      fetchedAt: pair.fetchedAt?.toISOString() ?? null,
      ageSeconds: Math.floor(rateAgeMs(pair, now) / 1000),
      maxAgeSeconds: pair.maxAgeMs === null ? null : Math.floor(pair.maxAgeMs / 1000),
      usable: isRateUsable(pair, now),
    })),
  };
}
