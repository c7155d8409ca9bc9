import { readFile } from 'node:fs/promises';
import { afterAll, describe, expect, it } from 'vitest';
import { getPayrollRequestJson } from '../../../src/usecases/getPayrollRequest.js';
import type { Principal } from '../../../src/usecases/principal.js';
import { loadPayrollRequest } from '../../support/oracles/payrollRequest.js';
import { ids, testWorld } from '../../fixtures/world.js';
import { type FreshDatabase, freshDatabase } from '../../support/database.js';

/**
 * The largest read (a request with many splits): PostgreSQL builds the request's JSON and the route
 * sends it as it is. It must say exactly what the TypeScript view says, for every request of the
 * test world and of the demo world: amounts at their stored scale, timestamps as toISOString
 * writes them, optional transfer fields absent, returnedAmount at the source scale.
 */
const admin: Principal = { userId: ids.admin, role: 'admin', customerId: null };
const opened: FreshDatabase[] = [];
afterAll(async () => Promise.all(opened.map((fresh) => fresh.drop())));

const demoWorld = async (): Promise<unknown> => JSON.parse(await readFile(new URL('../../../worlds/demo.json', import.meta.url), 'utf8'));

describe.each([
  ['the test world', async () => testWorld],
  ['the demo world', demoWorld],
])('GET payroll request JSON built in SQL equals the TypeScript view: %s', (_name, world) => {
  it('every request, deep-equal; a customer reads their own and not another one', async () => {
    const fresh = await freshDatabase(await world());
    opened.push(fresh);
    const { db } = fresh;
    const requests = await db.query<{ id: string; customer_id: string }>('SELECT id, customer_id FROM payroll_requests ORDER BY id');
    expect(requests.length).toBeGreaterThan(1);
    for (const { id, customer_id: customerId } of requests) {
      const view = await loadPayrollRequest(db, id);
      // The view's value as the route used to send it (res.json): undefined fields dropped.
      const expected: unknown = JSON.parse(JSON.stringify(view));
      const sql = await getPayrollRequestJson({ db }, admin, id);
      expect(JSON.parse(sql.text), `request ${id}`).toEqual(expected);
      const owner: Principal = { userId: ids.userA, role: 'customer', customerId };
      expect(JSON.parse((await getPayrollRequestJson({ db }, owner, id.toUpperCase())).text)).toEqual(expected);
      const stranger: Principal = { userId: ids.userA, role: 'customer', customerId: '00000000-0000-4000-8000-000000000000' };
      await expect(getPayrollRequestJson({ db }, stranger, id)).rejects.toMatchObject({ code: 'NOT_FOUND' });
    }
  });
});

describe('timestamps with microseconds (set by now() in SQL) read as the view reads them', () => {
  it('milliseconds truncated, as pg and Date#toISOString do', async () => {
    const fresh = await freshDatabase();
    opened.push(fresh);
    const { db } = fresh;
    const micro = "'2026-11-23 10:00:00.999999+00'";
    await db.query(`UPDATE payroll_requests SET updated_at = ${micro}, quoted_at = ${micro} WHERE id = $1`, [ids.requestACompleted]);
    await db.query(`UPDATE transfers SET created_at = ${micro}, executed_at = ${micro} WHERE payroll_request_id = $1`, [ids.requestACompleted]);
    await db.query(`UPDATE fx_exchanges SET recorded_at = ${micro} WHERE payroll_request_id = $1`, [ids.requestACompleted]);
    const expected: unknown = JSON.parse(JSON.stringify(await loadPayrollRequest(db, ids.requestACompleted)));
    const sql = JSON.parse((await getPayrollRequestJson({ db }, admin, ids.requestACompleted)).text);
    expect(sql).toEqual(expected);
    expect(sql.updatedAt).toBe('2026-11-23T10:00:00.999Z');
  });
});

describe('free text with quotes, backslashes, control characters and non-ASCII is escaped as JSON.stringify escapes it', () => {
  it('every free-text field of the request, its splits, transfers and people', async () => {
    const fresh = await freshDatabase();
    opened.push(fresh);
    const { db } = fresh;
    const hostile = 'a "quoted" \\ back\\slash, tab\t, newline\n, bell\u0007, é, 😀, </script>';
    const id = ids.requestACompleted;
    // Each update fires the row's trigger (migration 011), which writes its JSON again.
    await db.query('UPDATE amount_splits SET purpose_code = $2, beneficiary_snapshot = beneficiary_snapshot || $3::jsonb WHERE payroll_request_id = $1', [
      id,
      hostile,
      JSON.stringify({ firstName: hostile, lastName: hostile, displayName: hostile, bankName: hostile }),
    ]);
    await db.query('UPDATE transfers SET external_id = $2, failure_reason = $2, payout_instruction_json = NULL WHERE payroll_request_id = $1', [id, hostile]);
    await db.query('UPDATE payroll_requests SET failure_reason = $2, cancellation_reason = $2 WHERE id = $1', [id, hostile]);
    await db.query('UPDATE customers SET first_name = $1, company_legal_name = $1', [hostile]);
    await db.query('UPDATE users SET last_name = $1', [hostile]);
    const expected: unknown = JSON.parse(JSON.stringify(await loadPayrollRequest(db, id)));
    const sql = await getPayrollRequestJson({ db }, admin, id);
    expect(JSON.parse(sql.text)).toEqual(expected);
    expect(JSON.stringify(expected)).toContain('bell\\u0007');
    expect(sql.text).toContain(JSON.stringify(hostile));
  });
});

describe('a request of many splits and transfers is read in groups of items', () => {
  it('the groups join to the items in their order, as the TypeScript view lists them', async () => {
    const fresh = await freshDatabase();
    opened.push(fresh);
    const { db } = fresh;
    const id = ids.requestACompleted;
    // Copies of the request's splits and transfers after its own, enough for several groups each.
    const copy = (table: string, columns: string) =>
      db.query(
        `INSERT INTO ${table} (id, position, ${columns})
         SELECT gen_random_uuid(), (SELECT max(position) FROM ${table} WHERE payroll_request_id = $1) + n * 100 + x.position + 1, ${columns}
           FROM ${table} x CROSS JOIN generate_series(1, 40) n WHERE x.payroll_request_id = $1`,
        [id],
      );
    await copy(
      'amount_splits',
      'payroll_request_id, beneficiary_id, beneficiary_snapshot, source_currency_amount, amount, purpose_code, created_at, amount_currency_type',
    );
    await copy('transfers', 'payroll_request_id, transfer_type, status, amount, currency_code, created_at');
    await db.query('UPDATE payroll_requests SET split_count = NULL WHERE id = $1', [id]);
    const expected = JSON.parse(JSON.stringify(await loadPayrollRequest(db, id))) as { amountSplitDetails: unknown[]; transfers: unknown[] };
    expect(expected.amountSplitDetails.length).toBeGreaterThan(80);
    expect(expected.transfers.length).toBeGreaterThan(80);
    const sql = await getPayrollRequestJson({ db }, admin, id);
    expect(sql.parts.length).toBeGreaterThan(8);
    expect(JSON.parse(sql.text)).toEqual(expected);
  });
});
