import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { outdatedWireFormatFunctions, rewriteStaleJson, wireFormatMigrationSql } from '../../../src/store/derivedObjects.js';
import { insertPayoutsOfSplits } from '../../../src/store/payrollLifecycle.js';
import { getPayrollRequestJson } from '../../../src/usecases/getPayrollRequest.js';
import type { Principal } from '../../../src/usecases/principal.js';
import { loadPayrollRequest } from '../../support/oracles/payrollRequest.js';
import { ids } from '../../fixtures/world.js';
import { type FreshDatabase, freshDatabase } from '../../support/database.js';

/**
 * The split's and transfer's JSON writers are generated from TypeScript (store/wireFormat.ts) and
 * reach the database through a migration (npm run migration:wire-format). Rows written by another
 * definition (a field added since) are rewritten by the batched maintenance step, not at start-up.
 */
const admin: Principal = { userId: ids.admin, role: 'admin', customerId: null };
let fresh: FreshDatabase;
beforeAll(async () => {
  fresh = await freshDatabase();
});
afterAll(async () => fresh.drop());

async function expectEveryRequestAsTheView(): Promise<void> {
  const { db } = fresh;
  for (const { id } of await db.query<{ id: string }>('SELECT id FROM payroll_requests ORDER BY id')) {
    const expected: unknown = JSON.parse(JSON.stringify(await loadPayrollRequest(db, id)));
    expect(JSON.parse((await getPayrollRequestJson({ db }, admin, id)).text), `request ${id}`).toEqual(expected);
  }
}

describe('the JSON writers generated from TypeScript', () => {
  it('are what the migrations define: a change to the wire format needs its migration (npm run migration:wire-format -- <name>)', async () => {
    expect(await outdatedWireFormatFunctions(fresh.db)).toEqual([]);
  });

  it('rewrite, in batches, the rows an outdated definition wrote, and only those; a second run rewrites nothing', async () => {
    const { db } = fresh;
    const request = ids.requestACompleted;
    const [written] = await db.query<{ splits: number; transfers: number }>(
      `SELECT (SELECT count(*)::int FROM amount_splits WHERE payroll_request_id = $1) AS splits,
              (SELECT count(*)::int FROM transfers WHERE payroll_request_id = $1) AS transfers`,
      [request],
    );
    expect(written!.splits).toBeGreaterThan(0);
    expect(written!.transfers).toBeGreaterThan(written!.splits);
    // An older format that lacks fields, having written one request's rows; the others' are current.
    await db.exec(`
      CREATE OR REPLACE FUNCTION amount_split_api_json() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN NEW.api_json := concat('{"id":"', NEW.id, '"}'); RETURN NEW; END $$;
      CREATE OR REPLACE FUNCTION transfer_api_json() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
          NEW.payout_instruction_json := CASE WHEN NEW.amount_split_id IS NOT NULL THEN '{}' END;
          NEW.api_json := concat('{"id":"', NEW.id, '"}');
          RETURN NEW;
        END $$;
      UPDATE amount_splits SET api_json = NULL WHERE payroll_request_id = '${request}';
      UPDATE transfers SET api_json = NULL WHERE payroll_request_id = '${request}';`);
    expect(await outdatedWireFormatFunctions(db)).toEqual(['amount_split_api_json()', 'transfer_api_json()']);
    // The migration a change of format brings: the functions only.
    await db.exec(wireFormatMigrationSql());
    expect(await outdatedWireFormatFunctions(db)).toEqual([]);

    const batches: number[] = [];
    expect(await rewriteStaleJson(db, 2, (_table, count) => batches.push(count))).toEqual({
      'amount_split_api_json()': written!.splits,
      'transfer_api_json()': written!.transfers,
    });
    expect(Math.max(...batches)).toBeLessThanOrEqual(2);
    await expectEveryRequestAsTheView();
    expect(await rewriteStaleJson(db, 1000)).toEqual({ 'amount_split_api_json()': 0, 'transfer_api_json()': 0 });
  });

  it('keep the instruction a statement writing payouts from their splits gives: the same as the lookup of the split writes', async () => {
    const request = ids.requestACompleted;
    const rolledBack = new Error('rolled back');
    const compared = fresh.db.transaction(async (tx) => {
      // The request's splits written again as payouts (then rolled back): each new payout's instruction
      // must be what the trigger's own lookup wrote on the payout the world gave the same split.
      const before = await tx.query<{ split: string; instruction: string }>(
        'SELECT amount_split_id::text AS split, payout_instruction_json AS instruction FROM transfers WHERE payroll_request_id = $1 AND amount_split_id IS NOT NULL',
        [request],
      );
      await tx.query('UPDATE transfers SET amount_split_id = NULL WHERE payroll_request_id = $1', [request]);
      await tx.query(
        `INSERT INTO payout_batches (id, payroll_request_id, currency_code, status, item_count, created_at)
         SELECT gen_random_uuid(), $1, 'AED', 'CLOSED', 0, now() ON CONFLICT (payroll_request_id) DO NOTHING`,
        [request],
      );
      const [batch] = await tx.query<{ id: string }>('SELECT id FROM payout_batches WHERE payroll_request_id = $1', [request]);
      const made = await insertPayoutsOfSplits(tx, { id: request, currencyCode: 'AED', batchId: batch!.id }, new Date());
      const after = await tx.query<{ split: string; instruction: string }>(
        `SELECT t.amount_split_id::text AS split, t.payout_instruction_json AS instruction
           FROM transfers t JOIN amount_splits s ON s.id = t.amount_split_id WHERE s.payroll_request_id = $1`,
        [request],
      );
      expect(made).toBe(before.length);
      expect(new Map(after.map((row) => [row.split, JSON.parse(row.instruction)]))).toEqual(
        new Map(before.map((row) => [row.split, JSON.parse(row.instruction)])),
      );
      throw rolledBack;
    });
    await expect(compared).rejects.toBe(rolledBack);
  });
});
