/**
 * A payroll paid over the ISO 20022 rail (BANK_RAIL=iso20022) on the demo world, and the bank's
 * books about it as the camt adapter hands them over (BankToCustomerMessage values, no XML): what
 * the bank-books tests build on.
 */
import { mkdir, mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'vitest';
import { answerPaymentFile } from '../../src/adapters/bank/iso20022/bankSimulator.js';
import { buildWorker } from '../../src/composition/worker.js';
import { loadConfig } from '../../src/config/config.js';
import type { BankAccountReport, BankEntry, BankToCustomerMessage, CreditDebit } from '../../src/domain/bank/bankBooks.js';
import { createLogger } from '../../src/observability/logger.js';
import type { BankBooksDeps } from '../../src/usecases/bank/applyBankBooks.js';
import { bankMessageApplier } from '../../src/usecases/bank/applyBankMessage.js';
import { type ExecutionDeps, executePendingWork } from '../../src/usecases/payroll/execution.js';
import type { World } from '../../src/world/types.js';
import { demoWorld } from './globalSetupTemplates.js';
import { type PayrollRequest, estimateAndCreate, readRequest } from './payroll.js';
import { TEST_ENV, type TestServer, startTestServer } from './server.js';

/** The demo world's ids (worlds/demo.json's description lists them). */
export const demo = {
  dana: '7b1e0003-0000-4000-8000-000000000001',
  admin: '7b1e0003-0000-4000-8000-000000000003',
  acmeUsd: '7b1e0005-0000-4000-8000-000000000001',
  partnerAed: '7b1e0005-0000-4000-8000-000000000004',
  partnerIban: 'AE420260001015333439101',
  priya: '7b1e0006-0000-4000-8000-000000000001',
  mohammed: '7b1e0006-0000-4000-8000-000000000002',
  joseph: '7b1e0006-0000-4000-8000-000000000003',
  olenaFail: '7b1e0006-0000-4000-8000-000000000006',
};

export interface BankWorld {
  server: TestServer;
  worker: ExecutionDeps;
  books: BankBooksDeps;
  outbox: string;
  inbox: string;
  close(): Promise<void>;
}

/** The demo world (or `world`) with its worker on the ISO 20022 rail, and the folders the bank's files go through. */
export async function startBankWorld(options: { world?: World } = {}): Promise<BankWorld> {
  const dir = await mkdtemp(join(tmpdir(), 'bank-books-'));
  const outbox = join(dir, 'outbox');
  const inbox = join(dir, 'inbox');
  // The API reaches the outbox too: an operator's resend writes there (resendBankBatch).
  const server = await startTestServer({ world: options.world ?? demoWorld(), config: loadConfig({ ...TEST_ENV, BANK_OUTBOX_DIR: outbox }) });
  await mkdir(inbox);
  const config = loadConfig({ NODE_ENV: 'test', BANK_RAIL: 'iso20022', BANK_OUTBOX_DIR: outbox, BANK_INBOX_DIR: inbox, SIMULATED_SETTLEMENT_MS: '0' });
  const worker = buildWorker(config, server.db, createLogger('silent'), server.clock.now).deps;
  const books = { db: server.db, clock: server.clock.now, bookingGraceDays: config.bank.bookingGraceDays };
  return {
    server,
    worker,
    books,
    outbox,
    inbox,
    async close() {
      await server.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

async function passes(world: BankWorld, count: number): Promise<void> {
  for (let pass = 0; pass < count; pass++) {
    await executePendingWork(world.worker);
    world.server.clock.advance(2);
  }
}

const payoutsOf = (request: PayrollRequest) => request.transfers.filter((transfer) => transfer.transferType === 'BANK_TO_BENEFICIARY');

/**
 * A payroll of `amounts` (USD, to Priya, Mohammed, Joseph unless `beneficiaries` says) quoted,
 * accepted and exchanged, its payouts sent to the bank in a payment file; then the bank's pain.002:
 * `settled` every payout ACSC (or AC04 for a FAIL… beneficiary), `pending` only the acceptance
 * (the payouts stay PROCESSING), `none` nothing at all (a bank that never answers).
 */
export async function payrollAtTheBank(
  world: BankWorld,
  amounts: string[],
  report: 'settled' | 'pending' | 'none',
  beneficiaries = [demo.priya, demo.mohammed, demo.joseph],
): Promise<PayrollRequest> {
  const { server } = world;
  const dana = server.as(demo.dana);
  const admin = server.as(demo.admin);
  const entries = amounts.map((amount, index) => ({ beneficiaryId: beneficiaries[index]!, amount, purposeCode: 'SAL' as const }));
  const { created } = await estimateAndCreate(dana, entries, {
    accounts: { sourceAccountCurrencyId: demo.acmeUsd, payrollAccountCurrencyId: demo.partnerAed },
  });
  const requestId = created.data!.data.id;
  const path = { params: { path: { requestId } } };
  const expiresAt = new Date(server.clock.now().getTime() + 3600_000).toISOString();
  expect((await admin.POST('/v1/admin/payroll/requests/{requestId}/quote', { ...path, body: { exchangeRate: '3.6530', expiresAt } })).response.status).toBe(
    200,
  );
  expect((await dana.POST('/v1/customers/payroll/requests/{requestId}/accept', path)).response.status).toBe(200);
  await passes(world, 8);
  expect((await admin.POST('/v1/admin/payroll/requests/{requestId}/fx-exchange', { ...path, body: { exchangeRate: '3.6520' } })).response.status).toBe(200);
  await passes(world, 3);
  const file = await paymentFileOf(world, requestId);
  const answer = await answerPaymentFile(await readFile(file, 'utf8'), () => false, server.clock.now());
  if (report !== 'none') await writeFile(join(world.inbox, `${answer.immediate.msgId}.xml`), answer.immediate.xml);
  if (report === 'settled') await writeFile(join(world.inbox, `${answer.settled!.msgId}.xml`), answer.settled!.xml);
  await passes(world, 4);
  return readRequest(server, requestId, demo.dana);
}

async function paymentFileOf(world: BankWorld, requestId: string): Promise<string> {
  const [row] = await world.server.db.query<{ msg_id: string }>('SELECT msg_id FROM bank_file_batches WHERE payroll_request_id = $1', [requestId]);
  expect(row, 'the payment file of the request').toBeDefined();
  const names = await readdir(world.outbox);
  expect(names).toContain(`${row!.msg_id}.xml`);
  return join(world.outbox, `${row!.msg_id}.xml`);
}

export const payouts = payoutsOf;
export const endToEndIdOf = (transferId: string): string => transferId.replace(/-/g, '');

/** A booked entry of one transaction. */
export function entry(
  creditDebit: CreditDebit,
  amount: string,
  options: {
    endToEndId?: string | null;
    reference?: string;
    charges?: string;
    returnCode?: string;
    returnText?: string;
    bookingDate?: string;
    currency?: string;
  } = {},
): BankEntry {
  const returnReason = options.returnCode ? { code: options.returnCode, text: options.returnText ?? null } : null;
  return {
    entryReference: null,
    accountServicerReference: options.reference ?? null,
    amount,
    currency: options.currency ?? 'AED',
    creditDebit,
    reversal: false,
    status: 'BOOK',
    bookingDate: options.bookingDate ?? '2026-11-23',
    valueDate: null,
    charges: options.charges ?? null,
    transactions: [
      {
        endToEndId: options.endToEndId ?? null,
        accountServicerReference: options.reference ?? null,
        amount: null,
        currency: null,
        creditDebit: null,
        returnReason,
        charges: null,
      },
    ],
  };
}

/** An account's report (the partner-bank AED account's unless `account` says): a statement's balances (closing, at `date`) or a notification's none. */
export function report(
  entries: BankEntry[],
  closing?: { amount: string; date?: string },
  account: { iban: string; currency: string } = { iban: demo.partnerIban, currency: 'AED' },
): BankAccountReport {
  const date = closing?.date ?? '2026-11-23';
  const balances = closing
    ? [
        {
          type: 'CLBD',
          amount: closing.amount.replace(/^-/, ''),
          currency: account.currency,
          creditDebit: closing.amount.startsWith('-') ? ('DBIT' as const) : ('CRDT' as const),
          date,
        },
      ]
    : [];
  return { reportId: `R-${date}`, account: { iban: account.iban, otherId: null, currency: account.currency }, period: null, balances, entries };
}

let messages = 0;
export function message(kind: BankToCustomerMessage['kind'], reports: BankAccountReport[], msgId = `MSG-${process.pid}-${++messages}`): BankToCustomerMessage {
  return { kind, msgId, createdAt: '2026-11-23T18:00:00Z', reports };
}

/** The message applied as the inbox applies it (the composition root's ApplyBankMessage). */
export const apply = (world: BankWorld, books: BankToCustomerMessage) =>
  bankMessageApplier(world.books)(books, { fileName: `${books.msgId}.xml`, sha256: 'a'.repeat(64), receivedAt: world.server.clock.now() });
