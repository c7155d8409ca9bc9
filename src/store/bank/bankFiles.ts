import type { BankFileBatch, NewBankFileBatch, PayoutBatch, SalaryFileRecord, SettledBankFileItem } from '../../domain/payouts/payoutBatch.js';
import type { Database, Queryable } from '../database/db.js';
import { creditorJson, debtorJson } from '../payouts/payoutBatchParties.js';
import { findSalaryFile, markSalaryFileWritten, recordSalaryFile } from './wpsSalaryFiles.js';

async function findBankFileBatch(db: Queryable, batchId: string): Promise<BankFileBatch | null> {
  const rows = await db.query<{ msg_id: string; written_at: Date | null; refusal: string | null; items: { transferId: string; endToEndId: string }[] }>(
    `SELECT b.msg_id, b.written_at, b.refusal,
            (SELECT coalesce(jsonb_agg(jsonb_build_object('transferId', i.transfer_id, 'endToEndId', i.end_to_end_id)), '[]')
               FROM bank_file_items i WHERE i.batch_id = b.batch_id) AS items
       FROM bank_file_batches b WHERE b.batch_id = $1`,
    [batchId],
  );
  const row = rows[0];
  return row ? { batchId, msgId: row.msg_id, writtenAt: row.written_at, refusal: row.refusal, items: row.items } : null;
}

/** Records a batch and its payouts in one statement per table; a batch already recorded is left as it is. */
async function recordBankFileBatch(tx: Queryable, batch: NewBankFileBatch): Promise<void> {
  const inserted = await tx.query(
    `INSERT INTO bank_file_batches (batch_id, msg_id, payroll_request_id, currency_code, transaction_count, control_sum, created_at, refusal)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8) ON CONFLICT (batch_id) DO NOTHING RETURNING batch_id`,
    [batch.batchId, batch.msgId, batch.payrollRequestId, batch.currencyCode, batch.items.length, batch.controlSum, batch.createdAt, batch.refusal],
  );
  if (inserted.length === 0) return;
  await tx.query(
    `INSERT INTO bank_file_items (end_to_end_id, transfer_id, batch_id, amount, status, failure_reason, settled_at)
     SELECT e2e, transfer_id, $1, amount, CASE WHEN $5::text IS NULL THEN 'PROCESSING' ELSE 'FAILED' END, $5, CASE WHEN $5::text IS NULL THEN NULL ELSE $6::timestamptz END
       FROM unnest($2::text[], $3::uuid[], $4::numeric[]) AS item(e2e, transfer_id, amount)`,
    [
      batch.batchId,
      batch.items.map((item) => item.endToEndId),
      batch.items.map((item) => item.transferId),
      batch.items.map((item) => item.amount),
      batch.refusal,
      batch.createdAt,
    ],
  );
}

async function markBankFileWritten(db: Queryable, batchId: string, at: Date): Promise<void> {
  await db.query('UPDATE bank_file_batches SET written_at = $2 WHERE batch_id = $1 AND written_at IS NULL', [batchId, at]);
}

/** The payouts of a batch the bank has settled (COMPLETED or FAILED with its reason). */
async function settledBankFileItems(db: Queryable, batchId: string): Promise<SettledBankFileItem[]> {
  return db.query(
    `SELECT transfer_id AS "transferId", status, failure_reason AS "failureReason"
       FROM bank_file_items WHERE batch_id = $1 AND status <> 'PROCESSING' ORDER BY transfer_id`,
    [batchId],
  );
}

/** The batch a report answers, by the original MsgId, with the EndToEndIds of its payouts. */
export async function findBankFileByMsgId(db: Queryable, msgId: string): Promise<{ batchId: string; endToEndIds: string[] } | null> {
  const rows = await db.query<{ batch_id: string; ids: string[] }>(
    `SELECT b.batch_id, array(SELECT i.end_to_end_id FROM bank_file_items i WHERE i.batch_id = b.batch_id ORDER BY 1) AS ids
       FROM bank_file_batches b WHERE b.msg_id = $1`,
    [msgId],
  );
  const row = rows[0];
  return row ? { batchId: row.batch_id, endToEndIds: row.ids } : null;
}

export interface AppliedReport {
  msgId: string;
  originalMsgId: string;
  fileName: string;
  sha256: string;
  appliedAt: Date;
  settled: { endToEndId: string; status: 'COMPLETED' | 'FAILED'; failureReason: string | null }[];
}

/**
 * Applies a status report once: null when a report of this MsgId was applied before (nothing
 * changes), else how many payouts it settled. A payout already settled keeps its first outcome;
 * a report saying otherwise of it is recorded as a contradiction (takeUnnoticedContradictions).
 */
export async function applyBankStatusReport(tx: Queryable, batchId: string, report: AppliedReport): Promise<number | null> {
  const fresh = await tx.query(
    `INSERT INTO bank_status_reports (msg_id, original_msg_id, file_name, sha256, settled_items, applied_at)
     VALUES ($1, $2, $3, $4, 0, $5) ON CONFLICT (msg_id) DO NOTHING RETURNING msg_id`,
    [report.msgId, report.originalMsgId, report.fileName, report.sha256, report.appliedAt],
  );
  if (fresh.length === 0) return null;
  await recordContradictions(tx, batchId, report);
  const updated = await tx.query<{ count: number }>(
    `WITH settled AS (
       UPDATE bank_file_items i SET status = s.status, failure_reason = s.reason, report_msg_id = $2, settled_at = $3
         FROM unnest($4::text[], $5::text[], $6::text[]) AS s(e2e, status, reason)
        WHERE i.end_to_end_id = s.e2e AND i.batch_id = $1 AND i.status = 'PROCESSING'
       RETURNING 1)
     SELECT count(*)::int AS count FROM settled`,
    outcomeParameters(batchId, report),
  );
  const count = updated[0]!.count;
  await tx.query('UPDATE bank_status_reports SET settled_items = $2 WHERE msg_id = $1', [report.msgId, count]);
  return count;
}

/**
 * A single payout as a batch of one, when its account has an IBAN and a BIC (the bank file rail
 * pays from it); null for a payout from another account (a processor's wallet), which stays on the
 * processor's rail. The batch id is the payout id.
 */
async function loadSinglePayoutBatch(db: Queryable, payoutId: string, executionDate: string): Promise<PayoutBatch | null> {
  const rows = await db.query<PayoutBatch>(
    `SELECT p.id AS "batchId", NULL AS "payrollRequestId", p.currency_code AS "currencyCode",
            ${debtorJson('p.account_currency_id', 'a', 'p.customer_id')} AS debtor,
            $2::text AS "requestedExecutionDate",
            json_build_array(json_build_object('transferId', p.id, 'amount', p.amount::text,
              'creditor', ${creditorJson('p.beneficiary_snapshot')},
              'purposeCode', NULL, 'beneficiaryReference', p.beneficiary_snapshot->>'reference')) AS items
       FROM payouts p JOIN accounts a ON a.id = p.account_id
      WHERE p.id = $1 AND a.iban IS NOT NULL AND a.bic IS NOT NULL`,
    [payoutId, executionDate],
  );
  return rows[0] ?? null;
}

/** Whether a batch (by id) went to the bank as a file. */
async function isBankFileBatch(db: Queryable, batchId: string): Promise<boolean> {
  return (await db.query('SELECT 1 FROM bank_file_batches WHERE batch_id = $1', [batchId])).length > 0;
}

/** The report's outcomes that differ from a payout's settled one (a rejection after an acceptance). */
async function recordContradictions(tx: Queryable, batchId: string, report: AppliedReport): Promise<void> {
  await tx.query(
    `INSERT INTO bank_report_contradictions (end_to_end_id, report_msg_id, settled_status, reported_status, reported_reason, recorded_at)
     SELECT i.end_to_end_id, $2, i.status, s.status, s.reason, $3
       FROM unnest($4::text[], $5::text[], $6::text[]) AS s(e2e, status, reason)
       JOIN bank_file_items i ON i.end_to_end_id = s.e2e AND i.batch_id = $1
      WHERE i.status <> 'PROCESSING' AND i.status <> s.status`,
    outcomeParameters(batchId, report),
  );
}

export interface BankReportContradiction {
  endToEndId: string;
  transferId: string;
  reportMsgId: string;
  settledStatus: string;
  reportedStatus: string;
  reportedReason: string | null;
}

/** Contradictions not yet noticed, marked noticed now (each is taken once, by one worker). */
export async function takeUnnoticedContradictions(tx: Queryable, now: Date, limit: number): Promise<BankReportContradiction[]> {
  return tx.query<BankReportContradiction>(
    `UPDATE bank_report_contradictions c SET noticed_at = $1
       FROM bank_file_items i
      WHERE i.end_to_end_id = c.end_to_end_id
        AND c.id IN (SELECT id FROM bank_report_contradictions WHERE noticed_at IS NULL ORDER BY id LIMIT $2 FOR UPDATE SKIP LOCKED)
     RETURNING c.end_to_end_id AS "endToEndId", i.transfer_id::text AS "transferId", c.report_msg_id AS "reportMsgId",
               c.settled_status AS "settledStatus", c.reported_status AS "reportedStatus", c.reported_reason AS "reportedReason"`,
    [now, limit],
  );
}

/** $1 the batch, $2 the report's MsgId, $3 when it was applied, $4–$6 its outcomes (EndToEndId, status, reason) as arrays. */
function outcomeParameters(batchId: string, report: AppliedReport): unknown[] {
  const { settled } = report;
  return [
    batchId,
    report.msgId,
    report.appliedAt,
    settled.map((item) => item.endToEndId),
    settled.map((item) => item.status),
    settled.map((item) => item.failureReason),
  ];
}

/** What the ISO 20022 rail keeps of its payment files, on this database (the rail's BankFileRecords). */
export function bankFileRecords(db: Database) {
  return {
    find: (batchId: string) => findBankFileBatch(db, batchId),
    record: (batch: NewBankFileBatch) => db.transaction((tx) => recordBankFileBatch(tx, batch)),
    markWritten: (batchId: string, at: Date) => markBankFileWritten(db, batchId, at),
    settled: (batchId: string) => settledBankFileItems(db, batchId),
    singlePayoutBatch: (payoutId: string, executionDate: string) => loadSinglePayoutBatch(db, payoutId, executionDate),
    isBankFileBatch: (batchId: string) => isBankFileBatch(db, batchId),
    findSalaryFile: (batchId: string) => findSalaryFile(db, batchId),
    recordSalaryFile: (file: Omit<SalaryFileRecord, 'writtenAt'>) => recordSalaryFile(db, file),
    markSalaryFileWritten: (batchId: string, at: Date) => markSalaryFileWritten(db, batchId, at),
  };
}
