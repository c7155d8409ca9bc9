// The monthly run prepared ahead, on the demo world's AED calendar: a template paid on the last
// business day produces, on schedule (the test clock, a worker pass), a draft request with its pay
// date awaiting a second person's approval; nothing is debited before that approval.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { components } from '../../generated/api.js';
import type { ExecutionDeps } from '../../src/usecases/payroll/execution.js';
import { demoWorld } from '../support/globalSetupTemplates.js';
import { readRequest } from '../support/payroll.js';
import { type TestServer, startTestServer } from '../support/server.js';
import { drain, workerFor } from '../support/worker.js';

type PayrollTemplate = components['schemas']['PayrollTemplate'];

const demo = {
  dana: '7b1e0003-0000-4000-8000-000000000001',
  rania: '7b1e0003-0000-4000-8000-000000000004',
  admin: '7b1e0003-0000-4000-8000-000000000003',
  acmeUsd: '7b1e0005-0000-4000-8000-000000000001',
  partnerAed: '7b1e0005-0000-4000-8000-000000000004',
  priya: '7b1e0006-0000-4000-8000-000000000001',
  mohammed: '7b1e0006-0000-4000-8000-000000000002',
};

const body = {
  name: 'Monthly salaries',
  sourceAccountCurrencyId: demo.acmeUsd,
  payrollAccountCurrencyId: demo.partnerAed,
  amountSplitDetails: [
    { beneficiaryId: demo.priya, amount: '1000.00', purposeCode: 'SAL' as const },
    { beneficiaryId: demo.mohammed, amount: '1500.50', purposeCode: 'SAL' as const },
  ],
  payDateRule: { kind: 'LAST_BUSINESS_DAY' as const },
  draftLeadDays: 2,
};

// Thursday 31 December 2026 is December's last business day. Its approve-by is three business
// days before, Monday 28th at the bank's 15:00 cut-off in Dubai; its draft two business days
// before that day, Thursday 24th at the bank's midnight (20:00 UTC the day before).
const DECEMBER_RUN = { payDate: '2026-12-31', draftAt: '2026-12-23T20:00:00.000Z', approveBy: '2026-12-28T11:00:00.000Z', payrollRequestId: null };

function moveClockTo(server: TestServer, at: string): void {
  server.clock.advance((Date.parse(at) - server.clock.now().getTime()) / 1000);
}

describe('payroll templates', () => {
  let server: TestServer;
  let worker: ExecutionDeps;
  let template: PayrollTemplate;

  beforeAll(async () => {
    server = await startTestServer({ world: demoWorld() });
    moveClockTo(server, '2026-11-26T06:00:00.000Z');
    worker = workerFor(server);
  });
  afterAll(() => server?.close());

  const list = async (userId = demo.dana) => {
    const listed = await server.as(userId).GET('/v1/customers/payroll/templates');
    expect(listed.response.status, JSON.stringify(listed.error)).toBe(200);
    return listed.data!.data.items;
  };
  const balanceOf = async (accountCurrencyId: string) => {
    const accounts = await server.as(demo.dana).GET('/v1/customers/accounts');
    const currencies = accounts.data!.data.accounts.flatMap((account) => account.currencies);
    return currencies.find((currency) => currency.id === accountCurrencyId)!.available;
  };

  it('creates a template whose next run is the last business day, listed and editable', async () => {
    const created = await server.as(demo.dana).POST('/v1/customers/payroll/templates', { body });
    expect(created.response.status, JSON.stringify(created.error)).toBe(201);
    template = created.data!.data;
    expect(template).toMatchObject({ name: 'Monthly salaries', payDateRule: { kind: 'LAST_BUSINESS_DAY' }, draftLeadDays: 2, lastRun: null });
    expect(template.nextRun).toEqual(DECEMBER_RUN);
    expect(template.amountSplitDetails).toEqual(body.amountSplitDetails.map((entry) => ({ ...entry, amountCurrencyType: 'SOURCE' })));
    expect((await list()).map((t) => t.id)).toEqual([template.id]);
    // Another customer's user sees none of it.
    expect(await list('7b1e0003-0000-4000-8000-000000000002')).toEqual([]);

    const path = { params: { path: { templateId: template.id } } };
    const earlier = await server.as(demo.dana).PATCH('/v1/customers/payroll/templates/{templateId}', { ...path, body: { draftLeadDays: 3 } });
    expect(earlier.response.status, JSON.stringify(earlier.error)).toBe(200);
    expect(earlier.data!.data.nextRun).toEqual({ ...DECEMBER_RUN, draftAt: '2026-12-22T20:00:00.000Z' });
    const back = await server.as(demo.dana).PATCH('/v1/customers/payroll/templates/{templateId}', { ...path, body: { draftLeadDays: 2, name: 'Salaries' } });
    expect(back.data!.data).toMatchObject({ name: 'Salaries', nextRun: DECEMBER_RUN });
  });

  it('refuses a rule without its day, a beneficiary twice and another customer', async () => {
    const dana = server.as(demo.dana);
    const noDay = await dana.POST('/v1/customers/payroll/templates', { body: { ...body, payDateRule: { kind: 'DAY_OF_MONTH' } } });
    expect(noDay.response.status).toBe(400);
    expect(noDay.error!.error).toMatchObject({ code: 'VALIDATION_ERROR', field: '/payDateRule/dayOfMonth' });
    const twice = await dana.POST('/v1/customers/payroll/templates', {
      body: { ...body, amountSplitDetails: [body.amountSplitDetails[0]!, body.amountSplitDetails[0]!] },
    });
    expect(twice.error!.error).toMatchObject({ code: 'VALIDATION_ERROR', entryIndex: 1 });
    const foreign = await server.as('7b1e0003-0000-4000-8000-000000000002').PATCH('/v1/customers/payroll/templates/{templateId}', {
      params: { path: { templateId: template.id } },
      body: { name: 'Mine' },
    });
    expect(foreign.response.status).toBe(404);
  });

  it('produces, on schedule, a draft request with the pay date awaiting another approver', async () => {
    const available = await balanceOf(demo.acmeUsd);
    // A minute before the draft's moment: nothing yet.
    moveClockTo(server, '2026-12-23T19:59:00.000Z');
    await drain(worker);
    expect((await list())[0]!.lastRun).toBeNull();

    moveClockTo(server, DECEMBER_RUN.draftAt);
    await drain(worker);
    const [after] = await list();
    expect(after!.lastRun).toMatchObject({ payDate: '2026-12-31', draftAt: DECEMBER_RUN.draftAt, approveBy: DECEMBER_RUN.approveBy });
    expect(after!.nextRun.payDate).toBe('2027-01-29'); // January's 31st is a Sunday
    const requestId = after!.lastRun!.payrollRequestId!;
    const draft = await readRequest(server, requestId, demo.dana);
    expect(draft).toMatchObject({ status: 'AWAITING_APPROVAL', payDate: '2026-12-31', schedule: { approveBy: DECEMBER_RUN.approveBy } });
    expect(draft.approval).toMatchObject({ required: true });
    expect(draft.amountSplitDetails.map((split) => [split.beneficiaryId, split.purposeCode])).toEqual([
      [demo.priya, 'SAL'],
      [demo.mohammed, 'SAL'],
    ]);
    // Nothing debited while it awaits approval; another pass drafts nothing more.
    expect(await balanceOf(demo.acmeUsd)).toBe(available);
    await drain(worker);
    const runs = await server.db.query<{ n: number }>('SELECT count(*)::int AS n FROM payroll_template_runs WHERE template_id = $1', [template.id]);
    expect(runs[0]!.n).toBe(1);

    // Four-eyes: the template's author cannot approve its draft; another approver does.
    const path = { params: { path: { requestId } } };
    const self = await server.as(demo.dana).POST('/v1/customers/payroll/requests/{requestId}/approve', path);
    expect(self.response.status).toBe(403);
    const approved = await server.as(demo.rania).POST('/v1/customers/payroll/requests/{requestId}/approve', path);
    expect(approved.response.status, JSON.stringify(approved.error)).toBe(200);
    expect(approved.data!.data.status).toBe('PENDING');
  });
});
