import type { SalaryFileRecord } from '../../domain/payouts/payoutBatch.js';
import type { Queryable } from '../database/db.js';

/** The Salary Information Files the bank rail wrote beside its payment files (docs/wps.md). */

const COLUMNS = `batch_id AS "batchId", file_name AS "fileName", payroll_request_id AS "payrollRequestId", edr_count AS "edrCount",
  total::text AS total, sha256, created_at AS "createdAt", written_at AS "writtenAt"`;

export async function findSalaryFile(db: Queryable, batchId: string): Promise<SalaryFileRecord | null> {
  const [row] = await db.query<SalaryFileRecord>(`SELECT ${COLUMNS} FROM wps_salary_files WHERE batch_id = $1`, [batchId]);
  return row ?? null;
}

/**
 * Records a batch's SIF before it is written; one already recorded for the batch is left as it is,
 * and so is one whose name another batch's file holds (the caller then names it anew).
 */
export async function recordSalaryFile(db: Queryable, file: Omit<SalaryFileRecord, 'writtenAt'>): Promise<void> {
  await db.query(
    `INSERT INTO wps_salary_files (batch_id, file_name, payroll_request_id, edr_count, total, sha256, created_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT DO NOTHING`,
    [file.batchId, file.fileName, file.payrollRequestId, file.edrCount, file.total, file.sha256, file.createdAt],
  );
}

export async function markSalaryFileWritten(db: Queryable, batchId: string, at: Date): Promise<void> {
  await db.query('UPDATE wps_salary_files SET written_at = $2 WHERE batch_id = $1 AND written_at IS NULL', [batchId, at]);
}

/** A salary file as the agent's answers name it. */
export interface AnsweredSalaryFile {
  batchId: string;
  payrollRequestId: string | null;
  agentStatus: 'ACCEPTED' | 'REJECTED' | null;
}

export async function findSalaryFileByName(tx: Queryable, fileName: string): Promise<AnsweredSalaryFile | null> {
  const [row] = await tx.query<AnsweredSalaryFile>(
    `SELECT batch_id AS "batchId", payroll_request_id AS "payrollRequestId", agent_status AS "agentStatus"
       FROM wps_salary_files WHERE upper(file_name) = upper($1) FOR UPDATE`,
    [fileName],
  );
  return row ?? null;
}

/** Records the agent's acceptance or rejection of a file not answered before; false when it was. */
export async function recordAgentAnswer(tx: Queryable, batchId: string, status: 'ACCEPTED' | 'REJECTED', reason: string | null, at: Date): Promise<boolean> {
  const rows = await tx.query(
    `UPDATE wps_salary_files SET agent_status = $2, agent_reason = $3, answered_at = $4
      WHERE batch_id = $1 AND agent_status IS NULL RETURNING batch_id`,
    [batchId, status, reason, at],
  );
  return rows.length > 0;
}

/** The payout of a salary file's batch that paid the employee `personId` (zero-padding aside), with the account it left. */
export interface RefundedPayout {
  transferId: string;
  accountCurrencyId: string;
  currencyCode: string;
  decimals: number;
  refunded: boolean;
}

export async function findRefundedPayout(tx: Queryable, fileName: string, batchId: string, personId: string): Promise<RefundedPayout | null> {
  const rows = await tx.query<RefundedPayout>(
    `SELECT t.id AS "transferId", r.payroll_account_currency_id AS "accountCurrencyId", ac.currency_code AS "currencyCode", c.decimals,
            EXISTS (SELECT 1 FROM wps_refunds f WHERE f.file_name = $1 AND f.transfer_id = t.id) AS refunded
       FROM transfers t
       JOIN amount_splits s ON s.id = t.amount_split_id
       JOIN payroll_requests r ON r.id = t.payroll_request_id
       JOIN account_currencies ac ON ac.id = r.payroll_account_currency_id
       JOIN currencies c ON c.code = ac.currency_code
      WHERE t.batch_id = $2 AND ltrim(s.wps_person_id, '0') = ltrim($3, '0')`,
    [fileName, batchId, personId],
  );
  // Two payouts of one file to one person id cannot be told apart: no refund is matched to either.
  return rows.length === 1 ? rows[0]! : null;
}

export async function recordRefund(
  tx: Queryable,
  refund: { fileName: string; transferId: string; refundCode: string; amount: string; at: Date },
): Promise<void> {
  await tx.query('INSERT INTO wps_refunds (file_name, transfer_id, refund_code, amount, applied_at) VALUES ($1, $2, $3, $4, $5)', [
    refund.fileName,
    refund.transferId,
    refund.refundCode,
    refund.amount,
    refund.at,
  ]);
}
