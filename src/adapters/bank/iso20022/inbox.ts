import { createHash } from 'node:crypto';
import type { ApplyBankMessage } from '../../../domain/bank/bankMessages.js';
import type { WpsAgentAnswer } from '../../../domain/bank/wpsAnswers.js';
import { applyBankMessageFile } from './bankMessageFile.js';
import { isAgentAnswerFile, moveInto, removeStaleTemporaryFiles } from './files.js';
import { AgentAnswerError, parseAgentAnswer } from '../wps/agentAnswerFile.js';
import { ChangedEntry, type InboxEntry, TooLargeEntry, inboxEntries, readEntry } from './inboxEntries.js';
import { type Handled, RejectedFile, inReadingOrder, inboxMessageOf } from './inboxFile.js';
import { ReportReader } from './reportReader.js';

/** The little of pino the inbox needs (adapters do not import the logger module). */
export interface InboxLogger {
  info(fields: object, message: string): void;
  warn(fields: object, message: string): void;
  error(fields: object, message: string): void;
}

/** Runs `pass` unless another worker of the fleet is running one; undefined when it is. */
export type ExclusivePass = <T>(pass: () => Promise<T>) => Promise<T | undefined>;

export interface InboxOptions {
  /** The largest report read (BANK_REPORT_MAX_BYTES); a larger file is rejected unread. */
  maxBytes?: number | undefined;
  /** How long reading one file from the disk, then validating and parsing it, may each take; a file too slow to parse is rejected. */
  fileTimeoutMs?: number | undefined;
  /**
   * A file is read once it was last modified this long ago, or once its size and mtime are those
   * the last pass saw: a file still being written waits for the next pass.
   */
  settleMs?: number | undefined;
  /** After this long, a pass starts no new file (it always starts one): the worker's other duties are not kept waiting by a backlog. */
  passBudgetMs?: number | undefined;
  /** One worker of a fleet at a time reads the inbox (the store's inbox lock); absent, every pass runs. */
  exclusive?: ExclusivePass | undefined;
  /** Folders this service writes into atomically (the outbox): temporary files an interrupted write left there are removed. */
  ownFolders?: readonly string[] | undefined;
}

/** Generous for a 100,000-transaction report: docs/operations.md gives the sizes measured. */
const DEFAULT_REPORT_MAX_BYTES = 256 * 1024 * 1024;
const DEFAULT_FILE_TIMEOUT_MS = 120_000;
const DEFAULT_PASS_BUDGET_MS = 10_000;
/** A temporary file untouched this long is no write in progress: writes flush and rename within seconds. */
const STALE_TEMPORARY_MS = 60_000;

type Seen = Pick<InboxEntry, 'ino' | 'size' | 'mtimeMs'>;

/**
 * The bank's files in BANK_INBOX_DIR, read by the worker, told apart by their namespace: status
 * reports (pain.002.001.11), then what the bank booked (camt.054.001.08 notifications,
 * camt.053.001.08 statements); each pass reads them in that order. Each new file is validated
 * against its XSD, read into a typed message and handed to the one bank-messages use case, which
 * applies it once; it then moves to processed/ (kept for audit). This adapter knows files and
 * messages, nothing of what they mean. A file that is invalid, too large or
 * cannot be applied moves to rejected/ and is logged. A failure of our own (the database away)
 * leaves the file where it is, to be tried again: nothing here throws.
 *
 * Only regular files are read: a link is never followed and a FIFO never opened (each is reported
 * once and left alone), and a file still being written (its size or mtime changed since the last
 * pass) waits for the next pass. One worker of a fleet reads the inbox at a time.
 */
export class Iso20022Inbox {
  /** What each entry looked like on the last pass, to tell a finished file from one still growing. */
  private seen = new Map<string, Seen>();
  /** The entries that are not regular files already reported (name, inode and kind), so each is logged once. */
  private reported = new Set<string>();
  private nextSweepAt = 0;
  private readonly reader: ReportReader;

  constructor(
    private readonly inboxDir: string,
    private readonly apply: ApplyBankMessage,
    private readonly logger: InboxLogger,
    private readonly clock: () => Date,
    private readonly options: InboxOptions = {},
  ) {
    this.reader = new ReportReader({ timeoutMs: options.fileTimeoutMs ?? DEFAULT_FILE_TIMEOUT_MS });
  }

  /** Stops the report reader's thread (at shutdown; a later pass starts another). */
  close(): Promise<void> {
    return this.reader.close();
  }

  /** One pass over the inbox; returns how many files it moved. */
  async poll(): Promise<number> {
    await this.sweep();
    const exclusive = this.options.exclusive;
    if (!exclusive) return this.pass();
    try {
      return (await exclusive(() => this.pass())) ?? 0;
    } catch (error) {
      this.logger.error({ err: error, inbox: this.inboxDir }, 'bank inbox: cannot take the inbox lock; the pass is skipped');
      return 0;
    }
  }

  private async pass(): Promise<number> {
    let entries: InboxEntry[];
    try {
      entries = await inboxEntries(this.inboxDir);
    } catch (error) {
      this.logger.error({ err: error, inbox: this.inboxDir }, 'bank inbox: cannot list the folder');
      return 0;
    }
    const ready = await inReadingOrder(this.inboxDir, this.settled(entries));
    const deadline = Date.now() + (this.options.passBudgetMs ?? DEFAULT_PASS_BUDGET_MS);
    let moved = 0;
    for (const [index, entry] of ready.entries()) {
      if (index > 0 && Date.now() > deadline) break;
      if (await this.handle(entry)) moved++;
    }
    return moved;
  }

  /** The regular files that are done being written; the others are reported once, and the memory of the last pass renewed. */
  private settled(entries: readonly InboxEntry[]): InboxEntry[] {
    const settleMs = this.options.settleMs ?? 0;
    const now = Date.now();
    const ready: InboxEntry[] = [];
    const seen = new Map<string, Seen>();
    const reported = new Set<string>();
    for (const entry of entries) {
      if (entry.kind !== 'file') {
        reported.add(this.reportOnce(entry));
        continue;
      }
      const before = this.seen.get(entry.name);
      const unchanged = before !== undefined && before.ino === entry.ino && before.size === entry.size && before.mtimeMs === entry.mtimeMs;
      // No settling time: ready at once, even a file whose mtime (sub-millisecond) is a hair past `now` (whole milliseconds).
      if (settleMs <= 0 || unchanged || now - entry.mtimeMs >= settleMs) ready.push(entry);
      seen.set(entry.name, { ino: entry.ino, size: entry.size, mtimeMs: entry.mtimeMs });
    }
    this.seen = seen;
    this.reported = reported;
    return ready;
  }

  private reportOnce(entry: InboxEntry): string {
    const key = `${entry.name}\u0000${entry.ino}\u0000${entry.kind}`;
    if (!this.reported.has(key))
      this.logger.warn({ file: entry.name, kind: entry.kind }, 'bank inbox: not a regular file; it is never opened nor moved, remove it');
    return key;
  }

  private async handle(entry: InboxEntry): Promise<boolean> {
    const name = entry.name;
    let handled: Handled;
    try {
      handled = await this.read(entry);
    } catch (error) {
      if (error instanceof ChangedEntry) return false;
      if (!(error instanceof RejectedFile) && !(error instanceof TooLargeEntry)) {
        this.logger.error({ err: error, file: name }, 'bank inbox: the file could not be applied now; it stays in the inbox');
        return false;
      }
      return this.move(name, 'rejected', () => this.logger.warn({ file: name, reason: error.message }, 'bank inbox: file rejected, moved to rejected/'));
    }
    return this.move(name, 'processed', () => this.logger[handled.level](handled.fields, handled.message));
  }

  private maxBytes(): number {
    return this.options.maxBytes ?? DEFAULT_REPORT_MAX_BYTES;
  }

  /** A read from the disk that takes too long is given up for this pass: the rest of the pass, and the worker, go on. */
  private async withinTimeout<T>(name: string, work: () => Promise<T>): Promise<T> {
    const timeoutMs = this.options.fileTimeoutMs ?? DEFAULT_FILE_TIMEOUT_MS;
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`reading ${name} took more than ${timeoutMs} ms`)), timeoutMs);
    });
    try {
      return await Promise.race([work(), timeout]);
    } finally {
      clearTimeout(timer);
    }
  }

  private async move(name: string, folder: 'processed' | 'rejected', log: () => void): Promise<boolean> {
    try {
      await moveInto(this.inboxDir, folder, name);
      log();
      return true;
    } catch (error) {
      // Gone from the inbox: another reader (a worker of an older release, an operator) moved it.
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false;
      this.logger.error({ err: error, file: name }, `bank inbox: cannot move the file to ${folder}/`);
      return false;
    }
  }

  /** Read within the size and time bounds (validated and parsed on the reader's thread), then applied. */
  private async read(entry: InboxEntry): Promise<Handled> {
    const { name } = entry;
    const bytes = await this.withinTimeout(name, () => readEntry(this.inboxDir, entry, this.maxBytes()));
    if (isAgentAnswerFile(name)) return this.applyAgentAnswer(name, bytes);
    // A file whose head names no message is read as a status report, whose validation says what is wrong with it.
    const read = await this.reader.read(bytes, inboxMessageOf(bytes) ?? 'pain.002.001.11');
    const message = read.kind === 'pain.002' ? read.report : read.message;
    return applyBankMessageFile(this.apply, { fileName: name, sha256: read.sha256, receivedAt: this.clock() }, message);
  }

  /** A WPS agent's answer (a few lines of text: read here, not on the reader's thread), applied as every bank message is. */
  private applyAgentAnswer(name: string, bytes: Uint8Array): Promise<Handled> {
    let answer: WpsAgentAnswer;
    try {
      answer = parseAgentAnswer(bytes);
    } catch (error) {
      if (error instanceof AgentAnswerError) throw new RejectedFile(error.message);
      throw error;
    }
    const sha256 = createHash('sha256').update(bytes).digest('hex');
    return applyBankMessageFile(this.apply, { fileName: name, sha256, receivedAt: this.clock() }, answer);
  }

  /** At the first pass, then once a minute: what interrupted writes of ours left behind is removed. */
  private async sweep(): Promise<void> {
    if (Date.now() < this.nextSweepAt) return;
    this.nextSweepAt = Date.now() + STALE_TEMPORARY_MS;
    for (const dir of this.options.ownFolders ?? []) {
      try {
        const removed = await removeStaleTemporaryFiles(dir, STALE_TEMPORARY_MS);
        if (removed.length > 0) this.logger.info({ folder: dir, files: removed }, 'bank files: temporary files of interrupted writes removed');
      } catch (error) {
        this.logger.warn({ err: error, folder: dir }, 'bank files: cannot clear temporary files of interrupted writes');
      }
    }
  }
}
