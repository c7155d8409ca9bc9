import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ids } from '../../fixtures/world.js';
import { type FreshDatabase, freshDatabase } from '../../support/database.js';

/**
 * Open payouts in no batch (written before batches existed) are batched once, by migration 024,
 * instead of on every worker pass. Its SQL is run here on a request whose payouts the world loaded
 * without a batch, one of them open again.
 */
let fresh: FreshDatabase;
beforeAll(async () => {
  fresh = await freshDatabase();
});
afterAll(async () => fresh.drop());

const migration = () => readFile(new URL('../../../src/store/database/migrations/024_payouts_written_before_batches.sql', import.meta.url), 'utf8');

describe('migration 024: payouts written before batches', () => {
  it('gives the open payouts in no batch one batch per request, CREATED, and leaves settled payouts alone', async () => {
    const request = ids.requestACompleted;
    const [payout] = await fresh.db.query<{ id: string }>(
      `SELECT id::text FROM transfers WHERE payroll_request_id = $1 AND transfer_type = 'BANK_TO_BENEFICIARY' ORDER BY position LIMIT 1`,
      [request],
    );
    const sql = await migration();
    const batchesOf = () =>
      fresh.db.query<{ batch: string; status: string; items: number; open: number }>(
        `SELECT b.id::text AS batch, b.status, b.item_count AS items,
                (SELECT count(*)::int FROM transfers t WHERE t.batch_id = b.id) AS open
           FROM payout_batches b WHERE b.payroll_request_id = $1`,
        [request],
      );
    await fresh.db.transaction(async (tx) => {
      await tx.query(`UPDATE transfers SET status = 'PROCESSING', completed_at = NULL, batch_id = NULL WHERE id = $1`, [payout!.id]);
      await tx.exec(sql);
    });
    const batches = await batchesOf();
    expect(batches).toEqual([{ batch: expect.any(String), status: 'CREATED', items: 1, open: 1 }]);
    const [moved] = await fresh.db.query<{ batch: string }>('SELECT batch_id::text AS batch FROM transfers WHERE id = $1', [payout!.id]);
    expect(moved!.batch).toBe(batches[0]!.batch);

    await fresh.db.transaction((tx) => tx.exec(sql));
    expect(await batchesOf()).toEqual(batches);
  });
});
