/**
 * npx tsx bench/camt.ts [--entries N] [--database-url postgres://…]   (npm run bench -- --only camt-100k runs it with 100,000)
 *
 * What reading the bank's end-of-day statement of a big payroll day costs: a camt.053.001.08 of one
 * partner-bank account with one DBIT entry per payout (TxDtls/Refs
 * with the payout's EndToEndId, as the bank simulator books them), N payouts (default 100,000).
 * The statement is written to a temporary file, then read by a fresh process the way the worker's
 * inbox reads it (src/adapters/bank/iso20022/reportThread.ts: XSD validation by xmllint's streaming
 * reader, then the streaming parse into BankEntry values), each phase timed, with that process's RSS
 * before and at its peak, then applied and reconciled by the bank-books use case (the worker's
 * ApplyBankMessage) on a database holding the payroll day: the bench world (bench/world.ts) with its
 * 1,000-payout payroll copied up to N payouts in SQL, every payout paid over the ISO 20022 rail (a
 * settled bank-file item under its EndToEndId), on a new database of the --database-url server, or
 * of a fresh embedded PostgreSQL. The statement books those payouts, for their amounts.
 * BENCH_KEEP=1 keeps the statement file (its path is printed).
 */
import { randomBytes } from 'node:crypto';
import { spawnSync } from 'node:child_process';
import { createWriteStream } from 'node:fs';
import { chmod, mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { parseBankToCustomer } from '../src/adapters/bank/iso20022/camtParse.js';
import { xsdErrors } from '../src/adapters/bank/iso20022/xsd.js';
import { paymentEntry, statement } from '../src/adapters/bank/iso20022/simulatedBookings.js';
import type { ApplyBankMessage } from '../src/domain/bank/bankMessages.js';
import { acquireEmbeddedPostgres } from '../src/store/database/embedded.js';
import { migrate } from '../src/store/database/migrate.js';
import { analyze } from '../src/store/database/open.js';
import { PostgresDatabase } from '../src/store/database/postgres.js';
import { bankMessageApplier } from '../src/usecases/bank/applyBankMessage.js';
import { loadWorld } from '../src/world/load.js';
import { copyRequest } from './copyRequest.js';
import { benchIds, benchWorld } from './world.js';

const ACCOUNT = { iban: 'AE420260001015333439101', currency: 'AED' };
const DAY = new Date('2026-11-26T00:00:00Z');

interface Payment {
  endToEndId: string;
  amount: string;
}

/** A database holding a payroll day of `count` payouts: a new database on `serverUrl`; `drop` removes it. */
interface PayrollDay {
  url: string;
  payments: Payment[];
  /** The ledger's balance of the partner-bank account at the day's end. */
  ledgerAtEnd: string;
  drop(): Promise<void>;
}

/**
 * The bench world and copies of its 1,000-payout payroll up to `count` payouts (all COMPLETED), each
 * request's payouts recorded as one payment file the bank settled (pain.002 ACSC), as the rail and
 * the inbox leave them.
 */
async function payrollDay(serverUrl: string, count: number): Promise<PayrollDay> {
  const name = `payroll_camt_${randomBytes(6).toString('hex')}`;
  const admin = await PostgresDatabase.open(serverUrl);
  await admin.query(`CREATE DATABASE ${name}`);
  const url = Object.assign(new URL(serverUrl), { pathname: `/${name}` }).toString();
  const db = await PostgresDatabase.open(url);
  try {
    await migrate(db);
    await loadWorld(db, benchWorld(1_000));
    await copyRequest(db, benchIds.request1k, Math.ceil(count / 1_000) - 1);
    await db.exec(`
      INSERT INTO bank_file_batches (batch_id, msg_id, payroll_request_id, currency_code, transaction_count, control_sum, created_at, written_at)
      SELECT r.id, replace(r.id::text, '-', ''), r.id, 'AED', count(*), sum(t.amount), now(), now()
        FROM payroll_requests r JOIN transfers t ON t.payroll_request_id = r.id AND t.transfer_type = 'BANK_TO_BENEFICIARY'
       WHERE r.id <> '${benchIds.request50}' GROUP BY r.id;
      INSERT INTO bank_file_items (end_to_end_id, transfer_id, batch_id, amount, status, report_msg_id, settled_at)
      SELECT replace(t.id::text, '-', ''), t.id, t.payroll_request_id, t.amount, 'COMPLETED', 'S-bench', now()
        FROM transfers t JOIN bank_file_batches b ON b.batch_id = t.payroll_request_id WHERE t.transfer_type = 'BANK_TO_BENEFICIARY';`);
    await analyze(db);
    const payments = await db.query<Payment>(
      `SELECT end_to_end_id AS "endToEndId", round(amount, 2)::text AS amount FROM bank_file_items ORDER BY end_to_end_id LIMIT $1`,
      [count],
    );
    const [ledger] = await db.query<{ balance: string }>(
      `SELECT round(COALESCE(sum(p.amount), 0), 2)::text AS balance FROM postings p JOIN journal_entries j ON j.id = p.journal_entry_id
        WHERE p.account_currency_id = $1 AND j.created_at < $2`,
      [benchIds.acPartnerAed, new Date(DAY.getTime() + 86_400_000)],
    );
    return {
      url,
      payments,
      ledgerAtEnd: ledger!.balance,
      drop: async () => {
        await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
        await admin.close();
      },
    };
  } finally {
    await db.close();
  }
}

/**
 * The day's statement of `payments`, written to `file` in pieces (never one string). Its opening balance is the one that makes its closing balance `closing` (the
 * ledger's at the day's end): the bench's ledger holds the world's history, not the day's.
 */
async function writeStatement(file: string, payments: readonly Payment[], closing: string): Promise<void> {
  const booked = new Date(DAY.getTime() + 9 * 3600_000);
  const entries = payments.map((payment) => paymentEntry(ACCOUNT, payment, booked));
  const day = statement({
    account: ACCOUNT,
    from: DAY,
    to: new Date(DAY.getTime() + 86_400_000),
    opening: fromCents(cents(closing) + payments.reduce((sum, payment) => sum + cents(payment.amount), 0n)),
    entries,
    createdAt: DAY,
  });
  const out = createWriteStream(file);
  for (const chunk of day.chunks) if (!out.write(chunk)) await new Promise<void>((resolve) => out.once('drain', () => resolve()));
  await new Promise<void>((resolve, reject) => out.end((error?: Error | null) => (error ? reject(error) : resolve())));
}

const cents = (amount: string): bigint => {
  const [whole, fraction = ''] = amount.split('.');
  return BigInt(whole!) * 100n + (whole!.startsWith('-') ? -1n : 1n) * BigInt(fraction.padEnd(2, '0').slice(0, 2));
};
const fromCents = (value: bigint): string => {
  const sign = value < 0n ? '-' : '';
  const magnitude = value < 0n ? -value : value;
  return `${sign}${magnitude / 100n}.${String(magnitude % 100n).padStart(2, '0')}`;
};

const rssMb = () => Math.round(process.memoryUsage().rss / 2 ** 20);

/** In the fresh process: the inbox's read of the file (and the apply, when wired), timed. */
async function measure(file: string, databaseUrl: string): Promise<Record<string, number | null>> {
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
  const db = await PostgresDatabase.open(databaseUrl);
  const apply: ApplyBankMessage = bankMessageApplier({ db, clock: () => new Date(), bookingGraceDays: 3 });
  const applyStarted = performance.now();
  const outcome = await apply(message, { fileName: 'statement.xml', sha256: '0'.repeat(64), receivedAt: new Date() });
  const applyMs = performance.now() - applyStarted;
  const [statementRow] = await db.query<{ status: string }>('SELECT status FROM bank_statements');
  await db.close();
  clearInterval(sampler);
  peak = Math.max(peak, process.memoryUsage().rss);
  return {
    entries: message.reports[0]!.entries.length,
    validateMs: Math.round(validateMs),
    parseMs: Math.round(parseMs),
    applyMs: Math.round(applyMs),
    exceptions: outcome.kind === 'applied' ? outcome.exceptions : -1,
    reconciled: statementRow?.status === 'RECONCILED' ? 1 : 0,
    rssBeforeMb,
    peakRssMb: Math.round(peak / 2 ** 20),
  };
}

/**
 * Makes the payroll day's database (on `serverUrl`, else on a fresh embedded PostgreSQL), writes its
 * statement, has a fresh process read and apply it, and prints the figures.
 */
export async function camtScenario(count: number, serverUrl?: string): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), 'bench-camt-'));
  // As root, the embedded PostgreSQL runs as "postgres" and must reach its data directory.
  await chmod(dir, 0o755);
  const embedded = serverUrl ? undefined : await acquireEmbeddedPostgres({ dataDir: join(dir, 'pg') });
  let day: PayrollDay | undefined;
  try {
    let started = performance.now();
    day = await payrollDay(serverUrl ?? embedded!.url, count);
    console.log(`payroll day of ${day.payments.length} paid payouts made in SQL in ${Math.round(performance.now() - started)} ms`);
    const file = join(dir, 'statement.xml');
    started = performance.now();
    await writeStatement(file, day.payments, day.ledgerAtEnd);
    const megabytes = (await stat(file)).size / 2 ** 20;
    console.log(`camt.053 of ${day.payments.length} payouts written: ${megabytes.toFixed(1)} MB in ${Math.round(performance.now() - started)} ms`);
    const load = (await readFile('/proc/loadavg', 'utf8').catch(() => '? ? ?')).split(' ').slice(0, 3).join(' ');
    const child = spawnSync(process.execPath, ['--import', 'tsx', fileURLToPath(import.meta.url), '--measure', file, '--database-url', day.url], {
      encoding: 'utf8',
    });
    if (child.status !== 0) throw new Error(`the reading process failed: ${child.stderr}`);
    const figures = JSON.parse(child.stdout.trim().split('\n').at(-1)!) as Record<string, number>;
    console.log(`read of ${figures.entries} entries: XSD validation ${figures.validateMs} ms, parse ${figures.parseMs} ms (load average before: ${load})`);
    console.log(
      `apply and reconcile: ${figures.applyMs} ms, ${figures.exceptions} exceptions, statement ${figures.reconciled ? 'RECONCILED' : 'with EXCEPTIONS'}`,
    );
    console.log(`read + apply: ${figures.validateMs! + figures.parseMs! + figures.applyMs!} ms`);
    console.log(`node RSS of the reading process: ${figures.rssBeforeMb} MB before, ${figures.peakRssMb} MB at its peak`);
  } finally {
    await day?.drop();
    await embedded?.release();
    if (process.env.BENCH_KEEP) console.log(`kept ${join(dir, 'statement.xml')}`);
    else await rm(dir, { recursive: true, force: true });
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const options = { entries: { type: 'string', default: '100000' }, measure: { type: 'string' }, 'database-url': { type: 'string' } } as const;
  const { values } = parseArgs({ options });
  if (values.measure) console.log(JSON.stringify(await measure(values.measure, values['database-url']!)));
  else await camtScenario(Number(values.entries), values['database-url']);
}
