/**
 * What the fleet must leave behind, read from the database after every process has stopped: each
 * split paid at most once (exactly once when the request completed it), each payout's outcome
 * booked once, every delivery of the test's webhook endpoint done.
 */
import type { Database } from '../../src/store/database/db.js';

/** Splits of `requestIds` with other than one payout, or a payout booked other than once. Empty when all is well. */
export async function paymentProblems(db: Database, requestIds: string[]): Promise<string[]> {
  const rows = await db.query<{ split_id: string; status: string; payouts: number; sent: number; credited: number; calls: number }>(
    `SELECT s.id AS split_id, r.status,
            (SELECT count(*)::int FROM transfers t WHERE t.amount_split_id = s.id AND t.transfer_type = 'BANK_TO_BENEFICIARY') AS payouts,
            (SELECT count(*)::int FROM journal_entries je JOIN transfers t ON t.id = je.transfer_id
              WHERE t.amount_split_id = s.id AND je.kind = 'PAYOUT_SENT') AS sent,
            (SELECT count(*)::int FROM journal_entries je JOIN transfers t ON t.id = je.transfer_id
              WHERE t.amount_split_id = s.id AND je.kind <> 'PAYOUT_SENT') AS credited,
            (SELECT COALESCE(max(o.calls), 0)::int FROM simulated_operations o JOIN transfers t ON t.id = o.transfer_id
              WHERE t.amount_split_id = s.id) AS calls
       FROM amount_splits s JOIN payroll_requests r ON r.id = s.payroll_request_id
      WHERE s.payroll_request_id = ANY($1::uuid[])`,
    [requestIds],
  );
  const problems: string[] = [];
  for (const row of rows) {
    const paysOut = row.status === 'COMPLETED' || row.status === 'PARTIALLY_COMPLETED' || (row.status === 'FAILED' && row.payouts > 0);
    if (paysOut && row.payouts !== 1) problems.push(`split ${row.split_id} (${row.status}) has ${row.payouts} payouts`);
    if (!paysOut && row.payouts !== 0) problems.push(`split ${row.split_id} (${row.status}) has ${row.payouts} payouts, expected none`);
    if (row.sent + row.credited !== row.payouts)
      problems.push(`split ${row.split_id}: ${row.sent} payout(s) sent and ${row.credited} credited back for ${row.payouts} payout(s)`);
    // The rails see a transfer as one operation (its id is their idempotency key): a worker killed
    // between its submit and its record submits again, never a third time.
    if (row.calls > 2) problems.push(`split ${row.split_id}: its payout was submitted ${row.calls} times`);
  }
  return problems;
}

/** Outcomes of the payouts of `requestIds`, for the summary. */
export async function payoutOutcomes(db: Database, requestIds: string[]): Promise<Record<string, number>> {
  const rows = await db.query<{ status: string; n: number }>(
    "SELECT status, count(*)::int AS n FROM transfers WHERE payroll_request_id = ANY($1::uuid[]) AND transfer_type = 'BANK_TO_BENEFICIARY' GROUP BY status",
    [requestIds],
  );
  return Object.fromEntries(rows.map((row) => [row.status, row.n]));
}

/** Event ids of `customerId` of the subscribed types since the endpoint existed: each must reach the receiver. */
export async function expectedEventIds(db: Database, customerId: string, endpointId: string): Promise<string[]> {
  const rows = await db.query<{ id: string }>(
    `SELECT ev.id FROM events ev, webhook_endpoints e
      WHERE e.id = $2 AND ev.customer_id = $1 AND ev.type = ANY(e.event_types) AND ev.occurred_at >= e.created_at`,
    [customerId, endpointId],
  );
  return rows.map((row) => row.id);
}

/** Deliveries of the endpoint that are not SUCCEEDED (status → count). */
export async function undeliveredCounts(db: Database, endpointId: string): Promise<Record<string, number>> {
  const rows = await db.query<{ status: string; n: number }>(
    "SELECT status, count(*)::int AS n FROM webhook_deliveries WHERE endpoint_id = $1 AND status <> 'SUCCEEDED' GROUP BY status",
    [endpointId],
  );
  return Object.fromEntries(rows.map((row) => [row.status, row.n]));
}

/** PostgreSQL's deadlock count for the database (pg_stat_database), for the summary. */
export async function deadlocks(db: Database): Promise<number> {
  const [row] = await db.query<{ n: number }>('SELECT deadlocks::int AS n FROM pg_stat_database WHERE datname = current_database()');
  return row?.n ?? 0;
}
