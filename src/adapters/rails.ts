import type { Database } from '../store/db.js';

export type TransferKind = 'PROCESSOR_INTERNAL_DEBIT' | 'PROCESSOR_TO_BANK' | 'BANK_TO_BENEFICIARY' | 'PAYOUT';

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

/** Documented failure triggers of the simulation. */
export const FAILING_PROCESSOR = 'FAILING_PROCESSOR';
export const FAILING_REFERENCE_PREFIX = 'FAIL';

/**
 * The simulated processor and bank. They keep their own books (simulated_operations), settle
 * `settlementMs` after submission and fail deterministically: a debit from an account whose
 * provider is FAILING_PROCESSOR is declined; a payout to a beneficiary whose reference starts
 * with FAIL bounces.
 */
export class SimulatedRails implements PaymentRails {
  constructor(
    private readonly db: Database,
    private readonly settlementMs: number,
    private readonly clock: () => Date,
  ) {}

  async submit(instruction: TransferInstruction): Promise<{ externalId: string }> {
    const failure = simulatedFailure(instruction);
    const now = this.clock();
    const rows = await this.db.query<{ external_id: string }>(
      `INSERT INTO simulated_operations (transfer_id, kind, external_id, amount, currency_code, outcome, failure_reason, submitted_at, settles_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)
       ON CONFLICT (transfer_id) DO UPDATE SET calls = simulated_operations.calls + 1
       RETURNING external_id`,
      [
        instruction.transferId,
        instruction.kind,
        `SIM-${instruction.kind === 'PROCESSOR_INTERNAL_DEBIT' || instruction.kind === 'PROCESSOR_TO_BANK' ? 'PRC' : 'BNK'}-${instruction.transferId.slice(0, 8)}-${instruction.transferId.slice(-12)}`,
        instruction.amount,
        instruction.currencyCode,
        failure ? 'FAILED' : 'COMPLETED',
        failure,
        now,
        new Date(now.getTime() + this.settlementMs),
      ],
    );
    return { externalId: rows[0]!.external_id };
  }

  async status(transferId: string): Promise<RailStatus> {
    const rows = await this.db.query<{ outcome: 'COMPLETED' | 'FAILED'; failure_reason: string | null; settles_at: Date }>(
      'SELECT outcome, failure_reason, settles_at FROM simulated_operations WHERE transfer_id = $1',
      [transferId],
    );
    const operation = rows[0];
    if (!operation || operation.settles_at > this.clock()) return { state: 'PROCESSING' };
    return operation.outcome === 'COMPLETED' ? { state: 'COMPLETED' } : { state: 'FAILED', reason: operation.failure_reason ?? 'Failed' };
  }
}

function simulatedFailure(instruction: TransferInstruction): string | null {
  if (instruction.kind === 'PROCESSOR_INTERNAL_DEBIT' && instruction.accountProvider === FAILING_PROCESSOR) return 'Processor declined the debit';
  const isPayout = instruction.kind === 'BANK_TO_BENEFICIARY' || instruction.kind === 'PAYOUT';
  if (isPayout && instruction.beneficiaryReference?.startsWith(FAILING_REFERENCE_PREFIX)) return 'Beneficiary account closed';
  return null;
}
