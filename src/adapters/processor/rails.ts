import type { TransferKind } from '../../domain/payroll/transfers.js';
import type { SettledSimulatedItem, SimulatedBatch, SimulatedOperation, SimulatedSubmission } from '../../domain/bank/simulatedOperations.js';

/** What we ask the processor or the bank to do. transferId is their idempotency key. */
export interface TransferInstruction {
  transferId: string;
  kind: TransferKind;
  amount: string;
  currencyCode: string;
  /** The source account's provider (debits) or the paying account's provider (payouts). */
  accountProvider: string;
  /** The beneficiary's bank reference, for payouts. */
  beneficiaryReference: string | null;
}

export type RailStatus = { state: 'PROCESSING' } | { state: 'COMPLETED' } | { state: 'FAILED'; reason: string };

/** The payment processor and the partner bank, as the worker sees them. */
export interface PaymentRails {
  /** Idempotent by transferId: a repeated call returns the first call's externalId and never pays twice. */
  submit(instruction: TransferInstruction): Promise<{ externalId: string }>;
  status(transferId: string): Promise<RailStatus>;
}

/**
 * The simulated rails' books (the store's simulated_operations, given by the composition root).
 * Submissions and batches are recorded once, by their ids; a repeat counts the call and keeps the
 * first externalId.
 */
export interface SimulatedBooks {
  recordSubmission(submission: SimulatedSubmission): Promise<string>;
  find(transferId: string): Promise<SimulatedOperation | null>;
  recordBatch(batch: SimulatedBatch): Promise<Array<{ transferId: string; externalId: string }>>;
  settledBatchItems(batchId: string, now: Date): Promise<SettledSimulatedItem[]>;
}

/** Documented failure triggers of the simulation. */
const FAILING_PROCESSOR = 'FAILING_PROCESSOR';
const FAILING_REFERENCE_PREFIX = 'FAIL';

/**
 * The simulated processor and bank. They keep their own books (simulated_operations), settle
 * `settlementMs` after submission and fail deterministically: a debit from an account whose
 * provider is FAILING_PROCESSOR is declined; a payout to a beneficiary whose reference starts
 * with FAIL bounces.
 */
export class SimulatedRails implements PaymentRails {
  constructor(
    private readonly books: SimulatedBooks,
    private readonly settlementMs: number,
    private readonly clock: () => Date,
  ) {}

  async submit(instruction: TransferInstruction): Promise<{ externalId: string }> {
    const now = this.clock();
    const externalId = await this.books.recordSubmission({
      transferId: instruction.transferId,
      kind: instruction.kind,
      externalId: simulatedExternalId(instruction),
      amount: instruction.amount,
      currencyCode: instruction.currencyCode,
      failureReason: simulatedFailure(instruction),
      submittedAt: now,
      settlesAt: new Date(now.getTime() + this.settlementMs),
    });
    return { externalId };
  }

  async status(transferId: string): Promise<RailStatus> {
    const operation = await this.books.find(transferId);
    if (!operation || operation.settlesAt > this.clock()) return { state: 'PROCESSING' };
    return operation.outcome === 'COMPLETED' ? { state: 'COMPLETED' } : { state: 'FAILED', reason: operation.failureReason ?? 'Failed' };
  }
}

/** SIM-PRC-… for the processor's debits and moves, SIM-BNK-… for the bank's payouts. */
export function simulatedExternalId(instruction: TransferInstruction): string {
  const rail = instruction.kind === 'PROCESSOR_INTERNAL_DEBIT' || instruction.kind === 'PROCESSOR_TO_BANK' ? 'PRC' : 'BNK';
  return `SIM-${rail}-${instruction.transferId.slice(0, 8)}-${instruction.transferId.slice(-12)}`;
}

export function simulatedFailure(instruction: TransferInstruction): string | null {
  if (instruction.kind === 'PROCESSOR_INTERNAL_DEBIT' && instruction.accountProvider === FAILING_PROCESSOR) return 'Processor declined the debit';
  const isPayout = instruction.kind === 'BANK_TO_BENEFICIARY' || instruction.kind === 'PAYOUT';
  if (isPayout && instruction.beneficiaryReference?.startsWith(FAILING_REFERENCE_PREFIX)) return 'Beneficiary account closed';
  return null;
}
