import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database, Queryable } from '../../../src/store/database/db.js';
import { ids } from '../../fixtures/world.js';
import { freshDatabase } from '../../support/database.js';

/**
 * The references of splits and transfers (migration 021), checked per statement on insert and per
 * row when an update changes one: a missing request, beneficiary or payout batch is refused with
 * SQLSTATE 23503, the whole statement with it; splits, batches and beneficiaries are never deleted.
 */

let db: Database;
let drop: () => Promise<void>;
beforeAll(async () => ({ db, drop } = await freshDatabase()));
afterAll(() => drop());

const MISSING = '00000000-0000-4000-8000-00000000dead';
const missingReference = { code: '23503' };
const kept = { code: '23001' };
const request = ids.requestACompleted;

const firstOf = async (sql: string): Promise<string> => (await db.query<{ id: string }>(sql, [request]))[0]!.id;

function writeSplits(tx: Queryable, beneficiaries: string[], requestId = request): Promise<unknown> {
  return tx.query(
    `INSERT INTO amount_splits (id, payroll_request_id, beneficiary_id, beneficiary_snapshot, source_currency_amount, amount, purpose_code, created_at, position)
     SELECT gen_random_uuid(), $1, b::uuid, '{}', 1, 1, 'SALARY', now(), 1000 + n FROM unnest($2::text[]) WITH ORDINALITY AS x(b, n)`,
    [requestId, beneficiaries],
  );
}

function writePayout(tx: Queryable, batchId: string | null, requestId = request): Promise<unknown> {
  return tx.query(
    `INSERT INTO transfers (id, payroll_request_id, transfer_type, status, amount, currency_code, created_at, position, batch_id)
     VALUES (gen_random_uuid(), $1, 'BANK_TO_BENEFICIARY', 'PENDING', 1, 'AED', now(), 1000, $2)`,
    [requestId, batchId],
  );
}

describe('the references of splits and transfers, checked per statement', () => {
  it('accepts splits and payouts whose request, beneficiaries and batch exist', async () => {
    const beneficiary = await firstOf('SELECT beneficiary_id::text AS id FROM amount_splits WHERE payroll_request_id = $1');
    const rolledBack = new Error('rolled back');
    const written = db.transaction(async (tx) => {
      await tx.query(
        `INSERT INTO payout_batches (id, payroll_request_id, currency_code, status, item_count, created_at)
         VALUES (gen_random_uuid(), $1, 'AED', 'CLOSED', 0, now()) ON CONFLICT (payroll_request_id) DO NOTHING`,
        [request],
      );
      const [batch] = await tx.query<{ id: string }>('SELECT id::text AS id FROM payout_batches WHERE payroll_request_id = $1', [request]);
      await writeSplits(tx, [beneficiary]);
      await writePayout(tx, batch!.id);
      throw rolledBack;
    });
    await expect(written).rejects.toBe(rolledBack);
  });

  it('refuses a statement of splits when one beneficiary or the request is missing, and writes none of them', async () => {
    const beneficiary = await firstOf('SELECT beneficiary_id::text AS id FROM amount_splits WHERE payroll_request_id = $1');
    const before = (await db.query<{ n: number }>('SELECT count(*)::int AS n FROM amount_splits'))[0]!.n;
    await expect(db.transaction((tx) => writeSplits(tx, [beneficiary, MISSING]))).rejects.toMatchObject(missingReference);
    await expect(db.transaction((tx) => writeSplits(tx, [beneficiary], MISSING))).rejects.toMatchObject(missingReference);
    expect((await db.query<{ n: number }>('SELECT count(*)::int AS n FROM amount_splits'))[0]!.n).toBe(before);
  });

  it('refuses a payout of a missing request or batch, and an update that points a payout or a split at a missing row', async () => {
    await expect(db.transaction((tx) => writePayout(tx, MISSING))).rejects.toMatchObject(missingReference);
    await expect(db.transaction((tx) => writePayout(tx, null, MISSING))).rejects.toMatchObject(missingReference);
    const payout = await firstOf("SELECT id::text AS id FROM transfers WHERE payroll_request_id = $1 AND transfer_type = 'BANK_TO_BENEFICIARY'");
    await expect(db.query('UPDATE transfers SET batch_id = $2 WHERE id = $1', [payout, MISSING])).rejects.toMatchObject(missingReference);
    const paidSplit = 'id = (SELECT amount_split_id FROM transfers WHERE id = $1)';
    await expect(db.query(`UPDATE amount_splits SET payout_transfer_id = $2 WHERE ${paidSplit}`, [payout, MISSING])).rejects.toMatchObject(missingReference);
    await expect(db.query(`UPDATE amount_splits SET beneficiary_id = $2 WHERE ${paidSplit}`, [payout, MISSING])).rejects.toMatchObject(missingReference);
    // The split's own link to a payout that exists is still accepted (an earlier release set it).
    const rolledBack = new Error('rolled back');
    const linked = db.transaction(async (tx) => {
      expect(await tx.query(`UPDATE amount_splits SET payout_transfer_id = $1 WHERE ${paidSplit} RETURNING 1`, [payout])).toHaveLength(1);
      throw rolledBack;
    });
    await expect(linked).rejects.toBe(rolledBack);
  });

  it('never deletes a split, a payout batch or a beneficiary', async () => {
    await db.query(
      `INSERT INTO payout_batches (id, payroll_request_id, currency_code, status, item_count, created_at)
       VALUES (gen_random_uuid(), $1, 'AED', 'CLOSED', 0, now()) ON CONFLICT (payroll_request_id) DO NOTHING`,
      [request],
    );
    for (const table of ['amount_splits', 'payout_batches', 'beneficiaries']) {
      await expect(db.query(`DELETE FROM ${table} WHERE id = (SELECT id FROM ${table} LIMIT 1)`), table).rejects.toMatchObject(kept);
      await expect(db.query(`TRUNCATE ${table} CASCADE`), table).rejects.toMatchObject(kept);
    }
  });
});
