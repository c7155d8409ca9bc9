import { join } from 'node:path';
import { type BankFileBatch, findBankFileBatch, markBankFileWritten, recordBankFileBatch, settledBankFileItems } from '../../store/bankFiles.js';
import type { Database } from '../../store/db.js';
import type { PayoutBatch } from '../../domain/payoutBatch.js';
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

/** Where a transport that has delivered a file leaves it (it never deletes one): see docs/bank-files.md. */
export const SENT_SUBFOLDER = 'processed';

/**
 * The partner bank over ISO 20022 files: a batch is one pain.001 in the outbox, named `<MsgId>.xml`;
 * statuses are those of the pain.002 reports the worker has applied (src/usecases/bankInbox.ts).
 *
 * One file per batch, ever: the batch is recorded before its file is written, and the MsgId is
 * derived from the batch id, so a call resumed after a crash (between recording and writing, or
 * between writing and marking it written) finds the file under that name in the outbox, or in
 * processed/ where the transport puts what it delivered, and does not write it again.
 */
export class Iso20022BankRail implements BatchRails {
  constructor(
    private readonly db: Database,
    private readonly options: Iso20022RailOptions,
  ) {}

  async submitBatch(batch: PayoutBatch): Promise<{ externalBatchId: string; externalIds: ReadonlyMap<string, string> }> {
    let recorded = await findBankFileBatch(this.db, batch.batchId);
    let file: File | undefined;
    if (!recorded) {
      file = this.build(batch);
      await this.record(batch, 'refusal' in file ? file.refusal : null);
      recorded = (await findBankFileBatch(this.db, batch.batchId))!;
    }
    if (!recorded.writtenAt && !recorded.refusal) await this.write(batch, recorded, file);
    return { externalBatchId: recorded.msgId, externalIds: new Map(recorded.items.map((item) => [item.transferId, item.endToEndId])) };
  }

  async batchStatus(batchId: string): Promise<BatchItemStatus[]> {
    const settled = await settledBankFileItems(this.db, batchId);
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
    await this.db.transaction((tx) =>
      recordBankFileBatch(tx, {
        batchId: batch.batchId,
        msgId,
        refusal,
        payrollRequestId: batch.payrollRequestId,
        currencyCode: batch.currencyCode,
        controlSum: controlFigures(batch.items).sum,
        createdAt: this.options.clock(),
        items: batch.items.map((item) => ({ transferId: item.transferId, endToEndId: endToEndIdOf(item.transferId), amount: item.amount })),
      }),
    );
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
    await markBankFileWritten(this.db, batch.batchId, this.options.clock());
  }
}
