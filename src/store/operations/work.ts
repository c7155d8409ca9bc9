import type { OpenTransferStatus, TransferKind, TransferStatus } from '../../domain/payroll/transfers.js';
import type { Queryable } from '../database/db.js';

/**
 * What the worker moves one item at a time: a payroll's legs (its payouts go to the bank as a
 * batch, store/payouts/payoutBatches.ts) and single payouts. Both share one shape.
 */
export type WorkQueue = 'PAYROLL_LEGS' | 'SINGLE_PAYOUTS';

const TABLE_OF: Record<WorkQueue, 'transfers' | 'payouts'> = { PAYROLL_LEGS: 'transfers', SINGLE_PAYOUTS: 'payouts' };

export interface WorkItem {
  queue: WorkQueue;
  id: string;
  status: OpenTransferStatus;
  kind: TransferKind;
  amount: string;
  currencyCode: string;
  accountProvider: string;
  beneficiaryReference: string | null;
  /** The payroll request of a transfer; null for a single payout. */
  payrollRequestId: string | null;
}

const OPEN = "('PENDING', 'INITIATED', 'PROCESSING')";

/**
 * Claims up to `limit` open items no other worker holds (a payroll's payouts excepted: they go to
 * the bank as a batch, store/payouts/payoutBatches.ts): FOR UPDATE SKIP LOCKED makes the claim
 * itself exclusive, and the lease (locked_until) keeps the item ours while we call the rails
 * between transactions. A worker that dies loses its lease when it runs out; the next one resumes.
 */
export async function claimWork(tx: Queryable, queue: WorkQueue, now: Date, leaseUntil: Date, limit: number): Promise<WorkItem[]> {
  const table = TABLE_OF[queue];
  const claimed = await tx.query<{ id: string }>(
    `WITH claimable AS (
       SELECT id FROM ${table}
        WHERE status IN ${OPEN} AND (locked_until IS NULL OR locked_until < $1)${table === 'transfers' ? " AND transfer_type <> 'BANK_TO_BENEFICIARY'" : ''}
        ORDER BY created_at${table === 'transfers' ? ', position' : ''}
        LIMIT $3
        FOR UPDATE SKIP LOCKED)
     UPDATE ${table} w SET locked_until = $2 FROM claimable WHERE w.id = claimable.id RETURNING w.id`,
    [now, leaseUntil, limit],
  );
  if (claimed.length === 0) return [];
  const ids = claimed.map((row) => row.id);
  if (table === 'payouts') {
    return (
      await tx.query<Omit<WorkItem, 'queue' | 'kind' | 'payrollRequestId'>>(
        `SELECT p.id, p.status, p.amount::text AS "amount", p.currency_code AS "currencyCode", a.account_provider AS "accountProvider",
                p.beneficiary_snapshot->>'reference' AS "beneficiaryReference"
           FROM payouts p JOIN accounts a ON a.id = p.account_id WHERE p.id = ANY($1::uuid[])`,
        [ids],
      )
    ).map((row) => ({ ...row, queue, kind: 'PAYOUT' as const, payrollRequestId: null }));
  }
  return (
    await tx.query<Omit<WorkItem, 'queue'>>(
      `SELECT t.id, t.status, t.transfer_type AS "kind", t.amount::text AS "amount", t.currency_code AS "currencyCode",
              sa.account_provider AS "accountProvider", s.beneficiary_snapshot->>'reference' AS "beneficiaryReference",
              t.payroll_request_id AS "payrollRequestId"
         FROM transfers t
         JOIN payroll_requests r ON r.id = t.payroll_request_id
         JOIN account_currencies sac ON sac.id = r.source_account_currency_id
         JOIN accounts sa ON sa.id = sac.account_id
         LEFT JOIN amount_splits s ON s.id = t.amount_split_id
        WHERE t.id = ANY($1::uuid[])`,
      [ids],
    )
  ).map((row) => ({ ...row, queue }));
}

/** Moves an item one status forward, only from the status we expect (a stale worker changes nothing). */
export async function advanceWork(
  tx: Queryable,
  item: Pick<WorkItem, 'queue' | 'id'>,
  from: WorkItem['status'],
  to: Exclude<TransferStatus, 'PENDING'>,
  at: Date,
  details: { externalId?: string; failureReason?: string } = {},
): Promise<boolean> {
  const table = TABLE_OF[item.queue];
  const touch = table === 'payouts' ? ', updated_at = $4' : '';
  const [set, extra]: [string, unknown[]] =
    to === 'INITIATED'
      ? ['executed_at = $4', []]
      : to === 'PROCESSING'
        ? ['external_id = $5, executed_at = COALESCE(executed_at, $4)', [details.externalId ?? null]]
        : ['completed_at = $4, failure_reason = $5, locked_until = NULL', [details.failureReason ?? null]];
  const rows = await tx.query(`UPDATE ${table} SET status = $3, ${set}${touch} WHERE id = $1 AND status = $2 RETURNING id`, [item.id, from, to, at, ...extra]);
  return rows.length === 1;
}

export async function releaseLease(tx: Queryable, item: Pick<WorkItem, 'queue' | 'id'>, until: Date | null): Promise<void> {
  await tx.query(`UPDATE ${TABLE_OF[item.queue]} SET locked_until = $2 WHERE id = $1`, [item.id, until]);
}
