import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database, Queryable } from '../../../src/store/database/db.js';
import { freshDatabase } from '../../support/database.js';

/**
 * The references of the ledger and the event log (migration 020), checked per statement: whatever
 * writes them, a row naming a missing journal entry, account currency, currency, payroll request,
 * transfer, payout, funding or customer is refused with SQLSTATE 23503, and the whole statement
 * with it; the money records are never deleted, and reference data the ledger uses stays.
 */

let db: Database;
let drop: () => Promise<void>;
beforeAll(async () => ({ db, drop } = await freshDatabase()));
afterAll(() => drop());

const MISSING = '00000000-0000-4000-8000-00000000dead';
const missingReference = { code: '23503' };

async function newEntry(tx: Queryable, refs: Record<string, string> = {}): Promise<string> {
  const [row] = await tx.query<{ id: string }>(
    `INSERT INTO journal_entries (kind, payroll_request_id, transfer_id, payout_id, funding_id, created_at)
     VALUES ('OPENING_BALANCE', $1, $2, $3, $4, now()) RETURNING id::text`,
    [refs.payrollRequestId ?? null, refs.transferId ?? null, refs.payoutId ?? null, refs.fundingId ?? null],
  );
  return row!.id;
}

/** A balanced pair: +1 to the account currency when given (its balance_after is then required), else to EXTERNAL. */
function post(tx: Queryable, entry: string, currency = 'USD', accountCurrencyId: string | null = null): Promise<unknown> {
  const key = accountCurrencyId ? `CUSTOMER:${accountCurrencyId}` : 'EXTERNAL';
  return tx.query(
    `INSERT INTO postings (journal_entry_id, account_key, account_currency_id, currency_code, amount, balance_after)
     VALUES ($1::bigint, $2, $3, $4, 1, CASE WHEN $3::uuid IS NULL THEN NULL ELSE 1 END), ($1::bigint, 'EXTERNAL', NULL, $4, -1, NULL)`,
    [entry, key, accountCurrencyId, currency],
  );
}

const firstId = async (table: string): Promise<string> => (await db.query<{ id: string }>(`SELECT id::text AS id FROM ${table} LIMIT 1`))[0]!.id;

describe('the ledger and event log references, checked per statement', () => {
  it('accepts entries and postings whose references exist', async () => {
    const payrollRequestId = await firstId('payroll_requests');
    const transferId = await firstId('transfers');
    await db.transaction(async (tx) => post(tx, await newEntry(tx, { payrollRequestId, transferId }), 'AED'));
  });

  it.each(['payrollRequestId', 'transferId', 'payoutId', 'fundingId'])('refuses a journal entry whose %s is missing', async (ref) => {
    await expect(db.transaction((tx) => newEntry(tx, { [ref]: MISSING }))).rejects.toMatchObject(missingReference);
  });

  it('refuses postings of a missing journal entry, account currency or currency, and writes none of the statement', async () => {
    const before = (await db.query<{ n: number }>('SELECT count(*)::int AS n FROM postings'))[0]!.n;
    await expect(db.transaction((tx) => post(tx, '999999999'))).rejects.toMatchObject(missingReference);
    await expect(db.transaction(async (tx) => post(tx, await newEntry(tx), 'USD', MISSING))).rejects.toMatchObject(missingReference);
    await expect(db.transaction(async (tx) => post(tx, await newEntry(tx), 'XXX'))).rejects.toMatchObject(missingReference);
    expect((await db.query<{ n: number }>('SELECT count(*)::int AS n FROM postings'))[0]!.n).toBe(before);
  });

  it('refuses an event of a missing customer, and the change of an event’s customer', async () => {
    const customerId = await firstId('customers');
    const record = (tx: Queryable, customer: string) =>
      tx.query(
        `INSERT INTO events (id, customer_id, type, resource_id, sequence, occurred_at, payload)
         VALUES (gen_random_uuid(), $1, 'payroll_request.status_changed', gen_random_uuid(), 1, now(), '{}') RETURNING id`,
        [customer],
      );
    await expect(db.transaction((tx) => record(tx, MISSING))).rejects.toMatchObject(missingReference);
    const [event] = (await db.transaction((tx) => record(tx, customerId))) as Array<{ id: string }>;
    await expect(db.query('UPDATE events SET customer_id = $2 WHERE id = $1', [event!.id, MISSING])).rejects.toMatchObject({ code: '23001' });
  });

  it('never deletes or rewrites a money record or the ledger', async () => {
    for (const table of ['payroll_requests', 'transfers', 'journal_entries', 'postings']) {
      await expect(db.query(`DELETE FROM ${table} WHERE id = (SELECT id FROM ${table} LIMIT 1)`), table).rejects.toMatchObject({ code: '23001' });
      await expect(db.query(`TRUNCATE ${table} CASCADE`), table).rejects.toMatchObject({ code: '23001' });
    }
    await expect(db.query('UPDATE postings SET amount = amount WHERE id = (SELECT id FROM postings LIMIT 1)')).rejects.toMatchObject({ code: '23001' });
  });

  it('keeps the reference data the ledger or the event log refers to, and lets unused reference data go', async () => {
    const used = (
      await db.query<{ code: string; ac: string }>(
        'SELECT currency_code AS code, account_currency_id::text AS ac FROM postings WHERE account_currency_id IS NOT NULL LIMIT 1',
      )
    )[0]!;
    await expect(db.query('DELETE FROM currencies WHERE code = $1', [used.code])).rejects.toMatchObject(missingReference);
    await expect(db.query('DELETE FROM account_currencies WHERE id = $1', [used.ac])).rejects.toMatchObject(missingReference);
    const withEvents = (await db.query<{ id: string }>('SELECT customer_id::text AS id FROM events LIMIT 1'))[0]!.id;
    await expect(db.query('DELETE FROM customers WHERE id = $1', [withEvents])).rejects.toMatchObject(missingReference);
    await db.query("INSERT INTO currencies (id, code, name, symbol, decimals) VALUES (gen_random_uuid(), 'ZZZ', 'Unused', 'Z', 2)");
    await db.query("DELETE FROM currencies WHERE code = 'ZZZ'");
    expect(await db.query("SELECT 1 FROM currencies WHERE code = 'ZZZ'")).toEqual([]);
  });
});
