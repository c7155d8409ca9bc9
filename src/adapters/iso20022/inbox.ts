import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { applyBankStatusReport, findBankFileByMsgId } from '../../store/bankFiles.js';
import type { Database } from '../../store/db.js';
import { moveInto, xmlFilesIn } from './files.js';
import { type StatusReport, parsePain002, resolveReport } from './pain002.js';
import { xsdErrors } from './xsd.js';

/** The little of pino the inbox needs (adapters do not import the logger module). */
export interface InboxLogger {
  info(fields: object, message: string): void;
  warn(fields: object, message: string): void;
  error(fields: object, message: string): void;
}

/** Why a report cannot be applied: the file goes to rejected/ for an operator. */
class RejectedReport extends Error {}

type Outcome = { kind: 'applied'; settled: number } | { kind: 'already-applied' } | { kind: 'duplicate-file-notice' };

/**
 * The bank's status reports (pain.002.001.11) in BANK_INBOX_DIR, read by the worker: each new file
 * is validated against the XSD, matched to the payment file it answers and applied once; it then
 * moves to processed/ (kept for audit). A file that is invalid, answers no file of ours or names a
 * payout that file does not hold moves to rejected/ and is logged. A failure of our own (the
 * database away) leaves the file where it is, to be tried again: nothing here throws.
 */
export class Iso20022Inbox {
  constructor(
    private readonly db: Database,
    private readonly inboxDir: string,
    private readonly logger: InboxLogger,
    private readonly clock: () => Date,
  ) {}

  /** One pass over the inbox; returns how many files it moved. */
  async poll(): Promise<number> {
    let moved = 0;
    let names: string[];
    try {
      names = await xmlFilesIn(this.inboxDir);
    } catch (error) {
      this.logger.error({ err: error, inbox: this.inboxDir }, 'bank inbox: cannot list the folder');
      return 0;
    }
    for (const name of names) if (await this.handle(name)) moved++;
    return moved;
  }

  private async handle(name: string): Promise<boolean> {
    let outcome: Outcome;
    try {
      outcome = await this.apply(name, await readFile(join(this.inboxDir, name), 'utf8'));
    } catch (error) {
      if (!(error instanceof RejectedReport)) {
        this.logger.error({ err: error, file: name }, 'bank inbox: the report could not be applied now; it stays in the inbox');
        return false;
      }
      return this.move(name, 'rejected', () => this.logger.warn({ file: name, reason: error.message }, 'bank inbox: report rejected, moved to rejected/'));
    }
    return this.move(name, 'processed', () => {
      if (outcome.kind === 'applied') this.logger.info({ file: name, settled: outcome.settled }, 'bank inbox: status report applied');
      else if (outcome.kind === 'already-applied') this.logger.info({ file: name }, 'bank inbox: status report already applied; nothing changed');
      else this.logger.warn({ file: name }, 'bank inbox: the bank refused a second copy of a payment file (DU01); the first stands, nothing changed');
    });
  }

  private async move(name: string, folder: 'processed' | 'rejected', log: () => void): Promise<boolean> {
    try {
      await moveInto(this.inboxDir, folder, name);
      log();
      return true;
    } catch (error) {
      this.logger.error({ err: error, file: name }, `bank inbox: cannot move the report to ${folder}/`);
      return false;
    }
  }

  private async apply(name: string, xml: string): Promise<Outcome> {
    const errors = await xsdErrors(xml, 'pain.002.001.11');
    if (errors.length > 0) throw new RejectedReport(`not a valid pain.002.001.11 document: ${errors[0]}`);
    let report: StatusReport;
    try {
      report = parsePain002(xml);
    } catch (error) {
      throw new RejectedReport((error as Error).message);
    }
    // DU01 refuses a second copy of a file the bank already has: it says nothing of the first copy's payments.
    if (report.group.code === 'RJCT' && report.group.reasonCode === 'DU01') return { kind: 'duplicate-file-notice' };
    const batch = await findBankFileByMsgId(this.db, report.originalMsgId);
    if (!batch) throw new RejectedReport(`it answers MsgId ${report.originalMsgId}, which is no payment file of ours`);
    let statuses;
    try {
      statuses = resolveReport(report, batch.endToEndIds);
    } catch (error) {
      throw new RejectedReport((error as Error).message);
    }
    const settled = [...statuses].map(([endToEndId, status]) => ({
      endToEndId,
      status: status.state,
      failureReason: status.state === 'FAILED' ? status.reason : null,
    }));
    const sha256 = createHash('sha256').update(xml).digest('hex');
    const applied = await this.db.transaction((tx) =>
      applyBankStatusReport(tx, batch.batchId, {
        msgId: report.msgId,
        originalMsgId: report.originalMsgId,
        fileName: name,
        sha256,
        appliedAt: this.clock(),
        settled,
      }),
    );
    return applied === null ? { kind: 'already-applied' } : { kind: 'applied', settled: applied };
  }
}
