import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { salaryFileOfBatch } from '../../../domain/bank/wpsBatch.js';
import { SIF_PROFILES, type SalaryInformationFile, SifError, type SifProfile } from '../../../domain/bank/wpsSalaryFile.js';
import type { BankFileBatch, NewBankFileBatch, PayoutBatch, SalaryFileRecord, SettledBankFileItem } from '../../../domain/payouts/payoutBatch.js';
import type { BatchItemStatus, BatchRails } from '../batchRails.js';
import { exists, writeFileAtomically } from './files.js';
import { Pain001Error, buildPain001, controlFigures, endToEndIdOf, messageIdOf } from './pain001.js';

export interface Iso20022RailOptions {
  /** Where payment files are dropped for the bank (BANK_OUTBOX_DIR). */
  outboxDir: string;
  /** GrpHdr/InitgPty/Nm of every file. */
  initiatingParty: string;
  clock: () => Date;
  /** The layout of the WPS salary files (WPS_SIF_PROFILE); the Central Bank's when absent. */
  sifProfile?: SifProfile | undefined;
}

type File = { xml: string; sif: SalaryInformationFile | null } | { refusal: string };

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
  findSalaryFile(batchId: string): Promise<SalaryFileRecord | null>;
  /** Records a batch's SIF before it is written; one already recorded, or a name already taken, is left as it is. */
  recordSalaryFile(file: Omit<SalaryFileRecord, 'writtenAt'>): Promise<void>;
  markSalaryFileWritten(batchId: string, at: Date): Promise<void>;
}

/** How far past its creation a salary file's name may move to be unique (one employer's payrolls of the same minute). */
const MAX_NAME_SHIFT_SECONDS = 3600;

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
    if (!recorded.refusal && batch.wpsEmployer) await this.writeSalaryFile(batch, file && 'sif' in file ? file.sif : null);
    return { externalBatchId: recorded.msgId, externalIds: new Map(recorded.items.map((item) => [item.transferId, item.endToEndId])) };
  }

  async batchStatus(batchId: string): Promise<BatchItemStatus[]> {
    const settled = await this.files.settled(batchId);
    return settled.map((item) => ({
      transferId: item.transferId,
      status: item.status === 'COMPLETED' ? { state: 'COMPLETED' } : { state: 'FAILED', reason: item.failureReason ?? 'Rejected by the bank' },
    }));
  }

  /**
   * The file's text (and the WPS salary file that goes with it), or why the batch cannot be sent
   * (its payouts then fail with that reason): a WPS payroll is never sent without its salary file.
   */
  private build(batch: PayoutBatch): File {
    const createdAt = this.options.clock();
    try {
      const sif = salaryFileOfBatch(batch, this.profile(), createdAt);
      return { xml: buildPain001(batch, { createdAt, initiatingParty: this.options.initiatingParty }).xml, sif };
    } catch (error) {
      if (error instanceof Pain001Error || error instanceof SifError) return { refusal: `Not sent to the bank: ${error.message}` };
      throw error;
    }
  }

  private profile(): SifProfile {
    return this.options.sifProfile ?? SIF_PROFILES.UAEWPS;
  }

  /**
   * The SIF beside the payment file, with the payment file's guarantees (docs/wps.md): recorded
   * (name, figures, SHA-256) before it is written, written once and atomically, owner-only. A
   * resumed call builds it again from the recorded creation time, so its bytes are those recorded.
   */
  private async writeSalaryFile(batch: PayoutBatch, built: SalaryInformationFile | null): Promise<void> {
    let recorded = await this.files.findSalaryFile(batch.batchId);
    // The name holds the time to the second: two payrolls of one employer in the same second take the next free second.
    for (let second = 0; !recorded; second++) {
      if (second >= MAX_NAME_SHIFT_SECONDS) throw new SifError(`No free salary file name for batch ${batch.batchId} within ${MAX_NAME_SHIFT_SECONDS} s`);
      const createdAt = new Date((built?.createdAt ?? this.options.clock()).getTime() + second * 1000);
      const sif = second === 0 && built ? built : salaryFileOfBatch(batch, this.profile(), createdAt)!;
      await this.files.recordSalaryFile({
        batchId: batch.batchId,
        fileName: sif.fileName,
        payrollRequestId: batch.payrollRequestId,
        edrCount: sif.edrCount,
        total: sif.total,
        sha256: sha256(sif.text),
        createdAt: sif.createdAt,
      });
      recorded = await this.files.findSalaryFile(batch.batchId);
    }
    if (recorded.writtenAt) return;
    const { outboxDir } = this.options;
    const present = (await exists(join(outboxDir, recorded.fileName))) || (await exists(join(outboxDir, SENT_SUBFOLDER, recorded.fileName)));
    if (!present) {
      const sif = salaryFileOfBatch(batch, this.profile(), recorded.createdAt)!;
      if (sif.fileName !== recorded.fileName || sha256(sif.text) !== recorded.sha256)
        throw new SifError(`The salary file of batch ${batch.batchId} would differ from the one recorded (${recorded.fileName}); it is not written`);
      await writeFileAtomically(outboxDir, recorded.fileName, sif.text);
    }
    await this.files.markSalaryFileWritten(batch.batchId, this.options.clock());
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

function sha256(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}
