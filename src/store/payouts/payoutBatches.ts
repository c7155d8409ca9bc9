import type { Queryable } from '../database/db.js';
import { creditorJson, debtorJson } from './payoutBatchParties.js';
import type { PayoutBatch } from '../../domain/payouts/payoutBatch.js';

/**
 * The payouts of a payroll request as one batch (the payout_batches row): the batch row, written before the
 * bank hears of it, and the set-based moves of its items. Every move is one statement for a chunk of
 * items: the transfers' status (the use case records their transfer.status_changed events after, in
 * the same transaction).
 */

export type BatchStatus = 'CREATED' | 'SUBMITTED' | 'CLOSED';

export interface ClaimedBatch {
  id: string;
  payrollRequestId: string;
  customerId: string;
  status: Exclude<BatchStatus, 'CLOSED'>;
  itemCount: number;
}

export async function insertPayoutBatch(
  tx: Queryable,
  batch: { id: string; requestId: string; currencyCode: string; itemCount: number; at: Date },
): Promise<void> {
  await tx.query(`INSERT INTO payout_batches (id, payroll_request_id, currency_code, status, item_count, created_at) VALUES ($1, $2, $3, 'CREATED', $4, $5)`, [
    batch.id,
    batch.requestId,
    batch.currencyCode,
    batch.itemCount,
    batch.at,
  ]);
}

/** Claims up to `limit` open batches no other worker holds (exclusive claim plus a lease, as for transfers). */
export async function claimPayoutBatches(tx: Queryable, now: Date, leaseUntil: Date, limit: number): Promise<ClaimedBatch[]> {
  return tx.query<ClaimedBatch>(
    `WITH claimable AS (
       SELECT id FROM payout_batches
        WHERE status <> 'CLOSED' AND (locked_until IS NULL OR locked_until < $1)
        ORDER BY created_at LIMIT $3
        FOR UPDATE SKIP LOCKED)
     UPDATE payout_batches b SET locked_until = $2 FROM claimable, payroll_requests r
      WHERE b.id = claimable.id AND r.id = b.payroll_request_id
     RETURNING b.id, b.payroll_request_id AS "payrollRequestId", r.customer_id AS "customerId", b.status, b.item_count AS "itemCount"`,
    [now, leaseUntil, limit],
  );
}

/** A batch not yet closed, as a claim reads it (a released payout's file is followed under its request's batch). */
export async function findOpenBatch(tx: Queryable, batchId: string): Promise<ClaimedBatch[]> {
  return tx.query<ClaimedBatch>(
    `SELECT b.id, b.payroll_request_id AS "payrollRequestId", r.customer_id AS "customerId", b.status, b.item_count AS "itemCount"
       FROM payout_batches b JOIN payroll_requests r ON r.id = b.payroll_request_id
      WHERE b.id = $1 AND b.status <> 'CLOSED'`,
    [batchId],
  );
}

/** Keeps the batch ours a while longer (each chunk of a long step renews it), or frees it for a recheck at `until`. */
export async function leaseBatch(tx: Queryable, batchId: string, until: Date | null): Promise<void> {
  await tx.query('UPDATE payout_batches SET locked_until = $2 WHERE id = $1', [batchId, until]);
}

/**
 * Whether the batch still has items the bank has not been told of (PENDING or INITIATED), those
 * held by screening aside (a released one goes to the bank in a file of its own).
 */
export async function hasUnsubmittedItems(tx: Queryable, batchId: string): Promise<boolean> {
  const rows = await tx.query(
    `SELECT 1 FROM transfers t WHERE t.batch_id = $1 AND t.status IN ('PENDING', 'INITIATED')
        AND NOT EXISTS (SELECT 1 FROM screening_holds h WHERE h.transfer_id = t.id) LIMIT 1`,
    [batchId],
  );
  return rows.length > 0;
}

/** Whether any item of the batch is still open (read from the open items' partial index). */
export async function hasOpenItems(tx: Queryable, batchId: string): Promise<boolean> {
  const rows = await tx.query(`SELECT 1 FROM transfers WHERE batch_id = $1 AND status IN ('PENDING', 'INITIATED', 'PROCESSING') LIMIT 1`, [batchId]);
  return rows.length > 0;
}

/**
 * The batch as the bank needs it: the paying account and, per payout, its amount and its
 * beneficiary as the split recorded them. Payouts held by screening are left out; `released`
 * instead gives the file of released ones: its id and the payouts it holds.
 */
export async function loadPayoutBatch(
  tx: Queryable,
  batchId: string,
  executionDate: string,
  released?: { fileBatchId: string; transferIds: readonly string[] },
): Promise<PayoutBatch> {
  const [head] = await tx.query<Omit<PayoutBatch, 'items' | 'requestedExecutionDate'>>(
    `SELECT b.id AS "batchId", b.payroll_request_id AS "payrollRequestId", b.currency_code AS "currencyCode",
            ${debtorJson('ac.id', 'a', 'r.customer_id')} AS debtor,
            CASE WHEN c.wps_establishment_id IS NOT NULL AND b.currency_code = 'AED' THEN
              json_build_object('establishmentId', c.wps_establishment_id, 'agentRoutingCode', c.wps_agent_routing_code, 'name', c.company_legal_name)
            END AS "wpsEmployer"
       FROM payout_batches b
       JOIN payroll_requests r ON r.id = b.payroll_request_id
       JOIN customers c ON c.id = r.customer_id
       JOIN account_currencies ac ON ac.id = r.payroll_account_currency_id
       JOIN accounts a ON a.id = ac.account_id
      WHERE b.id = $1`,
    [batchId],
  );
  if (!head) throw new Error(`Payout batch ${batchId} not found`);
  const items = await tx.query<PayoutBatch['items'][number]>(
    `SELECT t.id AS "transferId", t.amount::text AS amount, ${creditorJson('s.beneficiary_snapshot')} AS creditor,
            s.purpose_code AS "purposeCode", s.beneficiary_snapshot->>'reference' AS "beneficiaryReference",
            CASE WHEN s.wps_fixed_amount IS NOT NULL THEN
              json_build_object('personId', s.wps_person_id, 'routingCode', s.wps_routing_code,
                'payPeriodStart', to_char(s.wps_pay_period_start, 'YYYY-MM-DD'), 'payPeriodEnd', to_char(s.wps_pay_period_end, 'YYYY-MM-DD'),
                'fixedAmount', s.wps_fixed_amount::text, 'variableAmount', s.wps_variable_amount::text, 'leaveDays', s.wps_leave_days)
            END AS wps
       FROM transfers t LEFT JOIN amount_splits s ON s.id = t.amount_split_id
      WHERE t.batch_id = $1
        AND CASE WHEN $2::uuid[] IS NULL THEN NOT EXISTS (SELECT 1 FROM screening_holds h WHERE h.transfer_id = t.id) ELSE t.id = ANY($2::uuid[]) END
      ORDER BY t.position`,
    [batchId, released ? released.transferIds : null],
  );
  return { ...head, ...(released && { batchId: released.fileBatchId }), requestedExecutionDate: executionDate, items };
}

export async function markBatchSubmitted(tx: Queryable, batchId: string, externalBatchId: string, at: Date): Promise<void> {
  await tx.query(
    `UPDATE payout_batches SET status = 'SUBMITTED', external_batch_id = $2, submitted_at = COALESCE(submitted_at, $3) WHERE id = $1 AND status = 'CREATED'`,
    [batchId, externalBatchId, at],
  );
}

/** CLOSED once (false when another worker closed it first). */
export async function closeBatch(tx: Queryable, batchId: string, at: Date): Promise<boolean> {
  const rows = await tx.query(
    `UPDATE payout_batches SET status = 'CLOSED', closed_at = $2, locked_until = NULL WHERE id = $1 AND status <> 'CLOSED' RETURNING id`,
    [batchId, at],
  );
  return rows.length === 1;
}

/** An item the bank took: its id, and whether it was still PENDING (its move then shows INITIATED first). */
export interface SubmittedItem {
  id: string;
  wasPending: boolean;
}

/**
 * The bank's id of each submitted item, and its moves in one row update: PENDING → PROCESSING
 * (INITIATED then PROCESSING, as its events show) or, for an item a worker had already marked
 * INITIATED, PROCESSING alone. The old status is read from the row's version before the update
 * (`was`). Returns the items that moved, in the request's order.
 */
export async function recordBatchItemsSubmitted(
  tx: Queryable,
  batch: Pick<ClaimedBatch, 'id'>,
  externalIds: ReadonlyArray<{ id: string; externalId: string }>,
  at: Date,
): Promise<SubmittedItem[]> {
  return tx.query<SubmittedItem>(
    `WITH moved AS (
       UPDATE transfers t SET status = 'PROCESSING', external_id = x."externalId", executed_at = COALESCE(t.executed_at, $1)
         FROM jsonb_to_recordset($3::jsonb) AS x(id uuid, "externalId" text), transfers was
        WHERE t.id = x.id AND was.id = x.id AND t.batch_id = $2 AND t.status IN ('PENDING', 'INITIATED')
       RETURNING t.id, t.position, was.status = 'PENDING' AS "wasPending"
     )
     SELECT id, "wasPending" FROM moved ORDER BY position`,
    [at, batch.id, JSON.stringify(externalIds)],
  );
}

/** A payout the bank settled: what its journal entry needs. */
export interface SettledItem {
  id: string;
  status: 'COMPLETED' | 'FAILED';
  amount: string;
  /** What a FAILED payout credits back: its split's quoted source amount. */
  quotedSourceAmount: string | null;
}

/**
 * PROCESSING → COMPLETED | FAILED as the bank reported them; a FAILED payout's split shows what it
 * credits back. Items already settled (by another worker) are left alone and not returned.
 */
export async function settleBatchItems(
  tx: Queryable,
  batch: Pick<ClaimedBatch, 'id'>,
  outcomes: ReadonlyArray<{ id: string; status: 'COMPLETED' | 'FAILED'; reason: string | null }>,
  at: Date,
): Promise<SettledItem[]> {
  return tx.query<SettledItem>(
    `WITH moved AS (
       UPDATE transfers t SET status = x.status, completed_at = $1, failure_reason = x.reason, locked_until = NULL
         FROM jsonb_to_recordset($3::jsonb) AS x(id uuid, status text, reason text)
        WHERE t.id = x.id AND t.batch_id = $2 AND t.status = 'PROCESSING'
       RETURNING t.id, t.position, t.status, t.amount, t.amount_split_id
     ), returned AS (
       UPDATE amount_splits s SET returned_source_currency_amount = s.quoted_source_currency_amount
         FROM moved m WHERE m.status = 'FAILED' AND s.id = m.amount_split_id
     )
     SELECT m.id, m.status, m.amount::text AS amount, s.quoted_source_currency_amount::text AS "quotedSourceAmount"
       FROM moved m LEFT JOIN amount_splits s ON s.id = m.amount_split_id
      ORDER BY m.position`,
    [at, batch.id, JSON.stringify(outcomes)],
  );
}

/** How the request's payouts ended, counted once when none is left open (a payout the bank returned counts as not paid). */
export async function payoutOutcomeCounts(tx: Queryable, requestId: string): Promise<{ completed: number; failed: number; open: number }> {
  const [row] = await tx.query<{ completed: number; failed: number; open: number }>(
    `SELECT count(*) FILTER (WHERE status = 'COMPLETED')::int AS completed, count(*) FILTER (WHERE status IN ('FAILED', 'RETURNED'))::int AS failed,
            count(*) FILTER (WHERE status IN ('PENDING', 'INITIATED', 'PROCESSING'))::int AS open
       FROM transfers WHERE payroll_request_id = $1 AND transfer_type = 'BANK_TO_BENEFICIARY'`,
    [requestId],
  );
  return row!;
}
