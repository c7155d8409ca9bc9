// The UAE Wage Protection System on the bank rail (docs/wps.md), end to end on the demo world: a WPS
// employer's AED payroll from a CSV file with the WPS columns writes a pain.001 and, beside it, a
// Salary Information File matching the layout of the banks' guides (a golden file), whose totals are
// the payments'; the bank simulator, playing the agent too, acknowledges it and refunds one salary,
// which comes back exactly through the ledger. A payroll missing WPS fields is refused with every
// missing field listed.
import { type ChildProcess, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { copyFile, readFile, readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { Decimal } from 'decimal.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { child, parseXml, text } from '../../../src/adapters/bank/iso20022/xml.js';
import { executePendingWork } from '../../../src/usecases/payroll/execution.js';
import { expectBooksBalanced } from '../../support/balances.js';
import { type BankWorld, startBankWorld } from '../../support/bankBooks.js';
import { inRepo } from '../../support/build.js';
import { readRequest } from '../../support/payroll.js';
import { waitFor } from '../../support/polling.js';

// The demo world's ids (worlds/demo.json's description lists them).
const falcon = {
  huda: '7b1e0003-0000-4000-8000-000000000005',
  usd: '7b1e0005-0000-4000-8000-000000000006',
  ravi: '7b1e0006-0000-4000-8000-000000000012',
  maria: '7b1e0006-0000-4000-8000-000000000013',
  sunil: '7b1e0006-0000-4000-8000-000000000014',
};
const admin = '7b1e0003-0000-4000-8000-000000000003';
const partnerAed = '7b1e0005-0000-4000-8000-000000000004';
const accounts = { sourceAccountCurrencyId: falcon.usd, payrollAccountCurrencyId: partnerAed };

let world: BankWorld;
let simulator: ChildProcess;

beforeAll(async () => {
  world = await startBankWorld();
  const args = ['--import', 'tsx', inRepo('scripts/bank-simulator.ts'), '--outbox', world.outbox, '--inbox', world.inbox];
  args.push('--delay-ms', '300', '--poll-ms', '50', '--return-after-ms', '300', '--statement-every-ms', '86400000');
  simulator = spawn(process.execPath, args, { cwd: inRepo(), stdio: 'ignore' });
}, 120_000);

afterAll(async () => {
  simulator?.kill('SIGTERM');
  await world?.close();
});

const csvInit = (csv: string, query: Record<string, string>) => ({
  body: csv,
  params: { query },
  headers: { 'Content-Type': 'text/csv' },
  bodySerializer: (body: unknown) => String(body),
});

const HEADER = 'beneficiaryReference,amount,amountCurrencyType,purposeCode,payPeriodStart,payPeriodEnd,fixedAmount,variableAmount,leaveDays';

/** Estimate then create from the same CSV file; the creation's whole answer. */
async function createFromCsv(csv: string) {
  const huda = world.server.as(falcon.huda);
  const estimate = await huda.POST('/v1/customers/payroll/estimate', csvInit(csv, accounts));
  expect(estimate.response.status, JSON.stringify(estimate.error)).toBe(200);
  return huda.POST('/v1/customers/payroll/requests', csvInit(csv, { ...accounts, feeHash: estimate.data!.data.feeHash }));
}

/** The worker's passes, the test clock moved between them, until `done` holds of what `read` gives. */
function afterPasses<T>(what: string, read: () => Promise<T>, done: (value: T) => boolean): Promise<T> {
  let passes = 0;
  const pass = async () => {
    if (passes++ > 0) world.server.clock.advance(2);
    await executePendingWork(world.worker);
    return read();
  };
  return waitFor(what, pass, done, { deadlineMs: 90_000, everyMs: 50 });
}

/** Where a file the service wrote is: still in the outbox, or delivered (processed/). */
async function outboxFile(pattern: RegExp): Promise<string | undefined> {
  for (const folder of [world.outbox, join(world.outbox, 'processed')]) {
    const names = await readdir(folder).catch(() => [] as string[]);
    const name = names.find((entry) => pattern.test(entry));
    if (name) return join(folder, name);
  }
  return undefined;
}

describe('GET /v1/customers/payroll/template.csv for a WPS employer', () => {
  it("carries the WPS columns, with an example salary of one of the employer's own employees", async () => {
    const response = await fetch(`${world.server.baseUrl}/v1/customers/payroll/template.csv`, {
      headers: { Authorization: `Bearer ${await world.server.token(falcon.huda)}` },
    });
    expect(response.status).toBe(200);
    const [header, example] = (await response.text()).trim().split('\n');
    expect(header).toBe(
      `beneficiaryReference,beneficiaryId,amount,amountCurrencyType,purposeCode,payPeriodStart,payPeriodEnd,fixedAmount,variableAmount,leaveDays`,
    );
    expect(example).toBe('FALCON-EMP-001,,6500.00,PAYROLL,SAL,2026-11-01,2026-11-30,4000.00,2500.00,0');
  });
});

describe('the WPS ids of a beneficiary (createBeneficiary, getBeneficiary, updateBeneficiary)', () => {
  it('are kept, shown and removed with null', async () => {
    const huda = world.server.as(falcon.huda);
    const body = {
      type: 'INDIVIDUAL' as const,
      firstName: 'Omar',
      lastName: 'Farouk',
      nationality: 'EG',
      bankName: 'Emirates NBD',
      iban: 'AE070331234567890123456',
      labourCardPersonId: '00815012345661',
      wpsRoutingCode: '302620122',
    };
    const created = await huda.POST('/v1/customers/beneficiaries', { body });
    expect(created.response.status).toBe(201);
    expect(created.data!.data).toMatchObject({ labourCardPersonId: '00815012345661', wpsRoutingCode: '302620122' });
    const path = { params: { path: { beneficiaryId: created.data!.data.id } } };
    expect((await huda.GET('/v1/customers/beneficiaries/{beneficiaryId}', path)).data!.data.wpsRoutingCode).toBe('302620122');
    const cleared = await huda.PATCH('/v1/customers/beneficiaries/{beneficiaryId}', { ...path, body: { wpsRoutingCode: null } });
    expect(cleared.data!.data.wpsRoutingCode).toBeUndefined();
    expect(cleared.data!.data.labourCardPersonId).toBe('00815012345661');
    const refused = await huda.POST('/v1/customers/beneficiaries', { body: { ...body, wpsRoutingCode: '12345' } });
    expect(refused.response.status).toBe(400);
    expect(refused.error!.error).toMatchObject({ code: 'VALIDATION_ERROR', field: '/wpsRoutingCode' });
  });
});

describe('a WPS employer paying salaries in AED on the bank rail', () => {
  it('refuses a payroll missing a person id, a routing code or a WPS column, listing every missing field with its row', async () => {
    const csv = [
      HEADER,
      'FALCON-EMP-001,6500.00,PAYROLL,SAL,2026-11-01,2026-11-30,4000.00,2500.00,',
      'FALCON-EMP-003,2000.00,PAYROLL,SAL,2026-11-01,2026-11-30,2000.00,0,0',
    ].join('\n');
    const { error, response } = await createFromCsv(csv);
    expect(response.status).toBe(400);
    expect(error!.error).toMatchObject({ code: 'VALIDATION_ERROR', reason: 'WPS_FIELD_MISSING' });
    const details = error!.error.details!.map(({ row, field, entryIndex, reason }) => ({ row, field, entryIndex, reason }));
    expect(details).toEqual([
      { row: 2, entryIndex: 0, field: '/amountSplitDetails/0/wps/leaveDays', reason: 'WPS_FIELD_MISSING' },
      { row: 3, entryIndex: 1, field: '/amountSplitDetails/1/beneficiary/labourCardPersonId', reason: 'WPS_FIELD_MISSING' },
      { row: 3, entryIndex: 1, field: '/amountSplitDetails/1/beneficiary/wpsRoutingCode', reason: 'WPS_FIELD_MISSING' },
    ]);
  });

  it("refuses a JSON payroll without its entries' wps details, each field named", async () => {
    const huda = world.server.as(falcon.huda);
    const entries = [{ beneficiaryId: falcon.ravi, amount: '6500.00', amountCurrencyType: 'PAYROLL' as const }];
    const estimate = await huda.POST('/v1/customers/payroll/estimate', { body: { ...accounts, amountSplitDetails: entries } });
    const body = { ...accounts, feeHash: estimate.data!.data.feeHash, amountSplitDetails: entries.map((entry) => ({ ...entry, purposeCode: 'SAL' as const })) };
    const { error, response } = await huda.POST('/v1/customers/payroll/requests', { body });
    expect(response.status).toBe(400);
    expect(error!.error.details!.map((detail) => detail.field)).toEqual(
      ['payPeriodStart', 'payPeriodEnd', 'fixedAmount', 'variableAmount', 'leaveDays'].map((field) => `/amountSplitDetails/0/wps/${field}`),
    );
  });

  it("writes the SIF beside the pain.001, as the layout says and with the payments' totals; the agent acknowledges it and a refund comes back exactly", async () => {
    const csv = [
      HEADER,
      'FALCON-EMP-001,6500.00,PAYROLL,SAL,2026-11-01,2026-11-30,4000.00,2500.00,0',
      'FALCON-EMP-002,3200.50,PAYROLL,SAL,2026-11-01,2026-11-30,3000.00,200.50,2',
    ].join('\r\n');
    const created = await createFromCsv(csv);
    expect(created.response.status, JSON.stringify(created.error)).toBe(201);
    const requestId = created.data!.data.id;
    const { server } = world;
    const path = { params: { path: { requestId } } };
    const expiresAt = new Date(server.clock.now().getTime() + 3600_000).toISOString();
    const quoted = await server.as(admin).POST('/v1/admin/payroll/requests/{requestId}/quote', { ...path, body: { exchangeRate: '3.6530', expiresAt } });
    expect(quoted.response.status).toBe(200);
    expect((await server.as(falcon.huda).POST('/v1/customers/payroll/requests/{requestId}/accept', path)).response.status).toBe(200);
    const fxRecorded = async () =>
      (await server.as(admin).POST('/v1/admin/payroll/requests/{requestId}/fx-exchange', { ...path, body: { exchangeRate: '3.6520' } })).response.status;
    await afterPasses('the FX exchange recorded', fxRecorded, (status) => status === 200);

    // Both files, each written once: the pain.001 and the SIF named by the establishment id and the time.
    const sifPath = await afterPasses(
      'the salary file written',
      () => outboxFile(/^1000000123456\d{12}\.SIF$/),
      (found) => found !== undefined,
    );
    expect((await stat(sifPath!)).mode & 0o777).toBe(0o600);
    const sif = await readFile(sifPath!, 'utf8');
    const name = sifPath!.split('/').at(-1)!;
    const [, yy, mm, dd, hh, mi] = /^1000000123456(\d{2})(\d{2})(\d{2})(\d{2})(\d{2})\d{2}\.SIF$/.exec(name)!;
    const golden = await readFile(new URL('../../fixtures/wps/falcon-payroll.SIF.golden', import.meta.url), 'utf8');
    const expected = golden.replace('<DATE>', `20${yy}-${mm}-${dd}`).replace('<HHMM>', `${hh}${mi}`).replace(/\n/g, '\r\n');
    expect(sif).toBe(expected);

    const request = await readRequest(server, requestId, falcon.huda);
    const payouts = request.transfers.filter((transfer) => transfer.transferType === 'BANK_TO_BENEFICIARY');
    const paid = payouts.reduce((total, payout) => total.plus(payout.amount), new Decimal(0));
    // This file's only payment file (the refused payrolls above wrote none).
    const pain001 = await outboxFile(/^[0-9a-f]{32}\.xml$/);
    const header = child(child(child(parseXml(await readFile(pain001!, 'utf8')), 'Document'), 'CstmrCdtTrfInitn'), 'GrpHdr');
    expect(new Decimal(text(header, 'CtrlSum')!).equals(paid)).toBe(true);
    expect(new Decimal(sif.split('\r\n')[2]!.split(',')[7]!).equals(paid)).toBe(true);

    // The agent's acknowledgement, applied (processed/, not rejected/).
    const acknowledged = async () => (await readdir(join(world.inbox, 'processed')).catch(() => [] as string[])).includes(name.replace(/\.SIF$/, '.ACK.wps'));
    await afterPasses('the acknowledgement applied', acknowledged, (done) => done);
    // The operator sees the salary file with its payment file: its figures, digest and the agent's answer.
    const batches = (await server.as(admin).GET('/v1/admin/bank/batches', { params: { query: { limit: 100 } } })).data!.data.items;
    const batch = batches.find((item) => item.payrollRequestId === requestId)!;
    expect(batch.salaryFile).toMatchObject({ fileName: name, edrCount: 2, total: '9700.50', agentStatus: 'ACCEPTED' });
    expect(batch.salaryFile!.sha256).toBe(createHash('sha256').update(sif, 'utf8').digest('hex'));
    expect(new Decimal(batch.amount).equals(batch.salaryFile!.total)).toBe(true);

    // Maria's salary refunded (person id 99…): her payout RETURNED with the refund code, exactly her salary.
    const maria = async () => {
      const read = await readRequest(server, requestId, falcon.huda);
      return read.transfers.find((transfer) => transfer.transferType === 'BANK_TO_BENEFICIARY' && transfer.payoutInstruction?.beneficiaryId === falcon.maria);
    };
    const returned = await afterPasses('the refund applied', maria, (payout) => payout?.status === 'RETURNED');
    expect(returned!.bankReturn).toMatchObject({ reasonCode: 'AC04', amount: '3200.50', charges: '0.00' });
    const ravi = (await readRequest(server, requestId, falcon.huda)).transfers.find((transfer) => transfer.payoutInstruction?.beneficiaryId === falcon.ravi);
    expect(ravi!.status).toBe('COMPLETED');
    await expectLedgerZeroPerCurrency();
    expect(await readdir(join(world.inbox, 'rejected')).catch(() => [])).toEqual([]);

    // The refund file dropped again changes nothing: the salary is credited back once.
    const postings = async () => (await world.server.db.query<{ count: number }>('SELECT count(*)::int AS count FROM postings'))[0]!.count;
    const before = await postings();
    const refund = (await readdir(join(world.inbox, 'processed'))).find((entry) => entry.endsWith('.FDR.wps'))!;
    await copyFile(join(world.inbox, 'processed', refund), join(world.inbox, 'again.wps'));
    await afterPasses(
      'the refund dropped again handled',
      () => readdir(world.inbox),
      (names) => !names.includes('again.wps'),
    );
    expect(await postings()).toBe(before);
    expect(await readdir(join(world.inbox, 'rejected')).catch(() => [])).toEqual([]);
    expect((await maria())!.bankReturn).toEqual(returned!.bankReturn);
  }, 180_000);
});

/** Every currency's postings sum to zero (each entry balanced), and every balance is the ledger's. */
async function expectLedgerZeroPerCurrency(): Promise<void> {
  const sums = await world.server.db.query<{ currency: string; total: string }>(
    'SELECT currency_code AS currency, sum(amount)::text AS total FROM postings GROUP BY currency_code',
  );
  expect(sums.length).toBeGreaterThan(0);
  for (const { currency, total } of sums) expect(new Decimal(total).isZero(), `${currency} postings sum to ${total}`).toBe(true);
  await expectBooksBalanced(world.server.db);
}
