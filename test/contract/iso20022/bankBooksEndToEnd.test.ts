// The bank's books end to end (BANK_RAIL=iso20022, the bank simulator as its own process on the
// service's database): a payroll with a RETURN… beneficiary ends COMPLETED, then the return makes
// it PARTIALLY_COMPLETED with the payout RETURNED (AC04), the customer credited back exactly the
// split's source amount, the ledger balanced; the statement of the period reconciles with no
// exception; a statement naming nothing of ours with a wrong closing balance raises
// UNKNOWN_REFERENCE and BALANCE_DRIFT; a camt file dropped twice changes nothing; a worker process
// SIGKILLed while applying a big camt file leaves nothing applied twice.
//
// The server and the worker run on the wall clock here, as the simulator does: the statements'
// periods, the bookings' dates and the ledger's entries must be on one time line to reconcile.
import { type ChildProcess, spawn } from 'node:child_process';
import { copyFile, mkdir, mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Decimal } from 'decimal.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPayrollClient } from '../../../packages/client/src/index.js';
import { answerPaymentFile } from '../../../src/adapters/bank/iso20022/bankSimulator.js';
import { bookingNotification, paymentEntry, statement } from '../../../src/adapters/bank/iso20022/simulatedBookings.js';
import { buildWorker } from '../../../src/composition/worker.js';
import { loadConfig } from '../../../src/config/config.js';
import { signAccessToken } from '../../../src/http/access/tokens.js';
import { createLogger } from '../../../src/observability/logger.js';
import { type ExecutionDeps, executePendingWork } from '../../../src/usecases/payroll/execution.js';
import { balancesOf, expectBooksBalanced } from '../../support/balances.js';
import { demo as demoIds } from '../../support/bankBooks.js';
import { inRepo } from '../../support/build.js';
import { type FreshDatabase, freshDatabase } from '../../support/database.js';
import { demoWorld } from '../../support/globalSetupTemplates.js';
import type { Listening } from '../../support/http.js';
import { type PayrollRequest, estimateAndCreate, readRequest } from '../../support/payroll.js';
import { waitFor } from '../../support/polling.js';
import { killLeftovers, startEntry, stop } from '../../support/processes.js';
import { TestClock, type TestServer, serveApp, testConfig } from '../../support/server.js';

const demo = { ...demoIds, youssefReturn: '7b1e0006-0000-4000-8000-000000000010' };
const ACCOUNT = { iban: demo.partnerIban, currency: 'AED' };
/** The longest statement period periodJustBegun may choose. */
const MAX_PERIOD_MS = 45_000;

/**
 * The simulator's statement period: long enough for a payroll's settlement, booking and return to
 * fall in one. Its periods start at multiples of it since the epoch, so of the lengths from 30 s the
 * first whose current period began within the last second is taken: the payroll that starts now has
 * a whole period ahead, without waiting on the wall clock for a boundary.
 */
function periodJustBegun(now = Date.now()): number {
  for (let period = 30_000; period <= MAX_PERIOD_MS; period++) if (now % period < 1000) return period;
  throw new Error(`no statement period of 30 to ${MAX_PERIOD_MS / 1000} s begins within a second of ${now}`);
}

let database: FreshDatabase;
let listening: Listening;
let server: TestServer;
let worker: ExecutionDeps;
let simulator: ChildProcess | undefined;
let dir: string;
const folder = (name: string) => join(dir, name);

function workerOn(outbox: string, inbox: string): ExecutionDeps {
  const env = { NODE_ENV: 'test', BANK_RAIL: 'iso20022', BANK_OUTBOX_DIR: outbox, BANK_INBOX_DIR: inbox, SIMULATED_SETTLEMENT_MS: '0', WORKER_POLL_MS: '50' };
  return buildWorker(loadConfig(env), database.db, createLogger('silent')).deps;
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'bank-books-e2e-'));
  database = await freshDatabase(demoWorld());
  listening = await serveApp(testConfig, database.db);
  const token = (userId: string, ttlSeconds = 3600) => signAccessToken(testConfig.jwt, userId, ttlSeconds);
  const as = (userId: string) => createPayrollClient({ baseUrl: listening.url, token: () => token(userId) });
  server = {
    baseUrl: listening.url,
    db: database.db,
    clock: new TestClock(),
    client: createPayrollClient({ baseUrl: listening.url }),
    as,
    token,
    close: async () => {},
  };
  worker = workerOn(folder('outbox'), folder('inbox'));
  await mkdir(folder('inbox'), { recursive: true });
  const args = ['--import', 'tsx', inRepo('scripts/bank-simulator.ts'), '--outbox', folder('outbox'), '--inbox', folder('inbox'), '--delay-ms', '300'];
  args.push(
    '--poll-ms',
    '50',
    '--charge',
    '2.50',
    '--return-after-ms',
    '4000',
    '--statement-every-ms',
    String(periodJustBegun()),
    '--database-url',
    database.url,
  );
  simulator = spawn(process.execPath, args, { cwd: inRepo(), stdio: 'ignore' });
}, 120_000);

afterAll(async () => {
  simulator?.kill('SIGTERM');
  killLeftovers();
  await listening?.close();
  await database?.drop();
  if (dir) await rm(dir, { recursive: true, force: true });
});

const admin = () => server.as(demo.admin);
const payoutsOf = (request: PayrollRequest) => request.transfers.filter((transfer) => transfer.transferType === 'BANK_TO_BENEFICIARY');

/** Worker passes until `done` holds of the request. */
const passUntil = (requestId: string, done: (request: PayrollRequest) => boolean, what: string) => passUntilWith(worker, requestId, done, what);

async function passUntilWith(
  run: ExecutionDeps,
  requestId: string,
  done: (request: PayrollRequest) => boolean,
  what: string,
  timeoutMs = 60_000,
): Promise<PayrollRequest> {
  const read = async () => {
    await executePendingWork(run);
    return readRequest(server, requestId, demo.dana);
  };
  return waitFor(`payroll request ${requestId}: ${what}`, read, done, { deadlineMs: timeoutMs, everyMs: 50 });
}

/** Created, quoted, accepted, its processor legs done and its FX recorded: its payment file goes to the bank on the next pass. */
async function payrollExchanged(beneficiaries: string[], amounts: string[], run: ExecutionDeps): Promise<string> {
  const dana = server.as(demo.dana);
  const entries = beneficiaries.map((beneficiaryId, index) => ({ beneficiaryId, amount: amounts[index]!, purposeCode: 'SAL' as const }));
  const { created } = await estimateAndCreate(dana, entries, {
    accounts: { sourceAccountCurrencyId: demo.acmeUsd, payrollAccountCurrencyId: demo.partnerAed },
  });
  const requestId = created.data!.data.id;
  const path = { params: { path: { requestId } } };
  const expiresAt = new Date(Date.now() + 3600_000).toISOString();
  expect((await admin().POST('/v1/admin/payroll/requests/{requestId}/quote', { ...path, body: { exchangeRate: '3.6530', expiresAt } })).response.status).toBe(
    200,
  );
  expect((await dana.POST('/v1/customers/payroll/requests/{requestId}/accept', path)).response.status).toBe(200);
  // The processor's legs (the source debit, the move to the bank) settle over a few passes; then the FX is recorded.
  const fxRecord = async () => {
    await executePendingWork(run);
    const recorded = await admin().POST('/v1/admin/payroll/requests/{requestId}/fx-exchange', { ...path, body: { exchangeRate: '3.6520' } });
    if (recorded.response.status !== 200) expect(recorded.error).toMatchObject({ error: { code: 'INVALID_STATE' } });
    return recorded.response.status;
  };
  await waitFor('the processor legs settled: the FX recorded', fxRecord, (status) => status === 200, { deadlineMs: 60_000, everyMs: 100 });
  return requestId;
}

/** Every currency's postings sum to zero (each entry balanced), and every balance is the ledger's. */
async function expectLedgerZeroPerCurrency(): Promise<void> {
  const sums = await database.db.query<{ currency: string; total: string }>(
    'SELECT currency_code AS currency, sum(amount)::text AS total FROM postings GROUP BY currency_code',
  );
  expect(sums.length).toBeGreaterThan(0);
  for (const { currency, total } of sums) expect(new Decimal(total).isZero(), `${currency} postings sum to ${total}`).toBe(true);
  await expectBooksBalanced(database.db);
}

const exceptions = async () => (await admin().GET('/v1/admin/bank/exceptions', { params: { query: { limit: 100 } } })).data!.data.items;
const statements = async () => (await admin().GET('/v1/admin/bank/statements', { params: { query: { limit: 100 } } })).data!.data.items;

/** What a camt file applied a second time could change: transfers, journal, bookings, exceptions, statements. */
async function footprint(): Promise<unknown> {
  const [counts] = await database.db.query(
    `SELECT (SELECT count(*) FROM journal_entries) AS journal, (SELECT count(*) FROM postings) AS postings,
            (SELECT count(*) FROM bank_exceptions) AS exceptions, (SELECT count(*) FROM bank_statements) AS statements,
            (SELECT count(*) FROM bank_books_messages) AS messages,
            (SELECT json_agg(json_build_object('id', id, 'status', status, 'row', to_jsonb(transfers)) ORDER BY id) FROM transfers) AS transfers`,
  );
  return { counts, usd: await balancesOf(database.db, demo.acmeUsd), aed: await balancesOf(database.db, demo.partnerAed) };
}

const inboxFiles = async (sub = '') => (await readdir(join(folder('inbox'), sub)).catch(() => [] as string[])).filter((name) => name.endsWith('.xml'));

describe('the bank’s books with BANK_RAIL=iso20022 and the bank simulator', () => {
  let requestId: string;

  it('a payroll with a FAIL… and a RETURN… beneficiary ends PARTIALLY_COMPLETED; the return (AC04) then makes its payout RETURNED, the customer credited back', async () => {
    // Early in a statement period (periodJustBegun), so that the whole life of the payroll falls in one.
    requestId = await payrollExchanged([demo.priya, demo.mohammed, demo.youssefReturn, demo.olenaFail], ['1000', '1500.50', '800', '640'], worker);

    const completed = await passUntil(requestId, (request) => ['COMPLETED', 'PARTIALLY_COMPLETED', 'FAILED'].includes(request.status), 'a final status');
    expect(completed.status).toBe('PARTIALLY_COMPLETED');
    const returned = payoutsOf(completed).find((payout) => payout.payoutInstruction?.beneficiaryId === demo.youssefReturn)!;
    expect(returned.status).toBe('COMPLETED');
    expect(payoutsOf(completed).find((payout) => payout.payoutInstruction?.beneficiaryId === demo.olenaFail)?.status).toBe('FAILED');
    const before = await balancesOf(database.db, demo.acmeUsd);

    const isReturned = (request: PayrollRequest) => payoutsOf(request).some((payout) => payout.id === returned.id && payout.status === 'RETURNED');
    const revised = await passUntil(requestId, isReturned, 'the payout RETURNED');
    expect(revised.status).toBe('PARTIALLY_COMPLETED');
    const payouts = payoutsOf(revised);
    expect(payouts.map((payout) => payout.status).sort()).toEqual(['COMPLETED', 'COMPLETED', 'FAILED', 'RETURNED']);
    const back = payouts.find((payout) => payout.id === returned.id)!;
    expect(back.status).toBe('RETURNED');
    expect(back.bankReturn).toMatchObject({ reasonCode: 'AC04' });
    // The bank books what it paid, with its charges; the payout it refused it never books.
    for (const payout of payouts) expect(payout.bankBooking ?? null).toEqual(payout.status === 'FAILED' ? null : expect.objectContaining({ charges: '2.50' }));

    // The documented credit: the split's source amount less the return's charges (none here) at the accepted quote's rate.
    const split = revised.amountSplitDetails.find((candidate) => candidate.payoutTransferId === back.id)!;
    expect(new Decimal(back.bankReturn!.creditedAmount).equals(split.quotedSourceCurrencyAmount!)).toBe(true);
    const after = await balancesOf(database.db, demo.acmeUsd);
    expect(after.balance.minus(before.balance).equals(back.bankReturn!.creditedAmount), `balance up by ${after.balance.minus(before.balance).toFixed()}`).toBe(
      true,
    );
    expect(after.available.minus(before.available).equals(back.bankReturn!.creditedAmount)).toBe(true);
    await expectLedgerZeroPerCurrency();
  }, 180_000);

  it(
    'the period’s camt.053 reconciles with no exception',
    async () => {
      const afterPass = async () => {
        await executePendingWork(worker);
        return statements();
      };
      // The simulator closes the period on the wall clock, in its own process.
      await waitFor('a statement from the simulator', afterPass, (listed) => listed.length > 0, { deadlineMs: MAX_PERIOD_MS + 30_000, everyMs: 250 });
      const [stated, ...others] = await statements();
      expect(stated, 'a statement from the simulator').toBeDefined();
      expect(others).toEqual([]);
      expect(stated).toMatchObject({ iban: demo.partnerIban, currencyCode: 'AED', status: 'RECONCILED', exceptionCount: 0 });
      expect(stated!.closingBalance).toBe(stated!.ledgerBalance);
      expect(await exceptions()).toEqual([]);
      expect(await inboxFiles('rejected')).toEqual([]);
    },
    MAX_PERIOD_MS + 60_000,
  );

  it('the same camt files dropped twice change nothing', async () => {
    const processed = await inboxFiles('processed');
    const camt = processed.filter((name) => /^[NRT]/.test(name));
    expect(camt.length).toBeGreaterThanOrEqual(3);
    const before = await footprint();
    for (const [index, name] of camt.entries()) await copyFile(join(folder('inbox'), 'processed', name), join(folder('inbox'), `again-${index}.xml`));
    for (let pass = 0; pass < 3; pass++) await executePendingWork(worker);
    expect(await inboxFiles()).toEqual([]);
    expect(await footprint()).toEqual(before);
    expect(await exceptions()).toEqual([]);
    expect((await readRequest(server, requestId, demo.dana)).status).toBe('PARTIALLY_COMPLETED');
  });

  it('a statement naming an unknown reference, with a wrong closing balance, yields UNKNOWN_REFERENCE and BALANCE_DRIFT', async () => {
    const from = new Date(Math.ceil((Date.now() + 86_400_000) / 86_400_000) * 86_400_000);
    const unknown = paymentEntry(ACCOUNT, { endToEndId: 'ffffffff000040008000000000000001', amount: '123.45' }, new Date(from.getTime() + 3600_000));
    const day = statement({ account: ACCOUNT, from, to: new Date(from.getTime() + 86_400_000), opening: '0.00', entries: [unknown], createdAt: from });
    await writeFile(join(folder('inbox'), `${day.msgId}.xml`), [...day.chunks].join(''));
    for (let pass = 0; pass < 2; pass++) await executePendingWork(worker);
    expect(await inboxFiles('processed')).toContain(`${day.msgId}.xml`);
    const raised = await exceptions();
    expect(raised.map((exception) => exception.kind).sort()).toEqual(['BALANCE_DRIFT', 'UNKNOWN_REFERENCE']);
    expect(raised.find((exception) => exception.kind === 'UNKNOWN_REFERENCE')).toMatchObject({ endToEndId: 'ffffffff000040008000000000000001' });
    const stated = (await statements()).find((candidate) => candidate.messageId === day.msgId);
    expect(stated).toMatchObject({ status: 'EXCEPTIONS', closingBalance: '-123.45' });
    await expectLedgerZeroPerCurrency();
  });
});

describe('a worker process SIGKILLed while applying a camt file', () => {
  it('leaves nothing applied twice: each booking recorded once, money moved once, the file in processed/ once', async () => {
    if (simulator) await stop(simulator);
    simulator = undefined;
    // A payroll at the bank whose payouts pain.002 only accepted (no simulator on these folders): its bookings complete them.
    const outbox = folder('outbox-2');
    const inbox = folder('inbox-2');
    await mkdir(inbox, { recursive: true });
    const here = workerOn(outbox, inbox);
    const requestId = await payrollExchanged([demo.priya, demo.mohammed, demo.joseph], ['300', '400', '500'], here);
    const paymentFiles = async () => {
      await executePendingWork(here);
      return (await readdir(outbox).catch(() => [] as string[])).filter((name) => name.endsWith('.xml'));
    };
    const [paymentFile] = await waitFor('the payment file in the outbox', paymentFiles, (names) => names.length > 0);
    const answer = await answerPaymentFile(await readFile(join(outbox, paymentFile!), 'utf8'), () => false, new Date());
    await writeFile(join(inbox, `${answer.immediate.msgId}.xml`), answer.immediate.xml);
    const processing = await passUntilWith(here, requestId, (request) => payoutsOf(request).every((payout) => payout.status === 'PROCESSING'), 'PROCESSING');
    const payouts = payoutsOf(processing);
    expect(payouts.map((payout) => payout.status)).toEqual(['PROCESSING', 'PROCESSING', 'PROCESSING']);

    // The bank books them in one big notification, among thousands of bookings that are none of ours.
    const ours = payouts.map((payout) => ({ endToEndId: payout.id.replace(/-/g, ''), amount: payout.amount }));
    const strangers = Array.from({ length: 6000 }, (_, n) => ({ endToEndId: `eeeeeeee00004000800${String(n).padStart(13, '0')}`, amount: '10.00' }));
    const big = bookingNotification({ account: ACCOUNT, originalMsgId: 'sigkill', payments: [...ours, ...strangers], bookedAt: new Date(), charge: '1.50' });
    await writeFile(join(inbox, `${big.msgId}.xml`), big.xml);
    const before = await balancesOf(database.db, demo.partnerAed);

    const env = {
      DATABASE_URL: database.url,
      BANK_RAIL: 'iso20022',
      BANK_OUTBOX_DIR: outbox,
      BANK_INBOX_DIR: inbox,
      WORKER_POLL_MS: '50',
      LOG_LEVEL: 'silent',
    };
    const first = startEntry('src/worker/main.ts', env);
    // Killed once its transaction has been applying for a while, before it commits.
    const output = () => [...first.stdout, ...first.stderr].join('\n');
    const applying = async () => {
      if (first.child.exitCode !== null) throw new Error(`the worker exited (${first.child.exitCode}):\n${output()}`);
      const [open] = await database.db.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()
            AND xact_start < now() - interval '1 second' AND state <> 'idle'`,
      );
      return open!.n;
    };
    await waitFor('the worker applying the file', applying, (open) => open > 0, { deadlineMs: 60_000, everyMs: 100, context: output });
    first.child.kill('SIGKILL');
    await stop(first.child);
    expect(await database.db.query('SELECT 1 FROM bank_books_messages WHERE msg_id = $1', [big.msgId])).toEqual([]);
    expect(await readdir(inbox)).toContain(`${big.msgId}.xml`);

    const second = startEntry('src/worker/main.ts', env);
    // The file leaves the inbox once its transaction has committed; the request then completes.
    const settled = async () => ({
      inInbox: (await readdir(inbox)).includes(`${big.msgId}.xml`),
      status: (await readRequest(server, requestId, demo.dana)).status,
    });
    await waitFor('the big file applied by the second worker', settled, (now) => !now.inInbox && now.status === 'COMPLETED', {
      deadlineMs: 120_000,
      everyMs: 200,
    });
    await stop(second.child);

    expect((await readdir(inbox)).filter((name) => name.endsWith('.xml'))).toEqual([]);
    expect((await readdir(join(inbox, 'processed'))).filter((name) => name === `${big.msgId}.xml`)).toHaveLength(1);
    expect(await readdir(join(inbox, 'rejected')).catch(() => [])).toEqual([]);
    const [applied] = await database.db.query<{ n: number }>('SELECT count(*)::int AS n FROM bank_books_messages WHERE msg_id = $1', [big.msgId]);
    expect(applied!.n).toBe(1);
    const [unknown] = await database.db.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM bank_exceptions WHERE msg_id = $1 AND kind = 'UNKNOWN_REFERENCE'",
      [big.msgId],
    );
    expect(unknown!.n).toBe(strangers.length);
    const [others] = await database.db.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM bank_exceptions WHERE msg_id = $1 AND kind <> 'UNKNOWN_REFERENCE'",
      [big.msgId],
    );
    expect(others!.n).toBe(0);

    const done = await readRequest(server, requestId, demo.dana);
    expect(done.status).toBe('COMPLETED');
    for (const payout of payoutsOf(done)) expect(payout).toMatchObject({ status: 'COMPLETED', bankBooking: { charges: '1.50' } });
    // Money moved once: the three payouts and their charges left the partner account, nothing more.
    const after = await balancesOf(database.db, demo.partnerAed);
    const paid = ours.reduce((sum, payout) => sum.plus(payout.amount).plus('1.50'), new Decimal(0));
    expect(before.balance.minus(after.balance).equals(paid), `moved ${before.balance.minus(after.balance).toFixed()} for ${paid.toFixed()}`).toBe(true);
    await expectLedgerZeroPerCurrency();
  }, 300_000);
});
