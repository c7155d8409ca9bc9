import type { SettledSimulatedItem, SimulatedBatch, SimulatedOperation, SimulatedSubmission } from '../../domain/bank/simulatedOperations.js';
import type { Database, Queryable } from '../database/db.js';

/** Records a submission once; a repeat only counts the call and returns the first externalId. */
async function recordSimulatedSubmission(db: Queryable, submission: SimulatedSubmission): Promise<string> {
  const rows = await db.query<{ external_id: string }>(
    `INSERT INTO simulated_operations (transfer_id, kind, external_id, amount, currency_code, outcome, failure_reason, submitted_at, settles_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)
     ON CONFLICT (transfer_id) DO UPDATE SET calls = simulated_operations.calls + 1
     RETURNING external_id`,
    [
      submission.transferId,
      submission.kind,
      submission.externalId,
      submission.amount,
      submission.currencyCode,
      submission.failureReason ? 'FAILED' : 'COMPLETED',
      submission.failureReason,
      submission.submittedAt,
      submission.settlesAt,
    ],
  );
  return rows[0]!.external_id;
}

async function findSimulatedOperation(db: Queryable, transferId: string): Promise<SimulatedOperation | null> {
  const rows = await db.query<SimulatedOperation>(
    'SELECT outcome, failure_reason AS "failureReason", settles_at AS "settlesAt" FROM simulated_operations WHERE transfer_id = $1',
    [transferId],
  );
  return rows[0] ?? null;
}

/**
 * Records a batch once (a repeat counts the call) and books its items as operations in one
 * statement; an item the bank already knows (a repeat, or a payout submitted on its own before)
 * only counts the call and keeps its first externalId. Returns every item's externalId.
 */
async function recordSimulatedBatch(db: Queryable, batch: SimulatedBatch): Promise<Array<{ transferId: string; externalId: string }>> {
  await db.query(
    `INSERT INTO simulated_batches (batch_id, external_batch_id, item_count, submitted_at) VALUES ($1, $2, $3, $4)
     ON CONFLICT (batch_id) DO UPDATE SET calls = simulated_batches.calls + 1`,
    [batch.batchId, batch.externalBatchId, batch.items.length, batch.submittedAt],
  );
  return db.query<{ transferId: string; externalId: string }>(
    `INSERT INTO simulated_operations (transfer_id, kind, external_id, amount, currency_code, outcome, failure_reason, submitted_at, settles_at, batch_id)
     SELECT i."transferId", 'BANK_TO_BENEFICIARY', i."externalId", i.amount, $2, CASE WHEN i."failureReason" IS NULL THEN 'COMPLETED' ELSE 'FAILED' END,
            i."failureReason", $3, $4, $1
       FROM jsonb_to_recordset($5::jsonb) AS i("transferId" uuid, "externalId" text, amount numeric, "failureReason" text)
     ON CONFLICT (transfer_id) DO UPDATE SET calls = simulated_operations.calls + 1, batch_id = COALESCE(simulated_operations.batch_id, EXCLUDED.batch_id)
     RETURNING transfer_id AS "transferId", external_id AS "externalId"`,
    [batch.batchId, batch.currencyCode, batch.submittedAt, batch.settlesAt, JSON.stringify(batch.items)],
  );
}

/** The batch's operations the bank has settled by `now`. */
async function settledSimulatedBatchItems(db: Queryable, batchId: string, now: Date): Promise<SettledSimulatedItem[]> {
  return db.query(
    `SELECT transfer_id AS "transferId", outcome, failure_reason AS "failureReason" FROM simulated_operations WHERE batch_id = $1 AND settles_at <= $2`,
    [batchId, now],
  );
}

/** The simulated processor's and bank's books on this database (the simulated rails' SimulatedBooks). */
export function simulatedBooksOf(db: Database) {
  return {
    recordSubmission: (submission: SimulatedSubmission) => recordSimulatedSubmission(db, submission),
    find: (transferId: string) => findSimulatedOperation(db, transferId),
    recordBatch: (batch: SimulatedBatch) => db.transaction((tx) => recordSimulatedBatch(tx, batch)),
    settledBatchItems: (batchId: string, now: Date) => settledSimulatedBatchItems(db, batchId, now),
  };
}
