import type { PayoutBatch } from '../../domain/payouts/payoutBatch.js';
import type { RailStatus } from '../processor/rails.js';

export interface BatchItemStatus {
  transferId: string;
  status: RailStatus;
}

/** The partner bank as a batch rail: one submission and one status read for a whole batch. */
export interface BatchRails {
  /**
   * Idempotent by batchId: a repeated call (after a crash between submit and record) returns the
   * first call's ids, never pays twice and never produces a second file.
   */
  submitBatch(batch: PayoutBatch): Promise<{ externalBatchId: string; externalIds: ReadonlyMap<string, string> }>;
  /** The items whose status the bank has reported; an item not listed is still PROCESSING. */
  batchStatus(batchId: string): Promise<BatchItemStatus[]>;
}
