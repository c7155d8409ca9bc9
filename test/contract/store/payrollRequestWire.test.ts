import { readFile } from 'node:fs/promises';
import { afterAll, describe, expect, it } from 'vitest';
import type { components } from '../../../generated/api.js';
import type { Database } from '../../../src/store/database/db.js';
import { itemsVersionOf } from '../../../src/store/payroll/payrollItems.js';
import { payrollRequestChangedAnswered } from '../../../src/usecases/webhooks/events.js';
import { answerPayrollRequest } from '../../../src/usecases/payroll/getPayrollRequest.js';
import type { Principal } from '../../../src/usecases/access/principal.js';
import { ItemsTextCache } from '../../../src/usecases/answers/itemsTextCache.js';
import { loadPayrollRequest } from '../../support/oracles/payrollRequest.js';
import { ids, testWorld } from '../../fixtures/world.js';
import { type FreshDatabase, freshDatabase } from '../../support/database.js';

/**
 * A PayrollRequest has one writer (src/usecases/views), fed from the store's rows a page at a
 * time: the GET of any size, every operation's answer and the status event are its text. It says
 * what the tests' TypeScript reading of the rows says (amounts at their stored scale, timestamps as
 * toISOString writes them, optional transfer fields absent), whatever the page size, inside one
 * snapshot.
 */
type PayrollRequest = components['schemas']['PayrollRequest'];
const admin: Principal = { userId: ids.admin, role: 'admin', customerId: null };
const stranger: Principal = { userId: ids.userA, role: 'customer', customerId: '00000000-0000-4000-8000-000000000000' };
const opened: FreshDatabase[] = [];
afterAll(async () => Promise.all(opened.map((fresh) => fresh.drop())));

const open = async (world?: unknown): Promise<Database> => {
  const fresh = await freshDatabase(world);
  opened.push(fresh);
  return fresh.db;
};
const demoWorld = async (): Promise<unknown> => JSON.parse(await readFile(new URL('../../../worlds/demo.json', import.meta.url), 'utf8'));
const read = (db: Database, id: string, caller = admin, pageItems?: number) => answerPayrollRequest({ db }, caller, id, pageItems).text();
const oracle = async (db: Database, id: string): Promise<unknown> => JSON.parse(JSON.stringify(await loadPayrollRequest(db, id)));

/** The answer and the event payload an operation on the request writes, in a transaction rolled back. */
async function answerAndEvent(db: Database, id: string): Promise<{ answer: string; event: unknown }> {
  const rolledBack = new Error('rolled back');
  let found: { answer: string; event: unknown } | undefined;
  await expect(
    db.transaction(async (tx) => {
      const answer = await payrollRequestChangedAnswered(tx, id, new Date());
      const chunks: Buffer[] = [];
      for await (const chunk of answer.text()) chunks.push(chunk);
      const [event] = await tx.query<{ payload: unknown }>(
        "SELECT payload FROM events WHERE resource_id = $1 AND type = 'payroll_request.status_changed' ORDER BY sequence DESC LIMIT 1",
        [id],
      );
      found = { answer: Buffer.concat(chunks).toString('utf8'), event: event!.payload };
      throw rolledBack;
    }),
  ).rejects.toBe(rolledBack);
  return found!;
}

describe.each([
  ['the test world', async () => testWorld],
  ['the demo world', demoWorld],
])('GET payroll request, every answer and event: one writer (%s)', (_name, world) => {
  it('every request as the rows say, the same bytes at every page size and in every form', async () => {
    const db = await open(await world());
    const requests = await db.query<{ id: string; customer_id: string }>('SELECT id, customer_id FROM payroll_requests ORDER BY id');
    expect(requests.length).toBeGreaterThan(1);
    for (const { id, customer_id: customerId } of requests) {
      const whole = await read(db, id);
      expect(JSON.parse(whole), `request ${id}`).toEqual(await oracle(db, id));
      for (const pageItems of [1, 2]) expect(await read(db, id, admin, pageItems), `request ${id}`).toBe(whole);
      const owner: Principal = { userId: ids.userA, role: 'customer', customerId };
      expect(await read(db, id.toUpperCase(), owner)).toBe(whole);
      await expect(read(db, id, stranger)).rejects.toMatchObject({ code: 'NOT_FOUND' });
      const { answer, event } = await answerAndEvent(db, id);
      expect(answer).toBe(whole);
      expect(event).toEqual(JSON.parse(whole));
    }
  });
});

describe('the rows as they are written by SQL', () => {
  it('timestamps with microseconds are truncated to milliseconds, as pg and Date#toISOString do', async () => {
    const db = await open();
    const micro = "'2026-11-23 10:00:00.999999+00'";
    await db.query(`UPDATE payroll_requests SET updated_at = ${micro}, quoted_at = ${micro} WHERE id = $1`, [ids.requestACompleted]);
    await db.query(`UPDATE transfers SET created_at = ${micro}, executed_at = ${micro} WHERE payroll_request_id = $1`, [ids.requestACompleted]);
    await db.query(`UPDATE fx_exchanges SET recorded_at = ${micro} WHERE payroll_request_id = $1`, [ids.requestACompleted]);
    const request = JSON.parse(await read(db, ids.requestACompleted)) as PayrollRequest;
    expect(request).toEqual(await oracle(db, ids.requestACompleted));
    expect(request.updatedAt).toBe('2026-11-23T10:00:00.999Z');
  });

  it('free text with quotes, backslashes, control characters and non-ASCII is escaped as JSON', async () => {
    const db = await open();
    const hostile = 'a "quoted" \\ back\\slash, tab\t, newline\n, bell\u0007, é, 😀, </script>';
    const id = ids.requestACompleted;
    await db.query('UPDATE amount_splits SET purpose_code = $2, beneficiary_snapshot = beneficiary_snapshot || $3::jsonb WHERE payroll_request_id = $1', [
      id,
      hostile,
      JSON.stringify({ firstName: hostile, lastName: hostile, displayName: hostile, bankName: hostile }),
    ]);
    await db.query('UPDATE transfers SET external_id = $2, failure_reason = $2 WHERE payroll_request_id = $1', [id, hostile]);
    await db.query('UPDATE payroll_requests SET failure_reason = $2, cancellation_reason = $2 WHERE id = $1', [id, hostile]);
    await db.query('UPDATE customers SET first_name = $1, company_legal_name = $1', [hostile]);
    await db.query('UPDATE users SET last_name = $1', [hostile]);
    const text = await read(db, id);
    expect(JSON.parse(text)).toEqual(await oracle(db, id));
    expect(text).toContain(JSON.stringify(hostile));
  });

  it("a split's payout link reads the same from the payout as from the split's own column (an earlier release's)", async () => {
    const db = await open();
    const payouts = await db.query('SELECT id FROM transfers WHERE amount_split_id IS NOT NULL');
    expect(payouts.length).toBeGreaterThan(1);
    const before = await read(db, ids.requestACompleted);
    const request = JSON.parse(before) as PayrollRequest;
    expect(request.amountSplitDetails.map((split) => split.payoutTransferId)).toEqual([ids.transferAPayout1, ids.transferAPayout2]);
    const linked = await db.query('UPDATE amount_splits s SET payout_transfer_id = p.id FROM transfers p WHERE p.amount_split_id = s.id RETURNING 1');
    expect(linked).toHaveLength(payouts.length);
    expect(await read(db, ids.requestACompleted)).toBe(before);
  });

  it('is read inside one snapshot: a change committed between two pages does not show', async () => {
    const db = await open();
    const id = ids.requestACompleted;
    const before = await read(db, id);
    const parts: string[] = [];
    let changed = false;
    await answerPayrollRequest({ db }, admin, id, 1).send(async (text) => {
      for await (const part of text) {
        parts.push(part.toString());
        if (changed) continue;
        changed = true;
        await db.query("UPDATE amount_splits SET purpose_code = 'changed meanwhile' WHERE payroll_request_id = $1", [id]);
        await db.query("UPDATE payroll_requests SET failure_reason = 'changed meanwhile' WHERE id = $1", [id]);
      }
    });
    expect(parts.length).toBeGreaterThan(4);
    expect(parts.join('')).toBe(before);
    expect(await read(db, id)).toContain('changed meanwhile');
  });
});

describe('GET payroll request: the one cached form', () => {
  const cachedRead = (db: Database, cache: ItemsTextCache, id: string, pageItems?: number) =>
    answerPayrollRequest({ db, readCache: cache }, admin, id, pageItems).text();

  it('answers the bytes of an uncached read, and keeps the items for the next read while they are unchanged', async () => {
    const db = await open();
    const cache = new ItemsTextCache(2 ** 20);
    const id = ids.requestACompleted;
    const uncached = await read(db, id);
    expect(await cachedRead(db, cache, id, 1)).toBe(uncached);
    expect(cache.get(id, await itemsVersionOf(db, id))).toBeDefined();
    expect(await cachedRead(db, cache, id)).toBe(uncached);
  });

  it.each([
    ['a split', "UPDATE amount_splits SET purpose_code = 'changed meanwhile' WHERE payroll_request_id = $1 AND position = 0"],
    ['a transfer', "UPDATE transfers SET failure_reason = 'changed meanwhile' WHERE payroll_request_id = $1 AND position = 0"],
    ['a transfer, rewritten with the same values', 'UPDATE transfers SET status = status WHERE payroll_request_id = $1'],
    ['the request itself', "UPDATE payroll_requests SET failure_reason = 'changed meanwhile' WHERE id = $1"],
  ])('never answers kept items once %s changed: the next read shows the change', async (_what, change) => {
    const db = await open();
    const cache = new ItemsTextCache(2 ** 20);
    const id = ids.requestACompleted;
    const before = await cachedRead(db, cache, id);
    expect(await cachedRead(db, cache, id)).toBe(before);
    await db.query(change, [id]);
    const after = await cachedRead(db, cache, id);
    expect(after).toBe(await read(db, id));
    if (!change.includes('= status')) expect(after).toContain('changed meanwhile');
  });

  it('keeps nothing of a request whose items outgrow an entry, and still answers it whole', async () => {
    const db = await open();
    const cache = new ItemsTextCache(64);
    const id = ids.requestACompleted;
    const uncached = await read(db, id);
    expect(await cachedRead(db, cache, id)).toBe(uncached);
    expect(cache.get(id, await itemsVersionOf(db, id))).toBeUndefined();
  });
});
