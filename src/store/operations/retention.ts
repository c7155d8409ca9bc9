import type { Queryable } from '../database/db.js';

/**
 * Deletion of what the service keeps only for a while, a batch at a time (oldest first, rows
 * another transaction holds skipped), each call one short transaction's work. Payroll requests,
 * splits, transfers, FX records, payouts and ledger entries are never deleted, and neither is an
 * estimate that was used: a payout references its estimate.
 */

/** Fee estimates never used, expired before `before`: payroll ones, then payout ones (at most `limit` of each). */
export async function deleteUnusedFeeEstimates(tx: Queryable, before: Date, limit: number): Promise<number> {
  const payroll = await tx.query(
    `DELETE FROM payroll_fee_estimates WHERE fee_hash IN (
       SELECT fee_hash FROM payroll_fee_estimates WHERE consumed_at IS NULL AND expires_at < $1 ORDER BY expires_at LIMIT $2 FOR UPDATE SKIP LOCKED)
     RETURNING 1`,
    [before, limit],
  );
  const payout = await tx.query(
    `DELETE FROM payout_fee_estimates WHERE id IN (
       SELECT id FROM payout_fee_estimates WHERE consumed_at IS NULL AND expires_at < $1 ORDER BY expires_at LIMIT $2 FOR UPDATE SKIP LOCKED)
     RETURNING 1`,
    [before, limit],
  );
  return payroll.length + payout.length;
}

/** Idempotency keys created before `before`, with the answers they keep. */
export async function deleteIdempotencyKeys(tx: Queryable, before: Date, limit: number): Promise<number> {
  const [row] = await tx.query<{ n: number }>(
    `WITH gone AS (
       DELETE FROM idempotency_keys WHERE (user_id, key) IN (
         SELECT user_id, key FROM idempotency_keys WHERE created_at < $1 ORDER BY created_at LIMIT $2 FOR UPDATE SKIP LOCKED)
       RETURNING 1)
     SELECT count(*)::int AS n FROM gone`,
    [before, limit],
  );
  return row?.n ?? 0;
}

/**
 * Events that occurred before `before` and whose deliveries are all over (succeeded or abandoned;
 * an event no endpoint subscribed to has none), with those deliveries and their attempts. An event
 * with a delivery still being retried is kept until it ends.
 */
export async function deleteDeliveredEvents(tx: Queryable, before: Date, limit: number): Promise<number> {
  const doomed = await tx.query<{ id: string }>(
    `SELECT ev.id FROM events ev
      WHERE ev.occurred_at < $1 AND NOT EXISTS (SELECT 1 FROM webhook_deliveries d WHERE d.event_id = ev.id AND d.status = 'PENDING')
      ORDER BY ev.occurred_at LIMIT $2 FOR UPDATE SKIP LOCKED`,
    [before, limit],
  );
  if (doomed.length === 0) return 0;
  const ids = doomed.map((row) => row.id);
  await tx.query('DELETE FROM webhook_delivery_attempts a USING webhook_deliveries d WHERE a.delivery_id = d.id AND d.event_id = ANY($1::uuid[])', [ids]);
  await tx.query('DELETE FROM webhook_deliveries WHERE event_id = ANY($1::uuid[])', [ids]);
  await tx.query('DELETE FROM events WHERE id = ANY($1::uuid[])', [ids]);
  return ids.length;
}
