import type { Queryable } from '../database/db.js';

/**
 * The operator's view of the payment files (with the operator's resends and failures): each batch with how far the bank has
 * answered it, the actions taken about one it left unanswered, and the failure of named payouts on
 * the bank's written word, recorded where a status report's rejection is (bank_file_items).
 */

export type BankBatchState = 'WRITING' | 'AWAITING_BANK' | 'ANSWERED' | 'NOT_SENT';

export interface BankBatchRow {
  batchId: string;
  msgId: string;
  payrollRequestId: string | null;
  currencyCode: string;
  payoutCount: number;
  openPayoutCount: number;
  amount: string;
  state: BankBatchState;
  createdAt: Date;
  writtenAt: Date | null;
  reportCount: number;
  lastReportAt: Date | null;
  resendCount: number;
  lastResentAt: Date | null;
  /** The WPS salary file written with it (docs/wps.md); null for any other file. Timestamps as ISO strings (JSON). */
  salaryFile: {
    fileName: string;
    edrCount: number;
    total: string;
    sha256: string;
    writtenAt: string | null;
    agentStatus: 'ACCEPTED' | 'REJECTED' | null;
    agentReason: string | null;
    answeredAt: string | null;
  } | null;
}

const STATE = `CASE WHEN b.refusal IS NOT NULL THEN 'NOT_SENT' WHEN b.written_at IS NULL THEN 'WRITING'
                    WHEN o.open > 0 THEN 'AWAITING_BANK' ELSE 'ANSWERED' END`;

const BATCH_COLUMNS = `b.batch_id AS "batchId", b.msg_id AS "msgId", b.payroll_request_id AS "payrollRequestId", b.currency_code AS "currencyCode",
  b.transaction_count AS "payoutCount", o.open AS "openPayoutCount", b.control_sum::text AS amount, ${STATE} AS state,
  b.created_at AS "createdAt", b.written_at AS "writtenAt", r.count AS "reportCount", r.last AS "lastReportAt",
  a.count AS "resendCount", a.last AS "lastResentAt",
  CASE WHEN w.batch_id IS NOT NULL THEN json_build_object('fileName', w.file_name, 'edrCount', w.edr_count, 'total', w.total::text,
    'sha256', w.sha256, 'writtenAt', w.written_at, 'agentStatus', w.agent_status, 'agentReason', w.agent_reason, 'answeredAt', w.answered_at) END
    AS "salaryFile"`;

const BATCH_JOINS = `
  CROSS JOIN LATERAL (SELECT count(*)::int AS open FROM bank_file_items i WHERE i.batch_id = b.batch_id AND i.status = 'PROCESSING') o
  CROSS JOIN LATERAL (SELECT count(*)::int AS count, max(applied_at) AS last FROM bank_status_reports s WHERE s.original_msg_id = b.msg_id) r
  CROSS JOIN LATERAL (SELECT count(*)::int AS count, max(at) AS last FROM bank_file_batch_actions x
                       WHERE x.batch_id = b.batch_id AND x.action = 'RESEND' AND x.outcome = 'WRITTEN') a
  LEFT JOIN wps_salary_files w ON w.batch_id = b.batch_id`;

/** A batch written and still waiting for the bank's final word on at least one payout. */
const AWAITING = `b.refusal IS NULL AND b.written_at IS NOT NULL
  AND EXISTS (SELECT 1 FROM bank_file_items i WHERE i.batch_id = b.batch_id AND i.status = 'PROCESSING')`;

export interface BatchPage {
  after: { createdAt: Date; id: string } | null;
  limit: number;
}

/** The batches oldest first (the one waiting longest heads the queue); `unanswered` keeps those AWAITING_BANK. */
export async function listBankBatches(db: Queryable, filters: { unanswered: boolean }, page: BatchPage): Promise<BankBatchRow[]> {
  return db.query<BankBatchRow>(
    `SELECT ${BATCH_COLUMNS} FROM bank_file_batches b ${BATCH_JOINS}
      WHERE (NOT $1::boolean OR (${AWAITING}))
        AND ($2::timestamptz IS NULL OR (b.created_at, b.batch_id) > ($2, $3::uuid))
      ORDER BY b.created_at, b.batch_id LIMIT $4`,
    [filters.unanswered, page.after?.createdAt ?? null, page.after?.id ?? null, page.limit],
  );
}

/** The batch, locked against another operator's action on it; null when there is none. */
export async function lockBankBatch(tx: Queryable, batchId: string): Promise<BankBatchRow | null> {
  const locked = await tx.query('SELECT 1 FROM bank_file_batches WHERE batch_id = $1 FOR UPDATE', [batchId]);
  if (locked.length === 0) return null;
  return readBankBatch(tx, batchId);
}

export async function readBankBatch(db: Queryable, batchId: string): Promise<BankBatchRow> {
  const rows = await db.query<BankBatchRow>(`SELECT ${BATCH_COLUMNS} FROM bank_file_batches b ${BATCH_JOINS} WHERE b.batch_id = $1`, [batchId]);
  return rows[0]!;
}

/** Each named payout's state in the batch's file (null for one the file does not hold), in the order named. */
export async function bankItemStates(
  tx: Queryable,
  batchId: string,
  transferIds: readonly string[],
): Promise<{ transferId: string; status: 'PROCESSING' | 'COMPLETED' | 'FAILED' | null }[]> {
  return tx.query(
    `SELECT t.id::text AS "transferId", i.status
       FROM unnest($2::uuid[]) WITH ORDINALITY AS t(id, n)
       LEFT JOIN bank_file_items i ON i.transfer_id = t.id AND i.batch_id = $1
      ORDER BY t.n`,
    [batchId, transferIds],
  );
}

export interface BatchAction {
  id: string;
  batchId: string;
  action: 'RESEND' | 'FAIL_PAYOUTS';
  outcome: 'WRITTEN' | 'ALREADY_IN_OUTBOX' | 'FAILED';
  userId: string;
  reason: string | null;
  bankReference: string | null;
  transferIds: readonly string[];
  fileSha256: string | null;
  at: Date;
}

export async function recordBatchAction(tx: Queryable, action: BatchAction): Promise<void> {
  await tx.query(
    `INSERT INTO bank_file_batch_actions (id, batch_id, action, outcome, user_id, reason, bank_reference, transfer_ids, file_sha256, at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8::uuid[], $9, $10)`,
    [
      action.id,
      action.batchId,
      action.action,
      action.outcome,
      action.userId,
      action.reason,
      action.bankReference,
      action.transferIds,
      action.fileSha256,
      action.at,
    ],
  );
}

/**
 * The named payouts FAILED in the file's record, as a status report's rejection leaves them: the
 * batch step then fails, credits back and announces them by the one path a bank rejection takes.
 * Only payouts still PROCESSING move; returns how many did.
 */
export async function failBankItems(
  tx: Queryable,
  failure: { batchId: string; transferIds: readonly string[]; reason: string; actionId: string; at: Date },
): Promise<number> {
  const rows = await tx.query<{ n: number }>(
    `WITH failed AS (
       UPDATE bank_file_items SET status = 'FAILED', failure_reason = $3, settled_at = $4, failed_by_action_id = $5
        WHERE batch_id = $1 AND transfer_id = ANY($2::uuid[]) AND status = 'PROCESSING'
       RETURNING 1)
     SELECT count(*)::int AS n FROM failed`,
    [failure.batchId, failure.transferIds, failure.reason, failure.at, failure.actionId],
  );
  return rows[0]!.n;
}

/** How many batches wait for the bank and the age of the oldest since its file was written, at `now` (for the metrics). */
export async function unansweredBankBatches(db: Queryable, now: Date): Promise<{ count: number; oldestSeconds: number }> {
  const [row] = await db.query<{ count: number; oldestSeconds: number }>(
    `SELECT count(*)::int AS count, coalesce(GREATEST(0, EXTRACT(EPOCH FROM ($1::timestamptz - min(b.written_at)))), 0)::float8 AS "oldestSeconds"
       FROM bank_file_batches b WHERE ${AWAITING}`,
    [now],
  );
  return row!;
}
