import type { TransferKind } from '../domain/transfers.js';
import type { Queryable } from './db.js';

/** The simulated processor's and bank's own books: one operation per transfer id. */
export interface SimulatedSubmission {
  transferId: string;
  kind: TransferKind;
  externalId: string;
  amount: string;
  currencyCode: string;
  /** null: the operation will complete; otherwise why it will fail. */
  failureReason: string | null;
  submittedAt: Date;
  settlesAt: Date;
}

/** Records a submission once; a repeat only counts the call and returns the first externalId. */
export async function recordSimulatedSubmission(db: Queryable, submission: SimulatedSubmission): Promise<string> {
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

export interface SimulatedOperation {
  outcome: 'COMPLETED' | 'FAILED';
  failureReason: string | null;
  settlesAt: Date;
}

export async function findSimulatedOperation(db: Queryable, transferId: string): Promise<SimulatedOperation | null> {
  const rows = await db.query<SimulatedOperation>(
    'SELECT outcome, failure_reason AS "failureReason", settles_at AS "settlesAt" FROM simulated_operations WHERE transfer_id = $1',
    [transferId],
  );
  return rows[0] ?? null;
}
