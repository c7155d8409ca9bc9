// npm run bank-simulator -- --outbox DIR --inbox DIR [--delay-ms N] [--poll-ms N] [--charge AMOUNT] [--charge-every N]
//   [--return-after-ms N] [--statement-every-ms N] [--database-url URL | --data-dir DIR]
// Plays the partner bank of the ISO 20022 file exchange (docs/bank-files.md). It picks up each
// pain.001 the service writes in the outbox, validates it against the XSD and answers with pain.002
// status reports in the inbox: at once (ACCP, or a group RJCT: FF01 for an invalid file, DU01 for a
// MsgId already seen), then --delay-ms later, and not before the day the file's ReqdExctnDt names
// begins on the bank's clock, the settlement (ACSC per payment, RJCT AC04 where the
// remittance reference starts with FAIL) and the booking of the settled payments on the debtor
// account (a camt.054: a DBIT entry per payment, a charge on them with --charge). A payment whose
// reference starts with RETURN settles, then --return-after-ms later comes back (a camt.054 CRDT
// entry, RtrInf AC04). Every --statement-every-ms (a day by default) it sends each account's
// statement (camt.053: opening balance, the period's entries, closing balance); the credits into the
// account from elsewhere and its first opening balance it reads from the service's database
// (--database-url, or --data-dir: the service's DATA_DIR, joining its embedded PostgreSQL).
// As a WPS agent, it answers each salary file (*.SIF) of the outbox with an acknowledgement (or a
// rejection when its SCR disagrees with its EDRs) and, --return-after-ms after the settlement, a
// refund of the salaries of person ids starting with 99 (docs/wps.md).
// A file it has read goes to processed/ under the outbox, as a bank's SFTP server archives what it
// picked up. Its memory is on disk (processed/.seen-msgids, processed/.pending/, processed/.books/),
// so a restarted simulator keeps refusing duplicates and still sends what it owes. What it writes is
// the owner's only (files 0600, folders 0700), as the service's own bank files.
import { appendFile, readFile, readdir, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { answerPaymentFile, type SimulatedAnswer } from '../src/adapters/bank/iso20022/bankSimulator.js';
import { CAMT_054_NAMESPACE } from '../src/adapters/bank/iso20022/camtBuild.js';
import { parseBankToCustomer } from '../src/adapters/bank/iso20022/camtParse.js';
import {
  PRIVATE_FILE_MODE,
  ensurePrivateFolder,
  exists,
  moveInto,
  removeStaleTemporaryFiles,
  writeFileAtomically,
  xmlFilesIn,
} from '../src/adapters/bank/iso20022/files.js';
import { bookingNotification, returnNotification } from '../src/adapters/bank/iso20022/simulatedBookings.js';
import { SimulatedStatements } from '../src/adapters/bank/iso20022/simulatedStatements.js';
import { answerSalaryFile, salaryFilesIn } from '../src/adapters/bank/wps/simulatedAgent.js';
import type { Database } from '../src/store/database/db.js';
import { openDatabase } from '../src/store/database/open.js';
import { partnerAccountBookingsOf } from '../src/store/bank/partnerAccountBookings.js';

const USAGE = `usage: npm run bank-simulator -- --outbox DIR --inbox DIR [--delay-ms N (default 1000)] [--poll-ms N (default 200)]
  [--charge AMOUNT (a charge on each booked payment)] [--charge-every N (only every N-th payment of a file; default 1)]
  [--return-after-ms N (default 5000)] [--statement-every-ms N (default 86400000, a day)]
  [--database-url URL | --data-dir DIR (the service's database, for the statements' credits and opening balance)]`;

interface Options {
  outbox: string;
  inbox: string;
  delayMs: number;
  pollMs: number;
  charge: string | undefined;
  chargeEvery: number;
  returnAfterMs: number;
  statementEveryMs: number;
  databaseUrl: string | undefined;
  dataDir: string | undefined;
}

function options(): Options {
  const text = { type: 'string' } as const;
  const { values } = parseArgs({
    options: {
      outbox: text,
      inbox: text,
      'delay-ms': { type: 'string', default: '1000' },
      'poll-ms': { type: 'string', default: '200' },
      charge: text,
      'charge-every': { type: 'string', default: '1' },
      'return-after-ms': { type: 'string', default: '5000' },
      'statement-every-ms': { type: 'string', default: '86400000' },
      'database-url': text,
      'data-dir': text,
    },
  });
  const whole = (name: keyof typeof values, min: number) => {
    const value = Number(values[name]);
    return Number.isInteger(value) && value >= min ? value : NaN;
  };
  const parsed = {
    outbox: values.outbox ?? '',
    inbox: values.inbox ?? '',
    delayMs: whole('delay-ms', 0),
    pollMs: whole('poll-ms', 1),
    charge: values.charge,
    chargeEvery: whole('charge-every', 1),
    returnAfterMs: whole('return-after-ms', 0),
    statementEveryMs: whole('statement-every-ms', 1000),
    databaseUrl: values['database-url'],
    dataDir: values['data-dir'],
  };
  const numbers = [parsed.delayMs, parsed.pollMs, parsed.chargeEvery, parsed.returnAfterMs, parsed.statementEveryMs];
  if (!parsed.outbox || !parsed.inbox || numbers.some(Number.isNaN) || (parsed.charge !== undefined && !/^\d+(\.\d+)?$/.test(parsed.charge))) {
    console.error(USAGE);
    process.exit(2);
  }
  return parsed;
}

const log = (message: string, fields: Record<string, unknown> = {}) => console.log(JSON.stringify({ time: new Date().toISOString(), message, ...fields }));

async function seenMessageIds(file: string): Promise<Set<string>> {
  if (!(await exists(file))) return new Set();
  return new Set((await readFile(file, 'utf8')).split('\n').filter(Boolean));
}

interface Dirs {
  outbox: string;
  inbox: string;
  pending: string;
  seenFile: string;
  books: string;
}

/** Files the bank owes, held in pending/ until due: named `<due epoch ms>-<MsgId>.xml`. */
async function owe(dirs: Dirs, due: number, file: { msgId: string; xml: string }): Promise<void> {
  await writeFileAtomically(dirs.pending, `${due}-${file.msgId}.xml`, file.xml);
}

/** What the bank will book of an accepted file: the settled payments' debit, later the returns. */
async function oweBookings(dirs: Dirs, answer: SimulatedAnswer, settledAt: number, settings: Options): Promise<void> {
  if (!answer.executed || answer.executed.payments.length === 0) return;
  const { account, payments } = answer.executed;
  const bookedAt = settledAt;
  const charge = { charge: settings.charge, chargeEvery: settings.chargeEvery };
  // Due just after the settlement report of the same moment (files go in name order): the status first, then the booking.
  await owe(dirs, bookedAt + 1, bookingNotification({ account, originalMsgId: answer.originalMsgId, payments, bookedAt: new Date(bookedAt), ...charge }));
  const returnedAt = bookedAt + settings.returnAfterMs;
  for (const payment of payments.filter((executed) => executed.returned))
    await owe(dirs, returnedAt + 2, returnNotification(account, payment, new Date(returnedAt)));
}

/** Answers one payment file of the outbox and archives it. */
async function handle(name: string, dirs: Dirs, seen: Set<string>, settings: Options) {
  const xml = await readFile(join(dirs.outbox, name), 'utf8');
  const now = new Date();
  const answer = await answerPaymentFile(xml, (msgId) => seen.has(msgId), now);
  if (answer.accepted) {
    seen.add(answer.originalMsgId);
    await appendFile(dirs.seenFile, `${answer.originalMsgId}\n`, { mode: PRIVATE_FILE_MODE });
  }
  // Paid on the day the file asks for (ReqdExctnDt), never before.
  const settledAt = Math.max(now.getTime() + settings.delayMs, answer.settlesNotBefore?.getTime() ?? 0);
  if (answer.settled) await owe(dirs, settledAt, answer.settled);
  await oweBookings(dirs, answer, settledAt, settings);
  await writeFileAtomically(dirs.inbox, `${answer.immediate.msgId}.xml`, answer.immediate.xml);
  await moveInto(dirs.outbox, 'processed', name);
  log(answer.accepted ? 'payment file accepted' : 'payment file rejected', { file: name, msgId: answer.originalMsgId, report: answer.immediate.msgId });
}

/**
 * Answers one WPS salary file of the outbox as the employer's agent (docs/wps.md): acknowledged at
 * once, a refund of the salaries it cannot credit once the payments have settled and been returned
 * (--return-after-ms after the settlement), then archived.
 */
async function handleSalaryFile(name: string, dirs: Dirs, settings: Options) {
  const answers = answerSalaryFile(name, await readFile(join(dirs.outbox, name), 'utf8'));
  const base = name.replace(/\.SIF$/i, '');
  if (answers.refunds) await writeFileAtomically(dirs.pending, `${Date.now() + settings.delayMs + settings.returnAfterMs}-${base}.FDR.wps`, answers.refunds);
  await writeFileAtomically(dirs.inbox, `${base}.ACK.wps`, answers.acknowledgement);
  await moveInto(dirs.outbox, 'processed', name);
  log('salary file answered', { file: name, answer: answers.acknowledgement.slice(0, 3), refunds: answers.refunds !== null });
}

/** Sends the files that are due; a notification's entries are noted for the statements. */
async function sendDue(dirs: Dirs, statements: SimulatedStatements): Promise<void> {
  for (const name of (await readdir(dirs.pending)).filter((file) => /^\d+-.+\.(xml|wps)$/.test(file)).sort()) {
    const [due, file] = [Number(name.slice(0, name.indexOf('-'))), name.slice(name.indexOf('-') + 1)];
    if (due > Date.now()) continue;
    const xml = await readFile(join(dirs.pending, name), 'utf8');
    const notification = xml.slice(0, 1000).includes(CAMT_054_NAMESPACE);
    // Written anew (the inbox may be on another file system than the outbox), noted for the
    // statements (once: a crash before the unlink sends it again), then forgotten.
    await writeFileAtomically(dirs.inbox, file, xml);
    if (notification) await statements.record(parseBankToCustomer(xml));
    await unlink(join(dirs.pending, name));
    log(notification ? 'booking notification sent' : file.endsWith('.wps') ? 'salary refund sent' : 'settlement report sent', { file });
  }
  for (const written of await statements.due(new Date())) {
    await writeFileAtomically(dirs.inbox, `${written.msgId}.xml`, written.xml);
    log('statement sent', { file: `${written.msgId}.xml`, entries: written.entries });
  }
}

async function main(): Promise<void> {
  const settings = options();
  const { outbox, inbox } = settings;
  const processed = join(outbox, 'processed');
  const dirs: Dirs = { outbox, inbox, pending: join(processed, '.pending'), seenFile: join(processed, '.seen-msgids'), books: join(processed, '.books') };
  await ensurePrivateFolder(dirs.pending);
  await ensurePrivateFolder(inbox);
  // What a write interrupted by a kill left behind (hidden, never read): gone, once no write of ours can be under way.
  for (const dir of [inbox, dirs.pending]) await removeStaleTemporaryFiles(dir, 0);
  const seen = await seenMessageIds(dirs.seenFile);
  // The service's database, read only for what arrives in its partner-bank accounts (docs/bank-files.md).
  const db: Database | undefined =
    settings.databaseUrl || settings.dataDir
      ? await openDatabase({ databaseUrl: settings.databaseUrl, dataDir: settings.dataDir ?? '' }, { maxConnections: 1, applicationName: 'bank-simulator' })
      : undefined;
  const statements = new SimulatedStatements(dirs.books, settings.statementEveryMs, db && partnerAccountBookingsOf(db));
  let running = true;
  const stop = () => (running = false);
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
  log('bank simulator started', { outbox, inbox, delayMs: settings.delayMs, database: db ? 'read for statements' : 'none' });
  while (running) {
    try {
      for (const name of await xmlFilesIn(outbox)) await handle(name, dirs, seen, settings);
      for (const name of await salaryFilesIn(outbox)) await handleSalaryFile(name, dirs, settings);
      await sendDue(dirs, statements);
    } catch (error) {
      log('bank simulator pass failed', { error: (error as Error).message });
    }
    await new Promise((resolve) => setTimeout(resolve, settings.pollMs));
  }
  await db?.close();
  log('bank simulator stopped');
}

await main();
