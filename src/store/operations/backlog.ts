import type { Queryable } from '../database/db.js';

export interface BacklogRow {
  /** A transfer type, PAYOUT, PAYROLL_START (an accepted request the worker has not started) or WEBHOOK_DELIVERY. */
  kind: string;
  pending: number;
  /** Age of the oldest pending item at `now`, seconds. */
  oldestSeconds: number;
}

/**
 * The worker's pending work by kind, with the age of the oldest item of each: one statement, each
 * branch on a partial index of the open rows (transfers_open, payouts_open, payroll_requests_status,
 * webhook_deliveries_due), so it reads only what is still to do. Kinds with nothing pending are absent.
 */
export async function readBacklog(db: Queryable, now: Date): Promise<BacklogRow[]> {
  return db.query<BacklogRow>(
    `SELECT kind, count(*)::int AS pending, GREATEST(0, EXTRACT(EPOCH FROM ($1::timestamptz - min(since))))::float8 AS "oldestSeconds"
       FROM (SELECT transfer_type AS kind, created_at AS since FROM transfers WHERE status IN ('PENDING', 'INITIATED', 'PROCESSING')
             UNION ALL SELECT 'PAYOUT', created_at FROM payouts WHERE status IN ('PENDING', 'INITIATED', 'PROCESSING')
             UNION ALL SELECT 'PAYROLL_START', updated_at FROM payroll_requests WHERE status = 'QUOTE_ACCEPTED'
             UNION ALL SELECT 'WEBHOOK_DELIVERY', created_at FROM webhook_deliveries WHERE status = 'PENDING') open
      GROUP BY kind`,
    [now],
  );
}

/** Webhook endpoints marked FAILING (and not deleted). */
export async function countFailingEndpoints(db: Queryable): Promise<number> {
  const [row] = await db.query<{ failing: number }>("SELECT count(*)::int AS failing FROM webhook_endpoints WHERE status = 'FAILING' AND deleted_at IS NULL");
  return row?.failing ?? 0;
}
