// A payroll on the partner bank's calendar, on the demo world (the AED bank: Monday to Friday in Gulf
// time, UAE holidays, 1 and 3 December 2026 added as announced): a pay date five business days
// ahead answers its schedule; accepted, the request waits, then executes on its fund-by day so
// that the bank pays on the pay date (the simulated bank holds the payouts until then; with
// BANK_RAIL=iso20022 the payment file's ReqdExctnDt is the pay date). Time moves on the test clock.
import { mkdtemp, readFile, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { answerPaymentFile } from '../../src/adapters/bank/iso20022/bankSimulator.js';
import { child, children, parseXml, text } from '../../src/adapters/bank/iso20022/xml.js';
import { buildWorker } from '../../src/composition/worker.js';
import { loadConfig } from '../../src/config/config.js';
import { createLogger } from '../../src/observability/logger.js';
import type { ExecutionDeps } from '../../src/usecases/payroll/execution.js';
import { demoWorld } from '../support/globalSetupTemplates.js';
import { type PayrollRequest, estimateAndCreate, payrollBodies, readRequest } from '../support/payroll.js';
import { type TestServer, startTestServer } from '../support/server.js';
import { drain } from '../support/worker.js';
import { waitFor } from '../support/polling.js';
import { type Listening, listen } from '../support/http.js';
import { registerWebhookEndpoint } from '../support/builders.js';

const demo = {
  dana: '7b1e0003-0000-4000-8000-000000000001',
  acmeFireblocks: '7b1e0004-0000-4000-8000-000000000001',
  admin: '7b1e0003-0000-4000-8000-000000000003',
  acmeUsd: '7b1e0005-0000-4000-8000-000000000001',
  partnerAed: '7b1e0005-0000-4000-8000-000000000004',
  priya: '7b1e0006-0000-4000-8000-000000000001',
  mohammed: '7b1e0006-0000-4000-8000-000000000002',
};
const accounts = { sourceAccountCurrencyId: demo.acmeUsd, payrollAccountCurrencyId: demo.partnerAed };
const entries = [
  { beneficiaryId: demo.priya, amount: '1000', purposeCode: 'SAL' as const },
  { beneficiaryId: demo.mohammed, amount: '1500.50', purposeCode: 'SAL' as const },
];

// Thursday 26 November 2026, 10:00 in Dubai. Five business days on: Friday 27, Monday 30, then
// 1 December (added), 2 (National Day), 3 (added) are skipped: Friday 4, Monday 7, Tuesday 8.
const THURSDAY = '2026-11-26T06:00:00.000Z';
const PAY_DATE = '2026-12-08';
const SCHEDULE = {
  payDate: PAY_DATE,
  timeZone: 'Asia/Dubai',
  approveBy: '2026-11-30T11:00:00.000Z',
  quoteBy: '2026-12-04T11:00:00.000Z',
  acceptBy: '2026-12-07T11:00:00.000Z',
  fundBy: '2026-12-07T11:00:00.000Z',
  instructBy: '2026-12-07T11:00:00.000Z',
};

function moveClockTo(server: TestServer, at: string): void {
  server.clock.advance((Date.parse(at) - server.clock.now().getTime()) / 1000);
}

/** Create with a pay date, quote and accept: the request is QUOTE_ACCEPTED. */
async function acceptedWithPayDate(server: TestServer, worker: ExecutionDeps): Promise<string> {
  const dana = server.as(demo.dana);
  const bodies = payrollBodies(entries, accounts);
  const estimated = await dana.POST('/v1/customers/payroll/estimate', { body: { ...bodies.estimate, payDate: PAY_DATE } });
  expect(estimated.response.status, JSON.stringify(estimated.error)).toBe(200);
  expect(estimated.data!.data.schedule).toEqual(SCHEDULE);
  const created = await dana.POST('/v1/customers/payroll/requests', { body: { ...bodies.create(estimated.data!.data.feeHash), payDate: PAY_DATE } });
  expect(created.response.status, JSON.stringify(created.error)).toBe(201);
  const requestId = created.data!.data.id;
  expect(created.data!.data).toMatchObject({ payDate: PAY_DATE, schedule: SCHEDULE });
  const path = { params: { path: { requestId } } };
  const expiresAt = new Date(server.clock.now().getTime() + 3600_000).toISOString();
  const quoted = await server.as(demo.admin).POST('/v1/admin/payroll/requests/{requestId}/quote', { ...path, body: { exchangeRate: '3.6530', expiresAt } });
  expect(quoted.response.status).toBe(200);
  expect((await dana.POST('/v1/customers/payroll/requests/{requestId}/accept', path)).response.status).toBe(200);
  await drain(worker);
  expect((await readRequest(server, requestId, demo.dana)).status).toBe('QUOTE_ACCEPTED');
  return requestId;
}

/** The fund-by day begins (Monday 7 December, 00:00 in Dubai): the request executes, the FX desk records its exchange. */
async function executeOnFundByDay(server: TestServer, worker: ExecutionDeps, requestId: string): Promise<PayrollRequest> {
  moveClockTo(server, '2026-12-06T19:59:00.000Z');
  await drain(worker);
  expect((await readRequest(server, requestId, demo.dana)).status).toBe('QUOTE_ACCEPTED');
  moveClockTo(server, '2026-12-06T21:00:00.000Z');
  await drain(worker);
  const path = { params: { path: { requestId } } };
  const recorded = await server.as(demo.admin).POST('/v1/admin/payroll/requests/{requestId}/fx-exchange', { ...path, body: { exchangeRate: '3.6520' } });
  expect(recorded.response.status, JSON.stringify(recorded.error)).toBe(200);
  await drain(worker);
  return readRequest(server, requestId, demo.dana);
}

describe('a payroll with a pay date (simulated bank)', () => {
  let server: TestServer;
  let worker: ExecutionDeps;

  beforeAll(async () => {
    server = await startTestServer({ world: demoWorld() });
    moveClockTo(server, THURSDAY);
    worker = buildWorker(loadConfig({ NODE_ENV: 'test', SIMULATED_SETTLEMENT_MS: '0' }), server.db, createLogger('silent'), server.clock.now).deps;
  });
  afterAll(() => server?.close());

  it('refuses a pay date on a holiday or past its cut-off, naming the nearest possible date', async () => {
    const dana = server.as(demo.dana);
    const { estimate } = payrollBodies(entries, accounts);
    // 3 December: a holiday (and before the earliest possible date, Friday 4).
    const holiday = await dana.POST('/v1/customers/payroll/estimate', { body: { ...estimate, payDate: '2026-12-03' } });
    expect(holiday.response.status).toBe(400);
    expect(holiday.error!.error).toMatchObject({ code: 'VALIDATION_ERROR', reason: 'PAY_DATE_NOT_BUSINESS_DAY', field: '/payDate' });
    expect(holiday.error!.error.details![0]!.nearestPayDate).toBe('2026-12-04');
    // Friday 27 November, a business day: its approve-by (3 business days before, at the 15:00 cut-off) is past.
    const tooSoon = await dana.POST('/v1/customers/payroll/estimate', { body: { ...estimate, payDate: '2026-11-27' } });
    expect(tooSoon.error!.error).toMatchObject({ code: 'VALIDATION_ERROR', reason: 'PAY_DATE_TOO_SOON', field: '/payDate' });
    expect(tooSoon.error!.error.details![0]!.nearestPayDate).toBe('2026-12-04');
    // The creation refuses it too, and the feeHash stays unused.
    // Without a pay date: no schedule, as soon as possible, as before.
    const { estimate: made, created } = await estimateAndCreate(dana, entries, { accounts });
    expect(made.schedule).toBeUndefined();
    expect(created.data!.data.payDate).toBeUndefined();
    expect(created.data!.data.schedule).toBeUndefined();
    const again = await dana.POST('/v1/customers/payroll/estimate', { body: estimate });
    const refused = await dana.POST('/v1/customers/payroll/requests', {
      body: { ...payrollBodies(entries, accounts).create(again.data!.data.feeHash), payDate: '2026-12-05' },
    });
    expect(refused.error!.error).toMatchObject({ reason: 'PAY_DATE_NOT_BUSINESS_DAY' });
    expect(refused.error!.error.details![0]!.nearestPayDate).toBe('2026-12-04');
    const retried = await dana.POST('/v1/customers/payroll/requests', {
      body: { ...payrollBodies(entries, accounts).create(again.data!.data.feeHash), payDate: PAY_DATE },
    });
    expect(retried.response.status).toBe(201);
  });

  it('takes the pay date of a CSV file as a query parameter, for the estimate and the creation', async () => {
    const csv = ['beneficiaryReference,beneficiaryId,amount,amountCurrencyType,purposeCode', `,${demo.priya},1000,SOURCE,SAL`].join('\n');
    const csvInit = (query: Record<string, string>) => ({
      body: csv,
      params: { query: { ...accounts, ...query } },
      headers: { 'Content-Type': 'text/csv' },
      bodySerializer: (text: unknown) => String(text),
    });
    const dana = server.as(demo.dana);
    const estimated = await dana.POST('/v1/customers/payroll/estimate', csvInit({ payDate: PAY_DATE }));
    expect(estimated.response.status, JSON.stringify(estimated.error)).toBe(200);
    expect(estimated.data!.data.schedule).toEqual(SCHEDULE);
    const holiday = await dana.POST('/v1/customers/payroll/requests', csvInit({ feeHash: estimated.data!.data.feeHash, payDate: '2026-12-03' }));
    expect(holiday.error!.error).toMatchObject({ code: 'VALIDATION_ERROR', reason: 'PAY_DATE_NOT_BUSINESS_DAY' });
    const created = await dana.POST('/v1/customers/payroll/requests', csvInit({ feeHash: estimated.data!.data.feeHash, payDate: PAY_DATE }));
    expect(created.response.status, JSON.stringify(created.error)).toBe(201);
    expect(created.data!.data).toMatchObject({ payDate: PAY_DATE, schedule: SCHEDULE });
    // With a JSON body the pay date goes in the body: the query parameter is refused, not ignored.
    const json = await dana.POST('/v1/customers/payroll/estimate', {
      body: payrollBodies(entries, accounts).estimate,
      params: { query: { payDate: PAY_DATE } },
    });
    expect(json.error!.error).toMatchObject({ code: 'VALIDATION_ERROR', field: 'payDate' });
  });

  it('names the pay date in the admin list and the customer list, absent without one', async () => {
    const listed = await server.as(demo.admin).GET('/v1/admin/payroll/requests', { params: { query: { limit: 100 } } });
    expect(listed.response.status, JSON.stringify(listed.error)).toBe(200);
    const items = listed.data!.data.items;
    expect(items.filter((item) => item.payDate === PAY_DATE).length).toBeGreaterThan(0);
    const withoutPayDate = items.filter((item) => !('payDate' in item));
    expect(withoutPayDate.length).toBeGreaterThan(0);
    const mine = await server.as(demo.dana).GET('/v1/customers/payroll/requests', { params: { query: { limit: 100 } } });
    expect(mine.data!.data.items.filter((item) => item.payDate === PAY_DATE).map((item) => item.id)).toEqual(
      items.filter((item) => item.payDate === PAY_DATE).map((item) => item.id),
    );
  });

  it('waits once accepted, executes on its fund-by day and every payout completes on the pay date', async () => {
    const requestId = await acceptedWithPayDate(server, worker);
    const executing = await executeOnFundByDay(server, worker, requestId);
    expect(executing.status).toBe('PAYOUT_INITIATED');
    const payouts = () => executing.transfers.filter((transfer) => transfer.transferType === 'BANK_TO_BENEFICIARY');
    expect(payouts()).toHaveLength(2);
    // The bank holds them until the pay date begins on its clock (00:00 in Dubai is 20:00 UTC the day before).
    moveClockTo(server, '2026-12-07T19:59:00.000Z');
    await drain(worker);
    expect((await readRequest(server, requestId, demo.dana)).status).toBe('PAYOUT_INITIATED');
    moveClockTo(server, '2026-12-08T05:00:00.000Z');
    await drain(worker);
    const done = await readRequest(server, requestId, demo.dana);
    expect(done.status).toBe('COMPLETED');
    const paid = done.transfers.filter((transfer) => transfer.transferType === 'BANK_TO_BENEFICIARY');
    expect(paid.map((payout) => payout.status)).toEqual(['COMPLETED', 'COMPLETED']);
    const dubaiDay = (at: string) => new Date(Date.parse(at) + 4 * 3600_000).toISOString().slice(0, 10);
    for (const payout of paid) expect(dubaiDay(payout.completedAt!)).toBe(PAY_DATE);
    expect(done).toMatchObject({ payDate: PAY_DATE, schedule: SCHEDULE });
  });
});

describe('a payroll with a pay date (BANK_RAIL=iso20022)', () => {
  let server: TestServer;
  let worker: ExecutionDeps;
  let dir: string;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'pay-date-files-'));
    server = await startTestServer({ world: demoWorld() });
    moveClockTo(server, THURSDAY);
    const config = loadConfig({
      NODE_ENV: 'test',
      BANK_RAIL: 'iso20022',
      BANK_OUTBOX_DIR: join(dir, 'outbox'),
      BANK_INBOX_DIR: join(dir, 'inbox'),
      SIMULATED_SETTLEMENT_MS: '0',
    });
    worker = buildWorker(config, server.db, createLogger('silent'), server.clock.now).deps;
  });
  afterAll(async () => {
    await server?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('writes the payment file on the fund-by day with ReqdExctnDt the pay date', async () => {
    const requestId = await acceptedWithPayDate(server, worker);
    expect(await readdir(join(dir, 'outbox')).catch(() => [])).toEqual([]);
    await executeOnFundByDay(server, worker, requestId);
    const files = (await readdir(join(dir, 'outbox'))).filter((name) => name.endsWith('.xml'));
    expect(files).toHaveLength(1);
    const xml = await readFile(join(dir, 'outbox', files[0]!), 'utf8');
    const [paymentInformation] = children(child(child(parseXml(xml), 'Document'), 'CstmrCdtTrfInitn'), 'PmtInf');
    expect(text(child(paymentInformation, 'ReqdExctnDt'), 'Dt')).toBe(PAY_DATE);
    // The simulated bank (npm run bank-simulator) accepts it at once and pays it when the pay date begins in Dubai.
    const answer = await answerPaymentFile(xml, () => false, server.clock.now());
    expect(answer.accepted).toBe(true);
    expect(answer.settlesNotBefore?.toISOString()).toBe('2026-12-07T20:00:00.000Z');
  });
});

describe('deadline events of a payroll with a pay date', () => {
  let server: TestServer;
  let worker: ExecutionDeps;
  let receiver: Listening;
  const bodies: string[] = [];

  beforeAll(async () => {
    server = await startTestServer({ world: demoWorld() });
    moveClockTo(server, THURSDAY);
    worker = buildWorker(loadConfig({ NODE_ENV: 'test', SIMULATED_SETTLEMENT_MS: '0' }), server.db, createLogger('silent'), server.clock.now).deps;
    receiver = await listen((req, res) => {
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk.toString()));
      req.on('end', () => {
        bodies.push(body);
        res.writeHead(204).end();
      });
    });
  });
  afterAll(async () => {
    await receiver?.close();
    await server?.close();
  });

  /**
   * Worker passes, the clock a minute on after each (a delivery that failed on a loaded host is
   * retried after its backoff), until `count` deadline events have been delivered.
   */
  const deliveredAfterPasses = (count: number) =>
    waitFor(
      `${count} deadline events delivered`,
      async () => {
        await drain(worker);
        const events = delivered();
        if (events.length < count) server.clock.advance(60);
        return events;
      },
      (events) => events.length >= count,
      { deadlineMs: 60_000, everyMs: 20 },
    );

  /** The deadline events delivered so far, deduplicated by id. */
  const delivered = () => [
    ...new Map(bodies.map((body) => JSON.parse(body) as { id: string; type: string; data: Record<string, unknown> }).map((e) => [e.id, e])).values(),
  ];

  it('announces the deadline a request waits on as it approaches and when it passes, once each, and never moves the pay date', async () => {
    const dana = server.as(demo.dana);
    await registerWebhookEndpoint(dana, `${receiver.url}/hooks`, ['payroll_request.deadline_approaching', 'payroll_request.deadline_missed']);
    const { estimate, create } = payrollBodies(entries, accounts);
    const estimated = await dana.POST('/v1/customers/payroll/estimate', { body: { ...estimate, payDate: PAY_DATE } });
    const created = await dana.POST('/v1/customers/payroll/requests', { body: { ...create(estimated.data!.data.feeHash), payDate: PAY_DATE } });
    const requestId = created.data!.data.id;
    expect(created.data!.data.status).toBe('PENDING');

    // PENDING waits on quote-by (Friday 4 December, 11:00 UTC): nothing to say on Thursday 26 November.
    await drain(worker);
    expect(delivered()).toEqual([]);

    // 23 hours before it: approaching (PAYROLL_DEADLINE_WARNING_HOURS is 24).
    moveClockTo(server, '2026-12-03T12:00:00.000Z');
    expect(await deliveredAfterPasses(1)).toEqual([
      expect.objectContaining({
        type: 'payroll_request.deadline_approaching',
        data: { id: requestId, status: 'PENDING', deadline: 'quoteBy', dueAt: SCHEDULE.quoteBy, schedule: SCHEDULE },
      }),
    ]);

    // Past it, still PENDING: missed, once however many passes follow.
    moveClockTo(server, SCHEDULE.quoteBy);
    await deliveredAfterPasses(2);
    server.clock.advance(3600);
    await drain(worker);
    expect(delivered().map((event) => [event.type, event.data.deadline])).toEqual([
      ['payroll_request.deadline_approaching', 'quoteBy'],
      ['payroll_request.deadline_missed', 'quoteBy'],
    ]);

    // The events are in the log too, and the request keeps its pay date and status.
    // An event is listed once every transaction that began before it has ended, in the whole cluster
    // (other test files share the server): it may show up a moment after it was delivered.
    const listed = await waitFor(
      'the deadline_missed event listed',
      async () => (await dana.GET('/v1/customers/events', { params: { query: { limit: 10, type: ['payroll_request.deadline_missed'] } } })).data!.data.items,
      (items) => items.length > 0,
      { deadlineMs: 60_000, everyMs: 50 },
    );
    expect(listed.map((event) => event.data.id)).toEqual([requestId]);
    expect(await readRequest(server, requestId, demo.dana)).toMatchObject({ status: 'PENDING', payDate: PAY_DATE, schedule: SCHEDULE });
  });
});

describe('GET /v1/accounts/{accountId}/payouts/estimate on the partner bank calendar', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ world: demoWorld() });
  });
  afterAll(() => server?.close());

  it("counts the settlement days in the bank's business days: its holidays and weekend, in its time zone", async () => {
    const estimate = async () => {
      const { data, response } = await server.as(demo.dana).GET('/v1/accounts/{accountId}/payouts/estimate', {
        params: { path: { accountId: demo.acmeFireblocks }, query: { amount: '100', currency: 'USD', beneficiaryId: demo.priya } },
      });
      expect(response.status).toBe(200);
      return data!.data.estimatedDate;
    };
    // Wednesday 25 November, 09:00 in New York (before the 17:00 cut-off): two business days on are
    // Friday 27 (Thursday 26 is Thanksgiving) and Monday 30 (after the weekend).
    moveClockTo(server, '2026-11-25T14:00:00.000Z');
    expect(await estimate()).toBe('2026-11-30T14:00:00.000Z');
    // 17:30 in New York, past the cut-off: counted from Friday 27, so Monday 30 and Tuesday 1 December.
    moveClockTo(server, '2026-11-25T22:30:00.000Z');
    expect(await estimate()).toBe('2026-12-01T22:30:00.000Z');
  });
});
