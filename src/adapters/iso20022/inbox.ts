import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { ApplyBankBooks } from '../../domain/bankBooks.js';
import type { Database } from '../../store/db.js';
import { applyBankBooksFile } from './bankBooksFile.js';
import { moveInto, xmlFilesIn } from './files.js';
import { type Handled, RejectedFile, inReadingOrder, inboxMessageOf } from './inboxFile.js';
import { applyStatusReportFile } from './statusReportFile.js';

/** The little of pino the inbox needs (adapters do not import the logger module). */
export interface InboxLogger {
  info(fields: object, message: string): void;
  warn(fields: object, message: string): void;
  error(fields: object, message: string): void;
}

export interface InboxOptions {
  /** The bank-books use case that camt.053/054 files are handed to; without one they are rejected, saying so. */
  applyBankBooks?: ApplyBankBooks | undefined;
}

/**
 * The bank's files in BANK_INBOX_DIR, read by the worker, told apart by their namespace: status
 * reports (pain.002.001.11), matched to the payment file they answer and applied here, and what the
 * bank booked (camt.054.001.08 notifications, camt.053.001.08 statements), handed to the bank-books
 * use case; each pass reads them in that order. Each new file is validated against its XSD and
 * applied once; it then moves to processed/ (kept for audit). A file that is invalid or cannot be applied moves to rejected/ and is logged. A
 * failure of our own (the database away) leaves the file where it is, to be tried again: nothing
 * here throws.
 */
export class Iso20022Inbox {
  constructor(
    private readonly db: Database,
    private readonly inboxDir: string,
    private readonly logger: InboxLogger,
    private readonly clock: () => Date,
    private readonly options: InboxOptions = {},
  ) {}

  /** One pass over the inbox; returns how many files it moved. */
  async poll(): Promise<number> {
    let moved = 0;
    let names: string[];
    try {
      names = await inReadingOrder(this.inboxDir, await xmlFilesIn(this.inboxDir));
    } catch (error) {
      this.logger.error({ err: error, inbox: this.inboxDir }, 'bank inbox: cannot list the folder');
      return 0;
    }
    for (const name of names) if (await this.handle(name)) moved++;
    return moved;
  }

  private async handle(name: string): Promise<boolean> {
    let handled: Handled;
    try {
      handled = await this.apply(name, await readFile(join(this.inboxDir, name)));
    } catch (error) {
      if (!(error instanceof RejectedFile)) {
        this.logger.error({ err: error, file: name }, 'bank inbox: the file could not be applied now; it stays in the inbox');
        return false;
      }
      return this.move(name, 'rejected', () => this.logger.warn({ file: name, reason: error.message }, 'bank inbox: file rejected, moved to rejected/'));
    }
    return this.move(name, 'processed', () => this.logger[handled.level](handled.fields, handled.message));
  }

  private async move(name: string, folder: 'processed' | 'rejected', log: () => void): Promise<boolean> {
    try {
      await moveInto(this.inboxDir, folder, name);
      log();
      return true;
    } catch (error) {
      this.logger.error({ err: error, file: name }, `bank inbox: cannot move the file to ${folder}/`);
      return false;
    }
  }

  private async apply(name: string, bytes: Buffer): Promise<Handled> {
    const message = inboxMessageOf(bytes);
    if (message === 'camt.053.001.08' || message === 'camt.054.001.08')
      return applyBankBooksFile(this.options.applyBankBooks, { name, bytes, receivedAt: this.clock() }, message);
    return applyStatusReportFile(this.db, name, bytes.toString('utf8'), this.clock());
  }
}
