import { Worker } from 'node:worker_threads';
import type { BankToCustomerMessage } from '../../../domain/bank/bankBooks.js';
import { type InboxMessage, RejectedFile } from './inboxFile.js';
import type { StatusReport } from '../../../domain/bank/statusReport.js';

/** A report read: its SHA-256 and what it says. */
export type ReadReport = { kind: 'pain.002'; sha256: string; report: StatusReport } | { kind: 'camt'; sha256: string; message: BankToCustomerMessage };

/** What the main thread asks the reader thread (src/adapters/bank/iso20022/reportThread.ts): a file read, or the next reply to it. */
export type ReaderRequest = { id: number; kind: 'read'; message: InboxMessage; bytes: Uint8Array } | { id: number; kind: 'next' };

/** Its answers: chunks of the report's long lists, then the rest of it, or why it cannot be read. */
export type ReaderReply =
  | { id: number; kind: 'chunk'; list: number; items: unknown[] }
  | { id: number; kind: 'done'; head: ReadReport }
  | { id: number; kind: 'rejected'; reason: string }
  | { id: number; kind: 'failed'; error: string };

export interface ReportReaderOptions {
  /** How long one file's validation and parse may take; beyond, the thread is stopped and the file rejected. */
  timeoutMs: number;
  /** After a file this large the thread is stopped (a new one starts for the next file), giving its memory back. */
  recycleBytes?: number;
  /** The thread's heap ceiling: a file that needs more is rejected, the process unharmed. */
  maxHeapMb?: number;
}

const DEFAULT_RECYCLE_BYTES = 4 * 1024 * 1024;
const DEFAULT_MAX_HEAP_MB = 2048;
/** The size of the pool Node cuts small Buffers from: a buffer of that size may be shared, and is copied rather than moved. */
const SHARED_POOL_BYTES = Buffer.poolSize;

/**
 * Reads the inbox's reports (XSD validation, parse, SHA-256) on a thread of its own, so that a big
 * report never holds the event loop the API and the worker share: the thread parses the whole file,
 * the main thread only takes its result, in chunks. The thread is started on first use and kept, its
 * XSD validator built once, so small files cost their validation alone; it is stopped after a big
 * file, so the memory that file took is given back. One file at a time.
 */
export class ReportReader {
  private thread: Worker | undefined;
  private nextId = 0;
  private queue: Promise<unknown> = Promise.resolve();

  constructor(private readonly options: ReportReaderOptions) {}

  /** The report in `bytes`, read as `message`; RejectedFile when it is invalid, too slow or too big to read. */
  read(bytes: Uint8Array, message: InboxMessage): Promise<ReadReport> {
    const run = this.queue.then(() => this.readNow(bytes, message));
    // The queue keeps no report: a big one would stay in memory until the next file.
    this.queue = run.then(
      () => undefined,
      () => undefined,
    );
    return run;
  }

  /** Stops the thread (a new one starts if another file is read). */
  async close(): Promise<void> {
    const thread = this.thread;
    this.thread = undefined;
    await thread?.terminate();
  }

  /** Whether a thread is running now (tests and the bench: a big file's thread is gone once it is read). */
  get running(): boolean {
    return this.thread !== undefined;
  }

  private readNow(bytes: Uint8Array, message: InboxMessage): Promise<ReadReport> {
    const thread = this.thread ?? this.start();
    const id = ++this.nextId;
    const lists: unknown[][] = [];
    // Read before the bytes move to the thread (a moved buffer is empty here).
    const big = bytes.length >= (this.options.recycleBytes ?? DEFAULT_RECYCLE_BYTES);
    return new Promise<ReadReport>((resolve, reject) => {
      const finish = (outcome: () => void) => {
        clearTimeout(timer);
        thread.off('message', onReply);
        thread.off('error', onError);
        thread.off('exit', onExit);
        outcome();
      };
      const onReply = (reply: ReaderReply) => {
        if (reply.id !== id) return;
        if (reply.kind === 'chunk') {
          (lists[reply.list] ??= []).push(...reply.items);
          // One chunk at a time: the event loop turns between them.
          return void thread.postMessage({ id, kind: 'next' } satisfies ReaderRequest);
        }
        finish(() => {
          if (reply.kind === 'done') resolve(assembled(reply.head, lists));
          else reject(reply.kind === 'rejected' ? new RejectedFile(reply.reason) : new Error(`the report reader failed: ${reply.error}`));
        });
        if (big) void this.close();
      };
      const onError = (error: Error & { code?: string }) =>
        finish(() =>
          reject(error.code === 'ERR_WORKER_OUT_OF_MEMORY' ? new RejectedFile(`reading it needs more than ${this.maxHeapMb()} MB of memory`) : error),
        );
      const onExit = (code: number) => finish(() => reject(new Error(`the report reader thread stopped (exit code ${code})`)));
      const timer = setTimeout(() => {
        finish(() => reject(new RejectedFile(`reading it took more than ${this.options.timeoutMs} ms`)));
        void this.close();
      }, this.options.timeoutMs);
      thread.on('message', onReply);
      thread.on('error', onError);
      thread.on('exit', onExit);
      // A buffer of its own is moved to the thread, not copied; the caller does not use it again.
      const own = bytes.buffer.byteLength > SHARED_POOL_BYTES && bytes.buffer instanceof ArrayBuffer;
      thread.postMessage({ id, kind: 'read', message, bytes } satisfies ReaderRequest, own ? [bytes.buffer as ArrayBuffer] : []);
    });
  }

  private start(): Worker {
    const thread = new Worker(threadSource(), { eval: true, resourceLimits: { maxOldGenerationSizeMb: this.maxHeapMb() } });
    // Not a reason to keep the process alive; and an error between two files only ends this thread.
    thread.unref();
    thread.on('error', () => {});
    thread.on('exit', () => {
      if (this.thread === thread) this.thread = undefined;
    });
    this.thread = thread;
    return thread;
  }

  private maxHeapMb(): number {
    return this.options.maxHeapMb ?? DEFAULT_MAX_HEAP_MB;
  }
}

/**
 * The thread's entry. Built, the module is JavaScript next to this one; from the TypeScript sources
 * (tests, tsx), the thread registers tsx's loader first.
 */
function threadSource(): string {
  const typescript = import.meta.url.endsWith('.ts');
  const entry = JSON.stringify(new URL(typescript ? './reportThread.ts' : './reportThread.js', import.meta.url).href);
  return typescript ? `import('tsx/esm/api').then(({ register }) => { register(); return import(${entry}); });` : `import(${entry});`;
}

function assembled(head: ReadReport, lists: unknown[][]): ReadReport {
  if (head.kind === 'pain.002') return { ...head, report: { ...head.report, transactions: (lists[0] ?? []) as StatusReport['transactions'] } };
  const reports = head.message.reports.map((report, index) => ({ ...report, entries: (lists[index] ?? []) as typeof report.entries }));
  return { ...head, message: { ...head.message, reports } };
}
