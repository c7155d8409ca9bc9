import type { SalaryFileRecord } from '../../domain/payouts/payoutBatch.js';
import type { Queryable } from '../database/db.js';

/** The Salary Information Files the bank rail wrote beside its payment files (docs/wps.md). */

const COLUMNS = `batch_id AS "batchId", file_name AS "fileName", payroll_request_id AS "payrollRequestId", edr_count AS "edrCount",
  total::text AS total, sha256, created_at AS "createdAt", written_at AS "writtenAt"`;

export async function findSalaryFile(db: Queryable, batchId: string): Promise<SalaryFileRecord | null> {
  const [row] = await db.query<SalaryFileRecord>(`SELECT ${COLUMNS} FROM wps_salary_files WHERE batch_id = $1`, [batchId]);
  return row ?? null;
}

/** Records a batch's SIF before it is written; one already recorded for the batch is left as it is. */
export async function recordSalaryFile(db: Queryable, file: Omit<SalaryFileRecord, 'writtenAt'>): Promise<void> {
  await db.query(
    `INSERT INTO wps_salary_files (batch_id, file_name, payroll_request_id, edr_count, total, sha256, created_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT (batch_id) DO NOTHING`,
    [file.batchId, file.fileName, file.payrollRequestId, file.edrCount, file.total, file.sha256, file.createdAt],
  );
}

export async function markSalaryFileWritten(db: Queryable, batchId: string, at: Date): Promise<void> {
  await db.query('UPDATE wps_salary_files SET written_at = $2 WHERE batch_id = $1 AND written_at IS NULL', [batchId, at]);
}
