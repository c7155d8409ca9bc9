/**
 * Four-eyes approval: a customer who requires approval creates payroll requests that
 * wait in AWAITING_APPROVAL with nothing debited, until another user of the customer with the
 * approver permission approves (debit, → PENDING) or rejects (→ CANCELLED) them. Customer A of the
 * test world opts in through the admin endpoint; userA has no permission, userA2Approver and
 * userA3Approver hold it. On the embedded database and, with TEST_DATABASE_URL, on PostgreSQL.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { components } from '../../generated/api.js';
import { Money } from '../../src/domain/money/money.js';
import { ids } from '../fixtures/world.js';
import { balancesOf, expectBooksBalanced } from '../support/balances.js';
import { waitFor } from '../support/polling.js';
import { type PayrollEntry, type PayrollRequest, accept, cancel, estimateAndCreate, noApproval, quote, readRequest, recordFx } from '../support/payroll.js';
import { type TestServer, startTestServer } from '../support/server.js';
import { drain, workerFor } from '../support/worker.js';

type Event = components['schemas']['WebhookEvent'];

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
  await setApproval(true);
});
afterAll(() => server?.close());

const creator = () => server.as(ids.userA);
const available = async () => (await balancesOf(server.db, ids.acAUsd)).available;
const balance = async () => (await balancesOf(server.db, ids.acAUsd)).balance;

function setApproval(requiresPayrollApproval: boolean, userId: string = ids.admin, customerId: string = ids.customerA) {
  return server.as(userId).PATCH('/v1/admin/customers/{customerId}/settings', { params: { path: { customerId } }, body: { requiresPayrollApproval } });
}

const approve = (requestId: string, userId: string, idempotencyKey?: string) =>
  server.as(userId).POST('/v1/customers/payroll/requests/{requestId}/approve', {
    params: { path: { requestId } },
    ...(idempotencyKey && { idempotencyKey }),
  });

const reject = (requestId: string, userId: string, reason = 'Amounts need a second look') =>
  server.as(userId).POST('/v1/customers/payroll/requests/{requestId}/reject', { params: { path: { requestId } }, body: { reason } });

/** Creates a request (by userA unless told) that must come back AWAITING_APPROVAL. */
async function createAwaiting(entries: PayrollEntry[] = [{ beneficiaryId: ids.beneficiaryA1, amount: '100.00' }], userId: string = ids.userA) {
  const result = await estimateAndCreate(server.as(userId), entries);
  expect(result.created.response.status, JSON.stringify(result.created.error)).toBe(201);
  const request = result.created.data!.data;
  expect(request.status).toBe('AWAITING_APPROVAL');
  return { ...result, request };
}

/** The request's payroll_request.status_changed events, oldest first, as listEvents serves them. */
async function eventsOf(requestId: string, expected: number): Promise<PayrollRequest[]> {
  // Events show once every older transaction has ended (listEvents): on the shared test server another file's long transaction can hold them back for a while.
  const mine = async () => {
    const found: Event[] = [];
    let cursor: string | undefined;
    for (;;) {
      const { data } = await creator().GET('/v1/customers/events', {
        params: { query: { limit: 100, type: ['payroll_request.status_changed'], ...(cursor && { cursor }) } },
      });
      found.push(...data!.data.items);
      cursor = data!.data.nextCursor;
      if (!data!.data.hasMore) break;
    }
    return found.map((event) => event.data as PayrollRequest).filter((request) => request.id === requestId);
  };
  return waitFor(`${expected} events of ${requestId}`, mine, (events) => events.length >= expected, { deadlineMs: 60_000, everyMs: 50 });
}

describe('PATCH /v1/admin/customers/{customerId}/settings', () => {
  it('answers the setting and the approvers; customers, unknown customers and empty bodies are refused', async () => {
    const answer = await setApproval(true);
    expect(answer.response.status, JSON.stringify(answer.error)).toBe(200);
    expect(answer.data!.data).toEqual({
      customerId: ids.customerA,
      requiresPayrollApproval: true,
      approvers: [
        { id: ids.userA2Approver, firstName: 'Amira', lastName: 'Approver', email: 'amira@alpha.example' },
        { id: ids.userA3Approver, firstName: 'Adam', lastName: 'Checker', email: 'adam@alpha.example' },
      ],
    });
    const byCustomer = await setApproval(false, ids.userA);
    expect(byCustomer.response.status).toBe(403);
    expect(byCustomer.error?.error.code).toBe('FORBIDDEN');
    const unknown = await setApproval(true, ids.admin, '7e570002-0000-4000-8000-000000000099');
    expect(unknown.response.status).toBe(404);
    expect(unknown.error?.error.code).toBe('NOT_FOUND');
    const empty = await server.as(ids.admin).PATCH('/v1/admin/customers/{customerId}/settings', { params: { path: { customerId: ids.customerA } }, body: {} });
    expect(empty.response.status).toBe(400);
    expect(empty.error?.error.code).toBe('VALIDATION_ERROR');
  });

  it('toggles the behaviour: off, a request is PENDING and debited at once; on again, the next one waits', async () => {
    expect((await setApproval(false)).data!.data.requiresPayrollApproval).toBe(false);
    const before = await balance();
    const plain = await estimateAndCreate(creator(), [{ beneficiaryId: ids.beneficiaryA2, amount: '10.00' }]);
    expect(plain.created.response.status).toBe(201);
    expect(plain.created.data!.data.status).toBe('PENDING');
    expect(plain.created.data!.data.approval).toEqual(noApproval);
    expect(before.minus(await balance()).equals(plain.estimate.totalAmount)).toBe(true);
    expect((await setApproval(true)).data!.data.requiresPayrollApproval).toBe(true);
    const waiting = await createAwaiting([{ beneficiaryId: ids.beneficiaryA2, amount: '10.00' }]);
    // The request created before keeps its rule: it needs no approval.
    expect((await approve(plain.created.data!.data.id, ids.userA2Approver)).error?.error.code).toBe('INVALID_STATE');
    expect((await reject(waiting.request.id, ids.userA2Approver)).response.status).toBe(200);
  });
});

describe('POST /v1/customers/payroll/requests for a customer who requires approval', () => {
  it('creates the request AWAITING_APPROVAL: nothing debited, the feeHash consumed, the approvers shown', async () => {
    const before = await balancesOf(server.db, ids.acAUsd);
    const { request, feeHash, estimate } = await createAwaiting();
    expect(request.totalAmount).toBe(estimate.totalAmount);
    expect(request.approval).toEqual({
      required: true,
      approvers: [
        { id: ids.userA2Approver, firstName: 'Amira', lastName: 'Approver', email: 'amira@alpha.example' },
        { id: ids.userA3Approver, firstName: 'Adam', lastName: 'Checker', email: 'adam@alpha.example' },
      ],
      createdByUserId: ids.userA,
      approvedByUserId: null,
      approvedAt: null,
      rejectedByUserId: null,
      rejectedAt: null,
      rejectionReason: null,
    });
    const after = await balancesOf(server.db, ids.acAUsd);
    expect(after.balance.equals(before.balance) && after.available.equals(before.available)).toBe(true);
    expect(request.sourceAccountCurrency.available).toBe(before.available.toFixed(2));

    const again = await creator().POST('/v1/customers/payroll/requests', {
      body: {
        sourceAccountCurrencyId: ids.acAUsd,
        payrollAccountCurrencyId: ids.acPartnerAed,
        feeHash,
        amountSplitDetails: [{ beneficiaryId: ids.beneficiaryA1, amount: '100.00', purposeCode: 'SAL' }],
      },
    });
    expect(again.response.status).toBe(409);
    expect(again.error?.error.code).toBe('FEE_HASH_ALREADY_USED');
    // The creator is not listed among those who may approve a request an approver created.
    const byApprover = await createAwaiting([{ beneficiaryId: ids.beneficiaryA1, amount: '5.00' }], ids.userA2Approver);
    expect(byApprover.request.approval.approvers.map((user) => user.id)).toEqual([ids.userA3Approver]);
    expect((await cancel(server, byApprover.request.id, 'Not needed', ids.userA2Approver)).response.status).toBe(200);
    await expectBooksBalanced(server.db);
  });
});

describe('POST /v1/customers/payroll/requests/{requestId}/approve', () => {
  it('refuses the creator (even an approver) and a user without the permission with 403, saying why', async () => {
    const { request } = await createAwaiting([{ beneficiaryId: ids.beneficiaryA3, amount: '20.00' }], ids.userA2Approver);
    const self = await approve(request.id, ids.userA2Approver);
    expect(self.response.status).toBe(403);
    expect(self.error?.error).toEqual({ code: 'FORBIDDEN', message: expect.any(String), reason: 'SELF_APPROVAL' });
    const noPermission = await approve(request.id, ids.userA);
    expect(noPermission.response.status).toBe(403);
    expect(noPermission.error?.error).toMatchObject({ code: 'FORBIDDEN', reason: 'APPROVER_PERMISSION_REQUIRED' });
    const noPermissionReject = await reject(request.id, ids.userA);
    expect(noPermissionReject.response.status).toBe(403);
    expect(noPermissionReject.error?.error).toMatchObject({ code: 'FORBIDDEN', reason: 'APPROVER_PERMISSION_REQUIRED' });
    expect((await readRequest(server, request.id)).status).toBe('AWAITING_APPROVAL');
  });

  it('another approver approves: debited exactly the estimate total, PENDING, then quote → accept → COMPLETED', async () => {
    const { request, estimate } = await createAwaiting([
      { beneficiaryId: ids.beneficiaryA1, amount: '1000.00' },
      { beneficiaryId: ids.beneficiaryA2, amount: '500.00' },
    ]);
    const before = await balancesOf(server.db, ids.acAUsd);
    server.clock.advance(60);
    const approved = await approve(request.id, ids.userA2Approver, 'approve-once');
    expect(approved.response.status, JSON.stringify(approved.error)).toBe(200);
    const data = approved.data!.data;
    expect(data.status).toBe('PENDING');
    expect(data.approval.approvedByUserId).toBe(ids.userA2Approver);
    expect(data.approval.approvedAt).toBe(server.clock.now().toISOString());
    const after = await balancesOf(server.db, ids.acAUsd);
    expect(before.balance.minus(after.balance).equals(estimate.totalAmount)).toBe(true);
    expect(before.available.minus(after.available).equals(estimate.totalAmount)).toBe(true);
    // The same Idempotency-Key replays the answer and debits nothing more.
    const replay = await approve(request.id, ids.userA2Approver, 'approve-once');
    expect(replay.response.status).toBe(200);
    expect(replay.data!.data.approval.approvedAt).toBe(data.approval.approvedAt);
    expect((await balance()).equals(after.balance)).toBe(true);
    // Approved requests are not approvable again.
    const twice = await approve(request.id, ids.userA3Approver);
    expect(twice.response.status).toBe(409);
    expect(twice.error?.error.code).toBe('INVALID_STATE');

    expect((await quote(server, request.id)).response.status).toBe(200);
    expect((await accept(server, request.id)).response.status).toBe(200);
    await drain(workerFor(server));
    expect((await recordFx(server, request.id)).response.status).toBe(200);
    await drain(workerFor(server));
    const done = await readRequest(server, request.id);
    expect(done.status).toBe('COMPLETED');
    expect(done.approval.approvedByUserId).toBe(ids.userA2Approver);
    await expectBooksBalanced(server.db);
  });

  it('honours the locked figures when the approval comes after the feeHash expired', async () => {
    const { request, estimate } = await createAwaiting([{ beneficiaryId: ids.beneficiaryA4, amount: '250.00' }]);
    const [locked] = await server.db.query<{ expires_at: Date }>('SELECT expires_at FROM payroll_fee_estimates WHERE fee_hash = $1', [estimate.feeHash]);
    server.clock.advance(3600); // FEE_HASH_TTL_SECONDS is 900 in the tests
    expect(server.clock.now() > locked!.expires_at).toBe(true);
    const before = await balance();
    const approved = await approve(request.id, ids.userA3Approver);
    expect(approved.response.status, JSON.stringify(approved.error)).toBe(200);
    const data = approved.data!.data;
    expect(data.status).toBe('PENDING');
    expect(data.totalAmount).toBe(estimate.totalAmount);
    expect(data.metadata.feeBreakdown).toEqual(request.metadata.feeBreakdown);
    expect(data.estimatedFxRate).toBe(estimate.feeBreakdown.exchangeRate);
    expect(before.minus(await balance()).equals(estimate.totalAmount)).toBe(true);
  });

  it('INSUFFICIENT_FUNDS at approval leaves the request AWAITING_APPROVAL; once funds are back it is approved', async () => {
    const large = (await available()).minus(new Money('100000')).toFixed(2);
    const first = await createAwaiting([{ beneficiaryId: ids.beneficiaryA1, amount: large }]);
    const second = await createAwaiting([{ beneficiaryId: ids.beneficiaryA2, amount: large }]);
    expect((await approve(first.request.id, ids.userA2Approver)).response.status).toBe(200);
    const before = await balancesOf(server.db, ids.acAUsd);
    const short = await approve(second.request.id, ids.userA3Approver);
    expect(short.response.status).toBe(400);
    expect(short.error?.error.code).toBe('INSUFFICIENT_FUNDS');
    expect((await readRequest(server, second.request.id)).status).toBe('AWAITING_APPROVAL');
    const after = await balancesOf(server.db, ids.acAUsd);
    expect(after.balance.equals(before.balance) && after.available.equals(before.available)).toBe(true);
    // The first request is cancelled (its debit returns): the second can now be approved.
    expect((await cancel(server, first.request.id)).response.status).toBe(200);
    expect((await approve(second.request.id, ids.userA3Approver)).response.status).toBe(200);
    expect((await cancel(server, second.request.id)).response.status).toBe(200);
    await expectBooksBalanced(server.db);
  });

  it("another customer's request is NOT_FOUND, an admin is FORBIDDEN, an unknown id NOT_FOUND", async () => {
    const { request } = await createAwaiting([{ beneficiaryId: ids.beneficiaryA3, amount: '30.00' }]);
    const other = await approve(request.id, ids.userB);
    expect(other.response.status).toBe(404);
    expect(other.error?.error).toEqual({ code: 'NOT_FOUND', message: expect.any(String) });
    expect((await reject(request.id, ids.userB)).response.status).toBe(404);
    const admin = await approve(request.id, ids.admin);
    expect(admin.response.status).toBe(403);
    expect((await approve('7e570007-0000-4000-8000-000000000999', ids.userA2Approver)).response.status).toBe(404);
    expect((await readRequest(server, request.id)).status).toBe('AWAITING_APPROVAL');
  });

  it('two approvers approving at once: exactly one 200 and one 409, exactly one debit', async () => {
    for (let round = 0; round < 5; round++) {
      const { request, estimate } = await createAwaiting([{ beneficiaryId: ids.beneficiaryA5, amount: `${40 + round}.00` }]);
      const before = await balance();
      const results = await Promise.all([approve(request.id, ids.userA2Approver), approve(request.id, ids.userA3Approver)]);
      const statuses = results.map((result) => result.response.status).sort();
      expect(statuses, `round ${round}`).toEqual([200, 409]);
      expect(results.find((result) => result.response.status === 409)!.error?.error.code).toBe('INVALID_STATE');
      const winner = results.find((result) => result.response.status === 200)!.data!.data;
      expect([ids.userA2Approver, ids.userA3Approver]).toContain(winner.approval.approvedByUserId);
      expect(before.minus(await balance()).equals(estimate.totalAmount)).toBe(true);
      const [debits] = await server.db.query<{ n: number }>(
        "SELECT count(*)::int AS n FROM journal_entries WHERE kind = 'PAYROLL_CREATED' AND payroll_request_id = $1",
        [request.id],
      );
      expect(debits!.n).toBe(1);
    }
    await expectBooksBalanced(server.db);
  });
});

describe('POST /v1/customers/payroll/requests/{requestId}/reject', () => {
  it('cancels with the reason and debits nothing; the events carry the creation and the rejection', async () => {
    const before = await balancesOf(server.db, ids.acAUsd);
    const { request } = await createAwaiting([{ beneficiaryId: ids.beneficiaryA4, amount: '70.00' }]);
    const rejected = await reject(request.id, ids.userA3Approver, 'Two employees are paid twice');
    expect(rejected.response.status, JSON.stringify(rejected.error)).toBe(200);
    const data = rejected.data!.data;
    expect(data.status).toBe('CANCELLED');
    expect(data.cancellationReason).toBe('Two employees are paid twice');
    expect(data.approval).toMatchObject({
      required: true,
      rejectedByUserId: ids.userA3Approver,
      rejectedAt: server.clock.now().toISOString(),
      rejectionReason: 'Two employees are paid twice',
      approvedByUserId: null,
    });
    const after = await balancesOf(server.db, ids.acAUsd);
    expect(after.balance.equals(before.balance) && after.available.equals(before.available)).toBe(true);
    const [entries] = await server.db.query<{ n: number }>('SELECT count(*)::int AS n FROM journal_entries WHERE payroll_request_id = $1', [request.id]);
    expect(entries!.n).toBe(0);
    expect((await approve(request.id, ids.userA2Approver)).error?.error.code).toBe('INVALID_STATE');
    expect((await reject(request.id, ids.userA2Approver)).error?.error.code).toBe('INVALID_STATE');

    const events = await eventsOf(request.id, 2);
    expect(events.map((event) => event.status)).toEqual(['AWAITING_APPROVAL', 'CANCELLED']);
    expect(events[1]!.approval.rejectedByUserId).toBe(ids.userA3Approver);
  });

  it('the approval is in the events too: AWAITING_APPROVAL then PENDING with approvedByUserId', async () => {
    const { request } = await createAwaiting([{ beneficiaryId: ids.beneficiaryA4, amount: '71.00' }]);
    expect((await approve(request.id, ids.userA3Approver)).response.status).toBe(200);
    const events = await eventsOf(request.id, 2);
    expect(events.map((event) => [event.status, event.approval.approvedByUserId])).toEqual([
      ['AWAITING_APPROVAL', null],
      ['PENDING', ids.userA3Approver],
    ]);
    expect((await cancel(server, request.id)).response.status).toBe(200);
  });
});

describe('other operations on a request AWAITING_APPROVAL', () => {
  it('the creator cancels it with nothing to refund; anyone else is refused; the admin cannot quote it', async () => {
    const { request } = await createAwaiting([{ beneficiaryId: ids.beneficiaryA5, amount: '15.00' }]);
    const quoted = await quote(server, request.id);
    expect(quoted.response.status).toBe(409);
    expect(quoted.error?.error).toMatchObject({ code: 'INVALID_STATE', reason: 'TRANSITION_NOT_ALLOWED' });
    expect((await accept(server, request.id)).error?.error.code).toBe('INVALID_STATE');
    const byApprover = await cancel(server, request.id, 'Not mine', ids.userA2Approver);
    expect(byApprover.response.status).toBe(403);
    expect(byApprover.error?.error).toMatchObject({ code: 'FORBIDDEN', reason: 'CREATOR_ONLY' });

    const before = await balancesOf(server.db, ids.acAUsd);
    const cancelled = await cancel(server, request.id, 'Wrong month');
    expect(cancelled.response.status, JSON.stringify(cancelled.error)).toBe(200);
    expect(cancelled.data!.data.status).toBe('CANCELLED');
    expect(cancelled.data!.data.approval.rejectedByUserId).toBeNull();
    const after = await balancesOf(server.db, ids.acAUsd);
    expect(after.balance.equals(before.balance) && after.available.equals(before.available)).toBe(true);
    const [entries] = await server.db.query<{ n: number }>('SELECT count(*)::int AS n FROM journal_entries WHERE payroll_request_id = $1', [request.id]);
    expect(entries!.n).toBe(0);
  });

  it('the worker leaves it alone, and the admin queue lists it by its status', async () => {
    const { request } = await createAwaiting([{ beneficiaryId: ids.beneficiaryA5, amount: '16.00' }]);
    await drain(workerFor(server));
    expect((await readRequest(server, request.id)).status).toBe('AWAITING_APPROVAL');
    const queue = await server.as(ids.admin).GET('/v1/admin/payroll/requests', { params: { query: { status: 'AWAITING_APPROVAL' } } });
    expect(queue.data!.data.items.map((item) => item.id)).toContain(request.id);
    expect((await cancel(server, request.id)).response.status).toBe(200);
  });
});
