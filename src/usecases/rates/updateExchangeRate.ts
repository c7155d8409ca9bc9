import type { components } from '../../../generated/api.js';
import { validationError } from '../../domain/errors.js';
import { assertRate } from '../../domain/money/minorUnits.js';
import { Money, formatExact } from '../../domain/money/money.js';
import { saveExchangeRate } from '../../store/reference/exchangeRates.js';
import { findCurrency } from '../../store/reference/referenceData.js';
import type { UseCaseDeps } from '../deps.js';
import { forgetEstimateReferences } from '../fees/estimateReference.js';
import { type Principal, requireAdmin } from '../access/principal.js';

/**
 * Operations move a rate without a restart. Estimates made afterwards use it; feeHashes
 * already issued keep the rate they locked.
 */
export async function updateExchangeRate(
  deps: UseCaseDeps,
  caller: Principal,
  pair: { from: string; to: string },
  body: components['schemas']['UpdateExchangeRateRequest'],
): Promise<components['schemas']['ExchangeRate']> {
  requireAdmin(caller);
  if (pair.from === pair.to)
    throw validationError('path.toCurrencyCode must differ from path.fromCurrencyCode', { reason: 'SAME_CURRENCY_PAIR', field: 'toCurrencyCode' });
  const rate = new Money(body.rate);
  assertRate(rate, 'body.rate');
  const updated = await deps.db.transaction(async (tx) => {
    for (const [field, code] of [
      ['fromCurrencyCode', pair.from],
      ['toCurrencyCode', pair.to],
    ] as const) {
      if (!(await findCurrency(tx, code))) throw validationError(`path.${field} ${code} is not a known currency`, { reason: 'UNKNOWN_CURRENCY', field });
    }
    const saved = await saveExchangeRate(tx, pair.from, pair.to, formatExact(rate), deps.clock());
    return { fromCurrencyCode: pair.from, toCurrencyCode: pair.to, rate: formatExact(new Money(saved.rate)), updatedAt: saved.updatedAt.toISOString() };
  });
  // Estimates made from now on use the new rate (other instances notice its reference_version).
  forgetEstimateReferences(deps.db);
  return updated;
}
