// The partner bank over ISO 20022 files, end to end: BANK_RAIL=iso20022, the bank simulator running as
// its own process (npm run bank-simulator), a payroll on the demo world with a FAIL… beneficiary. The
// request ends PARTIALLY_COMPLETED with AC04 on the failed payout; every payment file validates
// against pain.001.001.10 with NbOfTxs and CtrlSum equal to the payouts, each payout in exactly one
// transaction; every report validates against pain.002.001.11; a report dropped twice changes nothing.
// The simulator also books the settled payouts (camt.054, each under its EndToEndId), valid against
// its XSD; what the inbox does with it is the bank-books use case's (rejected while none is wired).
import { type ChildProcess, spawn } from 'node:child_process';
import { copyFile, mkdtemp, readFile, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Decimal } from 'decimal.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseBankToCustomer } from '../../../src/adapters/bank/iso20022/camtParse.js';
import { child, children, parseXml, text } from '../../../src/adapters/bank/iso20022/xml.js';
import { xsdErrors } from '../../../src/adapters/bank/iso20022/xsd.js';
import { buildWorker } from '../../../src/composition/worker.js';
import { loadConfig } from '../../../src/config/config.js';
import { createLogger } from '../../../src/observability/logger.js';
import { type ExecutionDeps, executePendingWork } from '../../../src/usecases/payroll/execution.js';
import type { World } from '../../../src/world/types.js';
import { inRepo } from '../../support/build.js';
import { worldWith } from '../../support/builders.js';
import { waitFor } from '../../support/polling.js';
import { demoWorld } from '../../support/globalSetupTemplates.js';
import { type PayrollRequest, estimateAndCreate, readRequest } from '../../support/payroll.js';
import { type TestServer, startTestServer } from '../../support/server.js';

// The demo world's ids (worlds/demo.json's description lists them).
const demo = {
  dana: '7b1e0003-0000-4000-8000-000000000001',
  acmeFireblocks: '7b1e0004-0000-4000-8000-000000000001',
  admin: '7b1e0003-0000-4000-8000-000000000003',
  acmeUsd: '7b1e0005-0000-4000-8000-000000000001',
  partnerAed: '7b1e0005-0000-4000-8000-000000000004',
  priya: '7b1e0006-0000-4000-8000-000000000001',
  mohammed: '7b1e0006-0000-4000-8000-000000000002',
  olenaFail: '7b1e0006-0000-4000-8000-000000000006',
};

let server: TestServer;
let worker: ExecutionDeps;
let simulator: ChildProcess;
let dir: string;
const outbox = () => join(dir, 'outbox');
const inbox = () => join(dir, 'inbox');

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'bank-files-'));
  // Acme's FIREBLOCKS account has an IBAN at a bank, so that its single payouts go to the bank as files.
  const world = worldWith({ accounts: { [demo.acmeFireblocks]: { iban: 'AE070331234567890123456', bic: 'EBILAEAD' } } }, demoWorld() as World);
  server = await startTestServer({ world });
  const config = loadConfig({ NODE_ENV: 'test', BANK_RAIL: 'iso20022', BANK_OUTBOX_DIR: outbox(), BANK_INBOX_DIR: inbox(), SIMULATED_SETTLEMENT_MS: '0' });
  worker = buildWorker(config, server.db, createLogger('silent'), server.clock.now).deps;
  const args = ['--import', 'tsx', inRepo('scripts/bank-simulator.ts'), '--outbox', outbox(), '--inbox', inbox(), '--delay-ms', '300', '--poll-ms', '50'];
  args.push('--return-after-ms', '300', '--statement-every-ms', '1000');
  simulator = spawn(process.execPath, args, { cwd: inRepo(), stdio: 'ignore' });
}, 120_000);

afterAll(async () => {
  simulator?.kill('SIGTERM');
  await server?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

/**
 * `read` after each worker pass (the clock moved past the recheck before the next), until `done`
 * holds of it: the simulator reads and answers the files meanwhile, in its own time.
 */
function afterPasses<T>(what: string, read: () => Promise<T>, done: (value: T) => boolean, deadlineMs = 60_000): Promise<T> {
  let passes = 0;
  const pass = async () => {
    if (passes++ > 0) server.clock.advance(2);
    await executePendingWork(worker);
    return read();
  };
  return waitFor(what, pass, done, { deadlineMs, everyMs: 50 });
}

/** Worker passes until the request is settled. */
function runUntilSettled(requestId: string): Promise<PayrollRequest> {
  const settled = (request: PayrollRequest) => ['COMPLETED', 'PARTIALLY_COMPLETED', 'FAILED'].includes(request.status);
  return afterPasses(`payroll request ${requestId} settled`, () => readRequest(server, requestId, demo.dana), settled);
}

async function xmlFiles(folder: string): Promise<string[]> {
  return (await readdir(folder)).filter((name) => name.endsWith('.xml')).map((name) => join(folder, name));
}

/** The files of `folder` (if any) holding `message`, by their namespace. */
async function filesOf(message: string, folder: string): Promise<string[]> {
  const files = await xmlFiles(folder).catch(() => [] as string[]);
  const holding = await Promise.all(files.map(async (file) => (await readFile(file, 'utf8')).slice(0, 500).includes(message)));
  return files.filter((_, index) => holding[index]);
}

/** The EndToEndIds the simulated bank booked as DBIT entries (camt.054, processed or rejected), once there are some. */
async function bookedEndToEndIds(): Promise<string[]> {
  const booked = async () => {
    const notifications = [...(await filesOf('camt.054.001.08', join(inbox(), 'processed'))), ...(await filesOf('camt.054.001.08', join(inbox(), 'rejected')))];
    const ids: string[] = [];
    for (const file of notifications) {
      const xml = await readFile(file, 'utf8');
      expect(await xsdErrors(xml, 'camt.054.001.08')).toEqual([]);
      for (const report of parseBankToCustomer(xml).reports)
        for (const entry of report.entries.filter((booked) => booked.creditDebit === 'DBIT')) ids.push(...entry.transactions.map((tx) => tx.endToEndId!));
    }
    return ids;
  };
  return afterPasses('DBIT entries booked by the bank', booked, (ids) => ids.length > 0, 10_000);
}

describe('BANK_RAIL=iso20022 with the bank simulator', () => {
  it('a payroll with a FAIL… beneficiary ends PARTIALLY_COMPLETED, AC04 on the failed payout, through valid files', async () => {
    const dana = server.as(demo.dana);
    const admin = server.as(demo.admin);
    const { created } = await estimateAndCreate(
      dana,
      [
        { beneficiaryId: demo.priya, amount: '1000', purposeCode: 'SAL' },
        { beneficiaryId: demo.mohammed, amount: '1500.50', purposeCode: 'SAL' },
        { beneficiaryId: demo.olenaFail, amount: '700', purposeCode: 'SAL' },
      ],
      { accounts: { sourceAccountCurrencyId: demo.acmeUsd, payrollAccountCurrencyId: demo.partnerAed } },
    );
    const requestId = created.data!.data.id;
    const path = { params: { path: { requestId } } };
    const expiresAt = new Date(server.clock.now().getTime() + 3600_000).toISOString();
    expect((await admin.POST('/v1/admin/payroll/requests/{requestId}/quote', { ...path, body: { exchangeRate: '3.6530', expiresAt } })).response.status).toBe(
      200,
    );
    expect((await dana.POST('/v1/customers/payroll/requests/{requestId}/accept', path)).response.status).toBe(200);
    // The processor's legs (debit, move to the bank) stay on the simulated processor.
    for (let pass = 0; pass < 10; pass++) {
      await executePendingWork(worker);
      server.clock.advance(2);
    }
    expect((await admin.POST('/v1/admin/payroll/requests/{requestId}/fx-exchange', { ...path, body: { exchangeRate: '3.6520' } })).response.status).toBe(200);

    const done = await runUntilSettled(requestId);
    expect(done.status).toBe('PARTIALLY_COMPLETED');
    const payouts = done.transfers.filter((transfer) => transfer.transferType === 'BANK_TO_BENEFICIARY');
    expect(payouts.map((payout) => payout.status).sort()).toEqual(['COMPLETED', 'COMPLETED', 'FAILED']);
    const failed = payouts.find((payout) => payout.status === 'FAILED')!;
    expect(failed.failureReason).toContain('AC04');
    expect(failed.payoutInstruction).toMatchObject({ beneficiaryId: demo.olenaFail });

    // The payment files: valid, their control figures the payouts', each payout in exactly one transaction.
    const paymentFiles = [...(await xmlFiles(outbox())), ...(await xmlFiles(join(outbox(), 'processed')))];
    expect(paymentFiles).toHaveLength(1);
    const endToEndIds: string[] = [];
    for (const file of paymentFiles) {
      const xml = await readFile(file, 'utf8');
      expect(await xsdErrors(xml, 'pain.001.001.10')).toEqual([]);
      const initiation = child(child(parseXml(xml), 'Document'), 'CstmrCdtTrfInitn');
      const transactions = children(children(initiation, 'PmtInf')[0], 'CdtTrfTxInf');
      expect(text(child(initiation, 'GrpHdr'), 'NbOfTxs')).toBe(String(payouts.length));
      const sum = payouts.reduce((total, payout) => total.plus(payout.amount), new Decimal(0));
      expect(new Decimal(text(child(initiation, 'GrpHdr'), 'CtrlSum')!).equals(sum)).toBe(true);
      endToEndIds.push(...transactions.map((transaction) => text(child(transaction, 'PmtId'), 'EndToEndId')!));
    }
    expect(endToEndIds.sort()).toEqual(payouts.map((payout) => payout.id.replace(/-/g, '')).sort());

    // The reports: every one valid, all applied, none rejected.
    const reports = await filesOf('pain.002.001.11', join(inbox(), 'processed'));
    expect(reports.length).toBeGreaterThanOrEqual(2);
    for (const report of reports) expect(await xsdErrors(await readFile(report, 'utf8'), 'pain.002.001.11')).toEqual([]);
    expect(await filesOf('pain.002.001.11', join(inbox(), 'rejected'))).toEqual([]);

    // The bank's books: the settled payouts booked (DBIT) under their EndToEndIds, in files valid against their XSD.
    const booked = await bookedEndToEndIds();
    const completed = payouts.filter((payout) => payout.status === 'COMPLETED').map((payout) => payout.id.replace(/-/g, ''));
    expect(booked.sort()).toEqual(completed.sort());

    // A report dropped twice changes nothing.
    const settlement = reports.find((report) => report.includes(`${join(inbox(), 'processed')}/S`))!;
    expect(settlement).toBeDefined();
    await copyFile(settlement, join(inbox(), 'again.xml'));
    for (let pass = 0; pass < 3; pass++) await executePendingWork(worker);
    expect(await readdir(inbox())).not.toContain('again.xml');
    const after = await readRequest(server, requestId, demo.dana);
    expect(after.status).toBe('PARTIALLY_COMPLETED');
    // The bank's statement may be booked in those passes too (bankBooking): the report changes nothing else.
    const unbooked = (transfers: typeof done.transfers) => transfers.map(({ bankBooking: _booking, ...rest }) => rest);
    expect(unbooked(after.transfers)).toEqual(unbooked(done.transfers));
  }, 120_000);

  it('a single payout from an account with an IBAN goes to the bank as a file of its own: ACSC completes it, AC04 fails it', async () => {
    const dana = server.as(demo.dana);
    const accountId = demo.acmeFireblocks;
    const payoutTo = async (beneficiaryId: string) => {
      const query = { amount: '250.00', currency: 'USD', beneficiaryId };
      const estimate = await dana.GET('/v1/accounts/{accountId}/payouts/estimate', { params: { path: { accountId }, query } });
      const created = await dana.POST('/v1/accounts/{accountId}/payouts', {
        params: { path: { accountId } },
        body: { ...query, feeHash: estimate.data!.data.feeHash },
      });
      expect(created.response.status).toBe(201);
      return created.data!.data.id;
    };
    const paid = await payoutTo(demo.priya);
    const bounced = await payoutTo(demo.olenaFail);
    const read = async (payoutId: string) =>
      (await dana.GET('/v1/accounts/{accountId}/payouts/{payoutId}', { params: { path: { accountId, payoutId } } })).data!.data;
    const statuses = async () => [(await read(paid)).status, (await read(bounced)).status];
    await afterPasses('the payouts COMPLETED and FAILED', statuses, ([first, second]) => first === 'COMPLETED' && second === 'FAILED');
    expect(await read(paid)).toMatchObject({ status: 'COMPLETED', externalId: paid.replace(/-/g, '') });
    expect(await read(bounced)).toMatchObject({ status: 'FAILED', failureReason: 'AC04 closed account' });
    const delivered = await readdir(join(outbox(), 'processed'));
    expect(delivered).toEqual(expect.arrayContaining([`${paid.replace(/-/g, '')}.xml`, `${bounced.replace(/-/g, '')}.xml`]));
    // The payroll's batch and the single payouts name each beneficiary the same way (one creditor builder).
    const namesByAccount = new Map<string, Set<string>>();
    for (const file of await xmlFiles(join(outbox(), 'processed'))) {
      const document = child(parseXml(await readFile(file, 'utf8')), 'Document');
      for (const payment of children(child(document, 'CstmrCdtTrfInitn'), 'PmtInf')) {
        // The debtor is named as a bank reads it: the paying company's legal name, not the account's provider.
        expect(text(child(payment, 'Dbtr'), 'Nm')).toBe('Acme Trading LLC');
        for (const transaction of children(payment, 'CdtTrfTxInf')) {
          const account = JSON.stringify(child(transaction, 'CdtrAcct'));
          namesByAccount.set(account, (namesByAccount.get(account) ?? new Set()).add(text(child(transaction, 'Cdtr'), 'Nm')!));
        }
      }
    }
    expect(namesByAccount.size).toBeGreaterThanOrEqual(3);
    for (const names of namesByAccount.values()) expect(names.size).toBe(1);
  }, 120_000);
});
