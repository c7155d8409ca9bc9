// A 50 MB pain.002 (about 366,000 transactions) in the bank inbox, read as the worker reads it: the
// inbox at BANK_REPORT_MAX_BYTES's default, under the fleet's inbox lock on a real database, the
// report validated and parsed on the reader's thread. The event loop the API shares with the
// in-process worker is not held while it is read, and the memory the file took is not kept. How
// long the loop is held (the requirement: under 100 ms) and the memory before, at the peak and after
// are the benchmark's figures (bench/inboxReports.ts, npm run bench); here they are printed, and
// bounded only ten times over, against a hang and a leak. "Held" is the time the loop's thread ran
// between two ticks of a 10 ms timer (test/support/eventLoop.ts): on a loaded machine a tick is also
// late while the thread waits for a core, which is the machine's doing, not the reader's. The report answers no payment file of ours,
// so it is refused after it has been read whole (its reason names the MsgId it answers, which only
// the parse tells). A report over BANK_REPORT_MAX_BYTES is refused unread, as cheaply.
import { copyFile, mkdir, mkdtemp, readdir, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bigStatusReport } from '../../../bench/inboxReports.js';
import { bankMessageApplier } from '../../../src/usecases/bank/applyBankMessage.js';
import { Iso20022Inbox, type InboxOptions } from '../../../src/adapters/bank/iso20022/inbox.js';
import { bankConfig } from '../../../src/config/bank.js';
import { withBankInboxLock } from '../../../src/store/bank/inboxLock.js';
import { type FreshDatabase, freshDatabase } from '../../support/database.js';
import { describeHolds, type LoopHolds, watchEventLoop } from '../../support/eventLoop.js';

/**
 * A hang bound: ten times the requirement that the event loop is never held longer than 100 ms while
 * a report is read: it catches a reader that holds the loop for the whole read.
 */
const HOLD_BOUND_MS = 10 * 100;
const TRANSACTIONS = 366_000;
/**
 * A leak bound: ten times the 32 MB of heap a read may leave behind once collected. The RSS is not
 * bounded: the allocator returns freed pages when it will, which the benchmark prints.
 */
const HEAP_LEAK_BOUND = 10 * 32 * 2 ** 20;

// A collection on demand, so that what is measured after the read is what is still referenced.
setFlagsFromString('--expose-gc');
const collect = runInNewContext('gc') as () => void;

const logged: { level: string; fields: Record<string, unknown>; message: string }[] = [];
const logger = {
  info: (fields: object, message: string) => logged.push({ level: 'info', fields: fields as Record<string, unknown>, message }),
  warn: (fields: object, message: string) => logged.push({ level: 'warn', fields: fields as Record<string, unknown>, message }),
  error: (fields: object, message: string) => logged.push({ level: 'error', fields: fields as Record<string, unknown>, message }),
};
const clock = () => new Date('2026-11-26T20:00:00Z');

let database: FreshDatabase;
let dir: string;
beforeAll(async () => {
  database = await freshDatabase();
  dir = await mkdtemp(join(tmpdir(), 'inbox-big-'));
  // Built once, then only on disk: the test's own copy is not what the inbox's memory is measured by.
  const report = bigStatusReport(TRANSACTIONS);
  await writeFile(join(dir, 'big.xml'), report);
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
  await database?.drop();
});

/** An inbox folder holding the big report, settled (left alone for a minute), and the worker's inbox on it. */
async function inboxWithBigReport(name: string, options: InboxOptions): Promise<{ inbox: Iso20022Inbox; folder: string }> {
  const folder = join(dir, name);
  await mkdir(folder);
  const file = join(folder, 'pain002-big.xml');
  await copyFile(join(dir, 'big.xml'), file);
  const past = new Date(Date.now() - 60_000);
  await utimes(file, past, past);
  const defaults = bankConfig({});
  const inbox = new Iso20022Inbox(folder, bankMessageApplier({ db: database.db, clock, bookingGraceDays: 3 }), logger, clock, {
    maxBytes: defaults.reportMaxBytes,
    settleMs: defaults.reportSettleMs,
    exclusive: (pass) => withBankInboxLock(database.db, pass),
    ...options,
  });
  return { inbox, folder };
}

/** `work` with the event loop watched and the RSS sampled meanwhile. */
async function watched<T>(work: () => Promise<T>): Promise<{ result: T; holds: LoopHolds; rssPeak: number }> {
  let rssPeak = process.memoryUsage().rss;
  const sampler = setInterval(() => (rssPeak = Math.max(rssPeak, process.memoryUsage().rss)), 25);
  try {
    return { ...(await watchEventLoop(work)), rssPeak };
  } finally {
    clearInterval(sampler);
  }
}

/** Memory once what is unreferenced is collected. */
function collected(): NodeJS.MemoryUsage {
  collect();
  return process.memoryUsage();
}

const mb = (bytes: number) => Math.round(bytes / 2 ** 20);

describe('the bank inbox and a 50 MB report', () => {
  it('reads it whole without holding the event loop, and keeps none of its memory', { timeout: 120_000 }, async () => {
    const { inbox, folder } = await inboxWithBigReport('read', {});
    expect(bankConfig({}).reportMaxBytes, 'the default limit admits a 50 MB report').toBeGreaterThan(50 * 2 ** 20);
    const before = collected();
    const { result: moved, holds, rssPeak } = await watched(() => inbox.poll());
    await inbox.close();
    const after = collected();

    expect(moved).toBe(1);
    expect(await readdir(join(folder, 'rejected'))).toEqual(['pain002-big.xml']);
    const rejection = logged.find((entry) => entry.fields.file === 'pain002-big.xml');
    // Its MsgId comes from the parse: the file was validated and read whole before it was refused.
    expect(rejection?.fields.reason).toBe('it answers MsgId BIG, which is no payment file of ours');
    expect(logged.filter((entry) => entry.level === 'error')).toEqual([]);

    const memory =
      `heap used ${mb(before.heapUsed)} → ${mb(after.heapUsed)} MB (of ${mb(before.heapTotal)} → ${mb(after.heapTotal)}), ` +
      `external ${mb(before.external)} → ${mb(after.external)} MB, RSS ${mb(before.rss)} → peak ${mb(rssPeak)} → ${mb(after.rss)} MB`;
    console.log(describeHolds(holds), memory);
    expect(holds.longestHoldMs, `${describeHolds(holds)}; ${memory}`).toBeLessThan(HOLD_BOUND_MS);
    expect(after.heapUsed - before.heapUsed, memory).toBeLessThan(HEAP_LEAK_BOUND);
  });

  it('refuses one over BANK_REPORT_MAX_BYTES unread, without holding the event loop', async () => {
    logged.length = 0;
    const { inbox, folder } = await inboxWithBigReport('too-large', { maxBytes: bankConfig({ BANK_REPORT_MAX_BYTES: String(2 ** 20) }).reportMaxBytes });
    const { result: moved, holds } = await watched(() => inbox.poll());
    await inbox.close();
    expect(moved).toBe(1);
    expect(await readdir(join(folder, 'rejected'))).toEqual(['pain002-big.xml']);
    expect(logged.find((entry) => entry.fields.file === 'pain002-big.xml')?.fields.reason).toMatch(
      /^the file is \d+ bytes, more than the 1048576 a report may be \(BANK_REPORT_MAX_BYTES\)$/,
    );
    expect(holds.longestHoldMs, describeHolds(holds)).toBeLessThan(HOLD_BOUND_MS);
  });
});
