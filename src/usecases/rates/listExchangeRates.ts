import type { components } from '../../../generated/api.js';
import { formatExact } from '../../domain/money/money.js';
import { isRateUsable, rateAgeMs, rateAsOf } from '../../domain/reference/rates.js';
import { listCurrencyCodes } from '../../store/reference/exchangeRates.js';
import { cursorCodec, ownListCursor } from '../answers/cursor.js';
import type { UseCaseDeps } from '../deps.js';
import { type Principal, requireAdmin } from '../access/principal.js';

type ExchangeRateStatusList = components['schemas']['ExchangeRateStatusList'];

/** A pair: the place a page of rates ends. */
interface PairPosition {
  from: string;
  to: string;
}

const pairCursor = cursorCodec<PairPosition>(
  ownListCursor('listExchangeRates', {
    write: ({ from, to }) => ({ f: from, t: to }),
    read: ({ f, t }) => (typeof f === 'string' && typeof t === 'string' ? { from: f, to: t } : null),
  }),
);

/** Every pair when the caller names no `limit`, as the list answered before it took one. */
const DEFAULT_PAGE = 10_000;

const byPair = (a: PairPosition, b: PairPosition): number => (a.from === b.from ? (a.to < b.to ? -1 : a.to > b.to ? 1 : 0) : a.from < b.from ? -1 : 1);

/**
 * Admin: every pair of the reference data's currencies that has a rate, as an estimate would take
 * it now (through the rate port, as the estimate and the quote read it): its source, asOf, fetch
 * time, age and bound, and whether the service stands behind it. Ordered by pair, a page of
 * `limit` after `cursor` like every list.
 */
export async function listExchangeRates(
  deps: UseCaseDeps,
  caller: Principal,
  query: { limit?: number; cursor?: string } = {},
): Promise<ExchangeRateStatusList> {
  requireAdmin(caller);
  const limit = query.limit ?? DEFAULT_PAGE;
  const after = query.cursor ? pairCursor.decode(query.cursor, undefined) : null;
  const pairs = (await deps.rates.listRates(await listCurrencyCodes(deps.db))).sort(byPair).filter((pair) => !after || byPair(pair, after) > 0);
  const page = pairs.slice(0, limit);
  const now = deps.clock();
  return {
    items: page.map((pair) => ({
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
    nextCursor: pairs.length > limit ? pairCursor.encode(page[limit - 1]!, undefined) : null,
  };
}
