import type { RailStatus } from './rails.js';

/** One payout of a batch: what the bank needs to pay one beneficiary. transferId is its idempotency key. */
export interface PayoutBatchItem {
  transferId: string;
  /** Decimal string in the batch currency, at that currency's minor units. */
  amount: string;
  creditor: {
    name: string;
    iban: string | null;
    accountNumber: string | null;
    bankName: string | null;
    bic: string | null;
  };
  /** Bank purpose code (FCISS, PEN, OFS, …). */
  purposeCode: string | null;
  /** The beneficiary's bank reference (unstructured remittance information). */
  beneficiaryReference: string | null;
}

/** The payouts of one payroll request (or one single payout), sent to the partner bank together. */
export interface PayoutBatch {
  /** UUID; the batch's idempotency key (a bank file's MsgId is derived from it). */
  batchId: string;
  payrollRequestId: string | null;
  currencyCode: string;
  debtor: {
    accountCurrencyId: string;
    accountProvider: string;
    name: string;
    iban: string | null;
    bic: string | null;
  };
  /** YYYY-MM-DD */
  requestedExecutionDate: string;
  items: PayoutBatchItem[];
}

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
