import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database, Queryable } from '../../../src/store/database/db.js';
import { freshDatabase } from '../../support/database.js';

/**
 * The database's own check of the ledger (migration 019): whatever writes postings, a statement
 * that leaves one of the entries it posted to unbalanced in a currency is refused, and so is one
 * that adds to an earlier balanced entry a posting that unbalances it.
 */

let db: Database;
let drop: () => Promise<void>;
beforeAll(async () => ({ db, drop } = await freshDatabase()));
afterAll(() => drop());

async function newEntries(tx: Queryable, count: number): Promise<string[]> {
  const rows = await tx.query<{ id: string }>(
    "INSERT INTO journal_entries (kind, created_at) SELECT 'OPENING_BALANCE', now() FROM generate_series(1, $1) RETURNING id::text",
    [count],
  );
  return rows.map((row) => row.id);
}

/** Postings to the EXTERNAL account only (no account currency, so no balance to keep). */
function post(tx: Queryable, postings: Array<{ entry: string; currency: string; amount: string }>): Promise<unknown> {
  return tx.query(
    `INSERT INTO postings (journal_entry_id, account_key, currency_code, amount)
     SELECT p.entry::bigint, 'EXTERNAL', p.currency, p.amount::numeric FROM jsonb_to_recordset($1::jsonb) AS p(entry text, currency text, amount text)`,
    [JSON.stringify(postings)],
  );
}

const refused = /does not sum to zero in every currency/;

describe('the ledger balance check', () => {
  it('accepts many balanced entries written in one statement', async () => {
    const count = await db.transaction(async (tx) => {
      const entries = await newEntries(tx, 1000);
      await post(
        tx,
        entries.flatMap((entry) => [
          { entry, currency: 'USD', amount: '10.25' },
          { entry, currency: 'USD', amount: '-10.25' },
        ]),
      );
      return (await tx.query<{ n: number }>('SELECT count(*)::int AS n FROM postings WHERE journal_entry_id = ANY($1::bigint[])', [entries]))[0]!.n;
    });
    expect(count).toBe(2000);
  });

  it('refuses a statement that leaves one of its entries unbalanced in a currency, naming the entry', async () => {
    const attempt = db.transaction(async (tx) => {
      const [good, bad] = await newEntries(tx, 2);
      await post(tx, [
        { entry: good!, currency: 'USD', amount: '1' },
        { entry: good!, currency: 'USD', amount: '-1' },
        { entry: bad!, currency: 'USD', amount: '5' },
        { entry: bad!, currency: 'AED', amount: '-5' },
      ]);
    });
    await expect(attempt).rejects.toThrow(refused);
    expect(await db.query("SELECT 1 FROM postings WHERE amount IN (5, -5) AND currency_code IN ('USD', 'AED')")).toEqual([]);
  });

  it('checks a posting added later to an entry with the postings it already has', async () => {
    const [entry] = await db.transaction(async (tx) => {
      const created = await newEntries(tx, 1);
      await post(tx, [
        { entry: created[0]!, currency: 'USD', amount: '3' },
        { entry: created[0]!, currency: 'USD', amount: '-3' },
      ]);
      return created;
    });
    await expect(db.transaction((tx) => post(tx, [{ entry: entry!, currency: 'USD', amount: '0.01' }]))).rejects.toThrow(refused);
    await db.transaction((tx) =>
      post(tx, [
        { entry: entry!, currency: 'USD', amount: '0.01' },
        { entry: entry!, currency: 'USD', amount: '-0.01' },
      ]),
    );
    const [sum] = await db.query<{ total: string }>('SELECT sum(amount)::text AS total FROM postings WHERE journal_entry_id = $1', [entry]);
    expect(sum!.total).toBe('0.00');
  });
});
