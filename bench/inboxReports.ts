/**
 * npx tsx bench/inboxReports.ts [--megabytes N] [--small N]   (npm run bench -- --only inbox-reports)
 *
 * What the bank inbox costs the event loop it shares with the API (the in-process worker): a
 * pain.002 status report of about N megabytes (default 50; about 350,000 transactions) read the way
 * the inbox reads it (src/adapters/bank/iso20022/reportReader.ts: XSD validation, parse and hash on the
 * reader's thread, the result taken in chunks), with the longest event-loop stall while it is read
 * (perf_hooks.monitorEventLoopDelay) and the process's RSS before, at its peak and after; then the
 * drain rate of a backlog of small reports (default 200 camt.054 notifications) through the inbox
 * itself (listing, reading, validating, moving), the bank-books use case a stand-in that applies
 * everything, so no database is involved. Prints the load average with the figures.
 */
import { spawnSync } from 'node:child_process';
import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { Iso20022Inbox } from '../src/adapters/bank/iso20022/inbox.js';
import { buildPain002 } from '../src/adapters/bank/iso20022/pain002Build.js';
import { type ReadReport, ReportReader } from '../src/adapters/bank/iso20022/reportReader.js';
import { bookingNotification } from '../src/adapters/bank/iso20022/simulatedBookings.js';

const rssMb = () => Math.round(process.memoryUsage().rss / 2 ** 20);
const loadAverage = () => loadavg().map((value) => Math.round(value * 100) / 100);

/** A pain.002 answering `count` transactions (ACSC, every tenth RJCT AC04), as one string. */
export function bigStatusReport(count: number): string {
  const one = buildPain002({
    msgId: 'SBIG',
    createdAt: new Date('2026-11-26T10:00:00Z'),
    originalMsgId: 'BIG',
    group: { code: 'PART' },
    paymentInfo: { originalPmtInfId: 'BIG', transactions: [{ endToEndId: 'TEMPLATE', status: { code: 'ACSC' } }] },
  });
  const start = one.indexOf('<TxInfAndSts>');
  const end = one.lastIndexOf('</TxInfAndSts>') + '</TxInfAndSts>'.length;
  const accepted = one.slice(start, end);
  const rejected = accepted.replace('<TxSts>ACSC</TxSts>', '<TxSts>RJCT</TxSts><StsRsnInf><Rsn><Cd>AC04</Cd></Rsn></StsRsnInf>');
  const parts: string[] = [one.slice(0, start)];
  for (let n = 0; n < count; n++) parts.push((n % 10 === 9 ? rejected : accepted).replace('TEMPLATE', n.toString(16).padStart(32, '0')));
  parts.push(one.slice(end));
  return parts.join('');
}

async function countOf(read: Promise<ReadReport>): Promise<number> {
  const report = await read;
  return report.kind === 'pain.002' ? report.report.transactions.length : -1;
}

/** The longest stall of this event loop while it does nothing for `ms`: what the machine's load alone costs it. */
async function idleStall(ms: number): Promise<number> {
  const delay = monitorEventLoopDelay({ resolution: 10 });
  delay.enable();
  await new Promise((resolve) => setTimeout(resolve, ms));
  delay.disable();
  return Math.round(delay.max / 1e5) / 10;
}

/** The big report read as the inbox reads it, the event loop watched meanwhile. */
async function bigReport(megabytes: number): Promise<Record<string, number>> {
  const perTransaction = bigStatusReport(1000).length / 1000;
  const transactions = Math.round((megabytes * 2 ** 20) / perTransaction);
  const bytes = Buffer.from(bigStatusReport(transactions));
  const sizeMb = Math.round((bytes.length / 2 ** 20) * 10) / 10;
  global.gc?.();
  const idleStallMs = await idleStall(3000);
  const rssBeforeMb = rssMb();
  let peak = process.memoryUsage().rss;
  const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 25);
  const reader = new ReportReader({ timeoutMs: 600_000 });
  // The thread starts with the first file, a small one here: its start-up is measured apart.
  const startup = monitorEventLoopDelay({ resolution: 10 });
  startup.enable();
  await reader.read(Buffer.from(bigStatusReport(1)), 'pain.002.001.11');
  startup.disable();
  const delay = monitorEventLoopDelay({ resolution: 10 });
  delay.enable();
  const started = performance.now();
  // Only its count is kept: what the inbox holds once the report is applied is nothing of it.
  const read = await countOf(reader.read(bytes, 'pain.002.001.11'));
  const readMs = Math.round(performance.now() - started);
  delay.disable();
  clearInterval(sampler);
  if (read !== transactions) throw new Error('the report was not read whole');
  const threadStopped = reader.running ? 0 : 1;
  // The stopped thread's memory is given back once it is torn down and the main heap collected.
  for (let round = 0; round < 2; round++) {
    await new Promise((resolve) => setTimeout(resolve, 1000));
    global.gc?.();
  }
  return {
    sizeMb,
    transactions,
    readMs,
    idleLongestStallMs: idleStallMs,
    threadStartLongestStallMs: Math.round(startup.max / 1e5) / 10,
    longestStallMs: Math.round(delay.max / 1e5) / 10,
    p99StallMs: Math.round(delay.percentile(99) / 1e5) / 10,
    rssBeforeMb,
    rssPeakMb: Math.round(peak / 2 ** 20),
    rssAfterMb: rssMb(),
    threadStopped,
  };
}

/** A backlog of `count` small camt.054 notifications drained by the inbox; files a second. */
async function smallBacklog(dir: string, count: number): Promise<Record<string, number>> {
  const inbox = join(dir, 'inbox');
  await mkdir(inbox, { recursive: true });
  const account = { iban: 'AE420260001015333439101', currency: 'AED' };
  for (let n = 0; n < count; n++) {
    const payments = [{ endToEndId: n.toString(16).padStart(32, '0'), amount: '100.00' }];
    const file = bookingNotification({ account, originalMsgId: `M${n}`, payments, bookedAt: new Date('2026-11-26T10:00:00Z') });
    await writeFile(join(inbox, `n${String(n).padStart(5, '0')}.xml`), file.xml);
  }
  const quiet = { info: () => {}, warn: () => {}, error: (fields: object, message: string) => console.error(message, fields) };
  const apply = async () => ({ kind: 'applied' as const, entries: 1, exceptions: 0 });
  const reader = new Iso20022Inbox(inbox, apply, quiet, () => new Date(), { passBudgetMs: 600_000 });
  const started = performance.now();
  let moved = 0;
  while (moved < count) moved += await reader.poll();
  const seconds = (performance.now() - started) / 1000;
  await reader.close();
  if ((await readdir(join(inbox, 'processed'))).length !== count) throw new Error('not every small report was processed');
  return { files: count, seconds: Math.round(seconds * 100) / 100, filesPerSecond: Math.round((count / seconds) * 10) / 10 };
}

/** The scenario in a fresh process (with --expose-gc, so that the RSS after is that of a collected heap), as npm run bench runs it. */
export function inboxReportsScenario(): void {
  const run = spawnSync(process.execPath, ['--expose-gc', '--import', 'tsx', fileURLToPath(import.meta.url)], { stdio: 'inherit' });
  if (run.status !== 0) throw new Error(`bench/inboxReports.ts failed (exit code ${run.status})`);
}

async function measure(megabytes: number, small: number): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), 'bench-inbox-'));
  try {
    const loadStart = loadAverage();
    const big = await bigReport(megabytes);
    const backlog = await smallBacklog(dir, small);
    const result = { bigReport: big, smallBacklog: backlog, loadAverage: { start: loadStart, end: loadAverage() } };
    console.log(JSON.stringify({ inboxReports: result }, null, 2));
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { values } = parseArgs({ options: { megabytes: { type: 'string', default: '50' }, small: { type: 'string', default: '200' } } });
  await measure(Number(values.megabytes), Number(values.small));
}
