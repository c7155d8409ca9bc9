import type { FedRate, TableRate } from '../../domain/reference/rates.js';
import type { Database, Queryable } from '../database/db.js';

/**
 * The rates the service keeps: exchange_rates (the world file's rows, WORLD, and the admin's,
 * MANUAL), fed_rates (a rate feed's quotes against its base) and rate_feed_state (the feed's one
 * poller and its last outcome).
 */

export type { FedRate };

const TABLE_RATE_COLUMNS = `from_code AS "from", to_code AS "to", rate::text AS rate, source, updated_at AS "updatedAt"`;

async function findExchangeRate(tx: Queryable, from: string, to: string): Promise<TableRate | null> {
  const rows = await tx.query<TableRate>(`SELECT ${TABLE_RATE_COLUMNS} FROM exchange_rates WHERE from_code = $1 AND to_code = $2`, [from, to]);
  return rows[0] ?? null;
}

async function listExchangeRateRows(tx: Queryable): Promise<TableRate[]> {
  return tx.query<TableRate>(`SELECT ${TABLE_RATE_COLUMNS} FROM exchange_rates ORDER BY from_code, to_code`);
}

/** An admin's rate: recorded as MANUAL, its age counted from `now`. */
export async function saveExchangeRate(tx: Queryable, from: string, to: string, rate: string, now: Date): Promise<{ rate: string; updatedAt: Date }> {
  const rows = await tx.query<{ rate: string; updatedAt: Date }>(
    `INSERT INTO exchange_rates (from_code, to_code, rate, source, updated_at) VALUES ($1, $2, $3, 'MANUAL', $4)
     ON CONFLICT (from_code, to_code) DO UPDATE SET rate = EXCLUDED.rate, source = 'MANUAL', updated_at = EXCLUDED.updated_at
     RETURNING rate::text AS rate, updated_at AS "updatedAt"`,
    [from, to, rate, now],
  );
  return rows[0]!;
}

/** The feed's quotes against the base of its last good fetch (none before the first). */
async function findFedRates(tx: Queryable): Promise<FedRate[]> {
  return tx.query<FedRate>(
    `SELECT f.base_code AS base, f.currency_code AS currency, f.rate::text AS rate, f.as_of AS "asOf", f.fetched_at AS "fetchedAt"
       FROM fed_rates f JOIN rate_feed_state s ON s.base_code = f.base_code ORDER BY f.currency_code`,
  );
}

/** The stored quotes against `base`, whatever the last good fetch's base was. */
export async function findFedRatesOf(tx: Queryable, base: string): Promise<FedRate[]> {
  return tx.query<FedRate>(
    `SELECT base_code AS base, currency_code AS currency, rate::text AS rate, as_of AS "asOf", fetched_at AS "fetchedAt"
       FROM fed_rates WHERE base_code = $1`,
    [base],
  );
}

/** Stores the quotes that changed (one statement, so estimates notice one reference_version bump) and the feed's base. */
export async function saveFedRates(tx: Queryable, base: string, changed: readonly FedRate[], fetchedAt: Date): Promise<void> {
  await tx.query('UPDATE rate_feed_state SET base_code = $1, last_success_at = $2', [base, fetchedAt]);
  if (changed.length === 0) return;
  await tx.query(
    `INSERT INTO fed_rates (base_code, currency_code, rate, as_of, fetched_at)
     SELECT $1, q.currency, q.rate::numeric, q.as_of, $2 FROM jsonb_to_recordset($3::jsonb) AS q(currency text, rate text, as_of timestamptz)
     ON CONFLICT (base_code, currency_code) DO UPDATE SET rate = EXCLUDED.rate, as_of = EXCLUDED.as_of, fetched_at = EXCLUDED.fetched_at`,
    [base, fetchedAt, JSON.stringify(changed.map((quote) => ({ currency: quote.currency, rate: quote.rate, as_of: quote.asOf.toISOString() })))],
  );
  await tx.query(
    `INSERT INTO fed_rate_history (base_code, currency_code, rate, fetched_at)
     SELECT $1, q.currency, q.rate::numeric, $2 FROM jsonb_to_recordset($3::jsonb) AS q(currency text, rate text)
     ON CONFLICT DO NOTHING`,
    [base, fetchedAt, JSON.stringify(changed.map((quote) => ({ currency: quote.currency, rate: quote.rate })))],
  );
  // What the window no longer needs: rows older than its start, but the last of them, which stood at it.
  await tx.query(
    `DELETE FROM fed_rate_history h
      WHERE h.base_code = $1 AND h.fetched_at < $2
        AND EXISTS (SELECT 1 FROM fed_rate_history n
                     WHERE n.base_code = h.base_code AND n.currency_code = h.currency_code AND n.fetched_at > h.fetched_at AND n.fetched_at <= $2)`,
    [base, new Date(fetchedAt.getTime() - RATE_WINDOW_MS)],
  );
}

/** How far back a fed rate is bounded (RATE_MAX_WINDOW_BPS): a day. */
export const RATE_WINDOW_MS = 24 * 3600_000;

/**
 * Per currency quoted against `base`, the rate that stood at `at` (the last stored at or before it),
 * or, for a feed younger than that, the first it stored: what a new rate is bounded against over
 * the window.
 */
export async function findFedRatesAt(tx: Queryable, base: string, at: Date): Promise<Map<string, string>> {
  const rows = await tx.query<{ currency: string; rate: string }>(
    `SELECT DISTINCT ON (currency_code) currency_code AS currency, rate::text AS rate
       FROM fed_rate_history WHERE base_code = $1
      ORDER BY currency_code, (fetched_at <= $2) DESC, CASE WHEN fetched_at <= $2 THEN -extract(epoch FROM fetched_at) ELSE extract(epoch FROM fetched_at) END`,
    [base, at],
  );
  return new Map(rows.map((row) => [row.currency, row.rate]));
}

export async function recordFeedFailure(tx: Queryable, at: Date, reason: string): Promise<void> {
  await tx.query('UPDATE rate_feed_state SET last_failure_at = $1, last_failure = $2', [at, reason]);
}

/**
 * Claims the feed's poll when it is due: FOR UPDATE SKIP LOCKED makes the claim exclusive (as work
 * items are claimed, store/operations/work.ts), and the next poll is scheduled in the same statement, so a
 * fleet of workers polls once per interval. False when another worker holds it or it is not due.
 */
export async function claimFeedPoll(tx: Queryable, now: Date, nextPollAt: Date): Promise<boolean> {
  const rows = await tx.query(
    `WITH due AS (SELECT id FROM rate_feed_state WHERE next_poll_at <= $1 FOR UPDATE SKIP LOCKED)
     UPDATE rate_feed_state s SET next_poll_at = $2 FROM due WHERE s.id = due.id RETURNING s.id`,
    [now, nextPollAt],
  );
  return rows.length > 0;
}

/** The world file's pegs: 1 `anchor` buys `rate` of `currency`. */
export async function findCurrencyPegs(tx: Queryable): Promise<{ anchor: string; currency: string; rate: string }[]> {
  return tx.query('SELECT anchor_code AS anchor, currency_code AS currency, rate::text AS rate FROM currency_pegs ORDER BY currency_code');
}

export async function listCurrencyCodes(tx: Queryable): Promise<string[]> {
  return (await tx.query<{ code: string }>('SELECT code FROM currencies ORDER BY code')).map((row) => row.code);
}

/** The rows a rate is made of, read on `tx`. */
function rateRowsOf(tx: Queryable) {
  return {
    exchangeRate: (from: string, to: string) => findExchangeRate(tx, from, to),
    exchangeRates: () => listExchangeRateRows(tx),
    fedRates: () => findFedRates(tx),
    currencyPegs: () => findCurrencyPegs(tx),
  };
}

/** The rate tables on this database (the rate sources' RateTables): each read on its own, or several in one snapshot. */
export function rateTablesOf(db: Database) {
  return {
    ...rateRowsOf(db),
    snapshot: <T>(read: (rows: ReturnType<typeof rateRowsOf>) => Promise<T>) => db.transaction((tx) => read(rateRowsOf(tx))),
  };
}
