import { join } from 'node:path';
import type { BankFileBatch, NewBankFileBatch, PayoutBatch, SettledBankFileItem } from '../../../domain/payouts/payoutBatch.js';
import type { BatchItemStatus, BatchRails } from '../batchRails.js';
import { exists, writeFileAtomically } from './files.js';
import { Pain001Error, buildPain001, controlFigures, endToEndIdOf, messageIdOf } from './pain001.js';

export interface Iso20022RailOptions {
  /** Where payment files are dropped for the bank (BANK_OUTBOX_DIR). */
  outboxDir: string;
  /** GrpHdr/InitgPty/Nm of every file. */
  initiatingParty: string;
  clock: () => Date;
}

type File = { xml: string } | { refusal: string };

/**
 * What the rail keeps of its payment files (the store's bank_files, given by the composition root):
 * a batch recorded before its file is written, when it was written, and what the bank's status
 * reports settled. The rail knows the records, not the database.
 */
export interface BankFileRecords {
  find(batchId: string): Promise<BankFileBatch | null>;
  /** Records a batch and its payouts at once; a batch already recorded is left as it is. */
  record(batch: NewBankFileBatch): Promise<void>;
  markWritten(batchId: string, at: Date): Promise<void>;
  settled(batchId: string): Promise<SettledBankFileItem[]>;
  /** A single payout as a batch of one, when its account can pay by file (an IBAN and a BIC); null otherwise. */
  singlePayoutBatch(payoutId: string, executionDate: string): Promise<PayoutBatch | null>;
  isBankFileBatch(batchId: string): Promise<boolean>;
}

/** Where a transport that has delivered a file leaves it (it never deletes one): see docs/bank-files.md. */
export const SENT_SUBFOLDER = 'processed';

/**
 * The partner bank over ISO 20022 files: a batch is one pain.001 in the outbox, named `<MsgId>.xml`;
 * statuses are those of the pain.002 reports the worker has applied (src/usecases/bank/applyStatusReport.ts).
 *
 * One file per batch, ever: the batch is recorded before its file is written, and the MsgId is
 * derived from the batch id, so a call resumed after a crash (between recording and writing, or
 * between writing and marking it written) finds the file under that name in the outbox, or in
 * processed/ where the transport puts what it delivered, and does not write it again.
 */
export class Iso20022BankRail implements BatchRails {
  constructor(
    private readonly files: BankFileRecords,
    private readonly options: Iso20022RailOptions,
  ) {}

  async submitBatch(batch: PayoutBatch): Promise<{ externalBatchId: string; externalIds: ReadonlyMap<string, string> }> {
    let recorded = await this.files.find(batch.batchId);
    let file: File | undefined;
    if (!recorded) {
      file = this.build(batch);
      await this.record(batch, 'refusal' in file ? file.refusal : null);
      recorded = (await this.files.find(batch.batchId))!;
    }
    if (!recorded.writtenAt && !recorded.refusal) await this.write(batch, recorded, file);
    return { externalBatchId: recorded.msgId, externalIds: new Map(recorded.items.map((item) => [item.transferId, item.endToEndId])) };
  }

  async batchStatus(batchId: string): Promise<BatchItemStatus[]> {
    const settled = await this.files.settled(batchId);
    return settled.map((item) => ({
      transferId: item.transferId,
      status: item.status === 'COMPLETED' ? { state: 'COMPLETED' } : { state: 'FAILED', reason: item.failureReason ?? 'Rejected by the bank' },
    }));
  }

  /** The file's text, or why the batch cannot be a file (its payouts then fail with that reason). */
  private build(batch: PayoutBatch): File {
    try {
      return { xml: buildPain001(batch, { createdAt: this.options.clock(), initiatingParty: this.options.initiatingParty }).xml };
    } catch (error) {
      if (error instanceof Pain001Error) return { refusal: `Not sent to the bank: ${error.message}` };
      throw error;
    }
  }

  private async record(batch: PayoutBatch, refusal: string | null): Promise<void> {
    const msgId = messageIdOf(batch.batchId);
    await this.files.record({
      batchId: batch.batchId,
      msgId,
      refusal,
      payrollRequestId: batch.payrollRequestId,
      currencyCode: batch.currencyCode,
      controlSum: controlFigures(batch.items).sum,
      createdAt: this.options.clock(),
      items: batch.items.map((item) => ({ transferId: item.transferId, endToEndId: endToEndIdOf(item.transferId), amount: item.amount })),
    });
  }

  private async write(batch: PayoutBatch, recorded: BankFileBatch, built: File | undefined): Promise<void> {
    const name = `${recorded.msgId}.xml`;
    const { outboxDir } = this.options;
    const present = (await exists(join(outboxDir, name))) || (await exists(join(outboxDir, SENT_SUBFOLDER, name)));
    if (!present) {
      const file = built ?? this.build(batch);
      if ('refusal' in file) throw new Pain001Error(`Batch ${batch.batchId} was recorded for a file but can no longer be written: ${file.refusal}`);
      await writeFileAtomically(outboxDir, name, file.xml);
    }
    await this.files.markWritten(batch.batchId, this.options.clock());
  }
}
