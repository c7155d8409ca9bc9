import type { TransferKind } from '../payroll/transfers.js';

/**
 * The shapes of the simulated processor's and bank's own books (simulated_operations): what the
 * simulated rails record and read back, and the store keeps.
 */

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

export interface SimulatedOperation {
  outcome: 'COMPLETED' | 'FAILED';
  failureReason: string | null;
  settlesAt: Date;
}

/** One payout of a batch, as the simulated bank books it. */
export interface SimulatedBatchItem {
  transferId: string;
  externalId: string;
  amount: string;
  failureReason: string | null;
}

/** A batch as the simulated bank books it, once by its id. */
export interface SimulatedBatch {
  batchId: string;
  externalBatchId: string;
  currencyCode: string;
  submittedAt: Date;
  settlesAt: Date;
  items: readonly SimulatedBatchItem[];
}

/** An operation of a batch the simulated bank has settled. */
export interface SettledSimulatedItem {
  transferId: string;
  outcome: 'COMPLETED' | 'FAILED';
  failureReason: string | null;
}
