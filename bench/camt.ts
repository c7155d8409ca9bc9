/**
 * npx tsx bench/camt.ts [--entries N]   (npm run bench -- --only camt-100k runs it with 100,000)
 *
 * What reading the bank's end-of-day statement of a big payroll day costs: a camt.053.001.08 of one
 * partner-bank account with the day's funding credit and one DBIT entry per payout (TxDtls/Refs
 * with the payout's EndToEndId, as the bank simulator books them), N payouts (default 100,000).
 * The statement is written to a temporary file, then read by a fresh process the way the worker's
 * inbox reads it (src/adapters/iso20022/bankBooksFile.ts: XSD validation by xmllint's streaming
 * reader, then the streaming parse into BankEntry values), each phase timed, with that process's RSS
 * before and at its peak.
 * When a bank-books use case is wired in `bankBooksUseCaseForBench`, the apply is timed too.
 * BENCH_KEEP=1 keeps the statement file (its path is printed).
 */
import { spawnSync } from 'node:child_process';
import { createWriteStream } from 'node:fs';
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { parseBankToCustomer } from '../src/adapters/iso20022/camtParse.js';
import { xsdErrors } from '../src/adapters/iso20022/xsd.js';
import { paymentEntry, statement } from '../src/adapters/iso20022/simulatedBookings.js';
import type { ApplyBankBooks, BankEntry } from '../src/domain/bankBooks.js';

const ACCOUNT = { iban: 'AE420260001015333439101', currency: 'AED' };
const DAY = new Date('2026-11-26T00:00:00Z');
const uuid = (prefix: string, n: number) => `${prefix}-0000-4000-8000-${String(n).padStart(12, '0')}`;
/** The payouts' amounts, as in bench/bankFiles.ts, whose batch has the same transfer ids. */
const amountOf = (n: number) => `${3000 + (n % 5000)}.${String(n % 100).padStart(2, '0')}`;

/**
 * The bank-books use case to time after the read, on a database holding the payroll whose payouts
 * the statement books (transfer ids `b0000004-0000-4000-8000-<n>`, the batch of bench/bankFiles.ts).
 * None is wired yet: the figures are the read's alone.
 */
async function bankBooksUseCaseForBench(): Promise<ApplyBankBooks | undefined> {
  return undefined;
}

/** The day's statement of `count` payouts, written to `file` in pieces (never one string). */
async function writeStatement(file: string, count: number): Promise<void> {
  const payments = Array.from({ length: count }, (_, n) => ({ endToEndId: uuid('b0000004', n).replace(/-/g, ''), amount: amountOf(n) }));
  const booked = new Date(DAY.getTime() + 9 * 3600_000);
  const entries = payments.map((payment) => paymentEntry(ACCOUNT, payment, booked));
  const total = payments.reduce((sum, payment) => sum + BigInt(payment.amount.replace('.', '')), 0n);
  const funding: BankEntry = {
    ...entries[0]!,
    creditDebit: 'CRDT',
    amount: `${total / 100n}.${String(total % 100n).padStart(2, '0')}`,
    accountServicerReference: 'C1',
  };
  funding.transactions = [{ ...funding.transactions[0]!, endToEndId: uuid('b0000005', 1).replace(/-/g, ''), creditDebit: 'CRDT', amount: funding.amount }];
  const day = statement({
    account: ACCOUNT,
    from: DAY,
    to: new Date(DAY.getTime() + 86_400_000),
    opening: '0.00',
    entries: [funding, ...entries],
    createdAt: DAY,
  });
  const out = createWriteStream(file);
  for (const chunk of day.chunks) if (!out.write(chunk)) await new Promise<void>((resolve) => out.once('drain', () => resolve()));
  await new Promise<void>((resolve, reject) => out.end((error?: Error | null) => (error ? reject(error) : resolve())));
}

const rssMb = () => Math.round(process.memoryUsage().rss / 2 ** 20);

/** In the fresh process: the inbox's read of the file (and the apply, when wired), timed. */
async function measure(file: string): Promise<Record<string, number | null>> {
  const rssBeforeMb = rssMb();
  let peak = process.memoryUsage().rss;
  const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 25);
  const started = performance.now();
  const bytes = await readFile(file);
  const errors = await xsdErrors(bytes, 'camt.053.001.08');
  if (errors.length > 0) throw new Error(`the statement is not valid: ${errors[0]}`);
  const validateMs = performance.now() - started;
  const message = parseBankToCustomer(bytes);
  const parseMs = performance.now() - started - validateMs;
  const apply = await bankBooksUseCaseForBench();
  const applyStarted = performance.now();
  if (apply) await apply(message, { fileName: 'statement.xml', sha256: '', receivedAt: new Date() });
  const applyMs = apply ? performance.now() - applyStarted : null;
  clearInterval(sampler);
  peak = Math.max(peak, process.memoryUsage().rss);
  return {
    entries: message.reports[0]!.entries.length,
    validateMs: Math.round(validateMs),
    parseMs: Math.round(parseMs),
    applyMs: applyMs === null ? null : Math.round(applyMs),
    rssBeforeMb,
    peakRssMb: Math.round(peak / 2 ** 20),
  };
}

/** Writes the statement, has a fresh process read it, and prints the figures. */
export async function camtScenario(count: number): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), 'bench-camt-'));
  try {
    const file = join(dir, 'statement.xml');
    const written = performance.now();
    await writeStatement(file, count);
    const megabytes = (await stat(file)).size / 2 ** 20;
    console.log(`camt.053 of ${count} payouts written: ${megabytes.toFixed(1)} MB in ${Math.round(performance.now() - written)} ms`);
    const child = spawnSync(process.execPath, ['--import', 'tsx', fileURLToPath(import.meta.url), '--measure', file], { encoding: 'utf8' });
    if (child.status !== 0) throw new Error(`the reading process failed: ${child.stderr}`);
    const figures = JSON.parse(child.stdout.trim().split('\n').at(-1)!) as Record<string, number | null>;
    console.log(`read of ${figures.entries} entries: XSD validation ${figures.validateMs} ms, parse ${figures.parseMs} ms`);
    console.log(`apply: ${figures.applyMs === null ? 'no bank-books use case wired (bankBooksUseCaseForBench)' : `${figures.applyMs} ms`}`);
    console.log(`node RSS of the reading process: ${figures.rssBeforeMb} MB before, ${figures.peakRssMb} MB at its peak`);
  } finally {
    if (process.env.BENCH_KEEP) console.log(`kept ${join(dir, 'statement.xml')}`);
    else await rm(dir, { recursive: true, force: true });
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { values } = parseArgs({ options: { entries: { type: 'string', default: '100000' }, measure: { type: 'string' } } });
  if (values.measure) console.log(JSON.stringify(await measure(values.measure)));
  else await camtScenario(Number(values.entries));
}
