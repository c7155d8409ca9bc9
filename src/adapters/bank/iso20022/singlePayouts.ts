import type { BatchRails } from '../batchRails.js';
import type { PaymentRails, RailStatus, TransferInstruction } from '../../processor/rails.js';
import type { BankFileRecords } from './rail.js';

/**
 * The one-at-a-time rails when the bank is reached by files: a single payout from an account with an
 * IBAN and BIC goes to the bank as a batch of one (its own pain.001, the batch id being the payout
 * id); everything else (the processor's legs, payouts from a processor's wallet) stays on `others`.
 */
export class BankFileSinglePayouts implements PaymentRails {
  constructor(
    private readonly files: Pick<BankFileRecords, 'singlePayoutBatch' | 'isBankFileBatch'>,
    private readonly bank: BatchRails,
    private readonly others: PaymentRails,
    private readonly clock: () => Date,
  ) {}

  async submit(instruction: TransferInstruction): Promise<{ externalId: string }> {
    if (instruction.kind !== 'PAYOUT') return this.others.submit(instruction);
    const batch = await this.files.singlePayoutBatch(instruction.transferId, this.clock().toISOString().slice(0, 10));
    if (!batch) return this.others.submit(instruction);
    const { externalIds } = await this.bank.submitBatch(batch);
    return { externalId: externalIds.get(instruction.transferId)! };
  }

  async status(transferId: string): Promise<RailStatus> {
    if (!(await this.files.isBankFileBatch(transferId))) return this.others.status(transferId);
    const [reported] = await this.bank.batchStatus(transferId);
    return reported?.status ?? { state: 'PROCESSING' };
  }
}
