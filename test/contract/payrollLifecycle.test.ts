import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { components } from '../../generated/api.js';
import { Money } from '../../src/domain/money/money.js';
import type { ExecutionDeps } from '../../src/usecases/payroll/execution.js';
import { ids } from '../fixtures/world.js';
import { balancesOf, expectBooksBalanced, expectSameBalances } from '../support/balances.js';
import { addBeneficiary, closedAccountBeneficiary, worldWith } from '../support/builders.js';
import { accept, cancel, estimateAndCreate, quote, readRequest, recordFx, usdToAed } from '../support/payroll.js';
import { type TestServer, startTestServer } from '../support/server.js';
import { drain, startServerWithWorker, workerFor } from '../support/worker.js';

let server: TestServer;
let worker: ExecutionDeps;
beforeAll(async () => ({ server, worker } = await startServerWithWorker()));
afterAll(() => server.close());
// After every scenario: balance and available equal what the ledger says, everywhere.
afterEach(() => expectBooksBalanced(server.db));

type Entry = components['schemas']['CreateAmountSplitEntry'];

const customer = () => server.as(ids.userA);
const admin = () => server.as(ids.admin);
const balanceOf = (accountCurrencyId: string) => balancesOf(server.db, accountCurrencyId);

describe('the payroll lifecycle, end to end', () => {
  it('estimate → create → quote → accept → execute → FX → payouts → COMPLETED', async () => {
    const before = await balanceOf(ids.acAUsd);
    const { estimate, created } = await estimateAndCreate(customer(), [
      { beneficiaryId: ids.beneficiaryA1, amount: '1000.00', purposeCode: 'SAL' },
      { beneficiaryId: ids.beneficiaryA2, amount: '1000.00', amountCurrencyType: 'PAYROLL', purposeCode: 'PEN' },
    ]);
    expect(created.response.status).toBe(201);
    const request = created.data!.data;
    expect(request).toMatchObject({
      status: 'PENDING',
      totalAmount: estimate.totalAmount,
      sourceAmountForExchange: estimate.sourceCurrencyAmount,
      estimatedReceivedAmount: '4654.13',
      estimatedFxRate: '3.6541375',
      quotedFxRate: null,
      quoteExpiresAt: null,
      fxExchange: null,
      transfers: [],
      // USD figures at 2 places: 1000 AED / 3.6541375 = 273.66… up to 273.67; fees 6.37 + 2.28 + 2.74.
      metadata: { feeBreakdown: { bankFee: '2.74', spreadFee: '6.37', processorFee: '2.28', baseRate: '3.6725' } },
    });
    expect(
      request.amountSplitDetails.map((split) => [split.beneficiaryId, split.sourceCurrencyAmount, split.amount, split.purposeCode, split.payoutTransferId]),
    ).toEqual([
      [ids.beneficiaryA1, '1000.00', '3654.13', 'SAL', null],
      [ids.beneficiaryA2, '273.67', '1000.00', 'PEN', null],
    ]);
    expect(request.amountSplitDetails[0]!.beneficiarySnapshot).toMatchObject({
      id: ids.beneficiaryA1,
      bankName: 'Emirates NBD',
      iban: 'AE500261014000000000011',
    });
    const debited = before.balance.minus(estimate.totalAmount);
    expect((await balanceOf(ids.acAUsd)).balance.equals(debited)).toBe(true);

    const quoted = await quote(server, request.id);
    expect(quoted.data!.data).toMatchObject({
      status: 'QUOTE_PROVIDED',
      quotedFxRate: '3.653',
      quotedByUserId: ids.admin,
      quotedAt: server.clock.now().toISOString(),
    });
    // The honoured quote at 3.653: 1000.00 USD → 3653.00 AED; 1000.00 AED ← 273.75 USD (273.7476… up);
    // total 1273.75 + 11.39 = 1285.14, a top-up of 0.08 over the 1285.06 debited at creation.
    expect(quoted.data!.data.quote).toEqual({
      exchangeRate: '3.653',
      sourceAmountForExchange: '1273.75',
      feeAmount: '11.39',
      totalAmount: '1285.14',
      receivedAmount: '4653.00',
      debitedAmount: estimate.totalAmount,
      adjustmentAmount: '0.08',
    });
    expect(quoted.data!.data.amountSplitDetails.map((split) => [split.quotedSourceCurrencyAmount, split.quotedAmount])).toEqual([
      ['1000.00', '3653.00'],
      ['273.75', '1000.00'],
    ]);
    expect((await accept(server, request.id)).data!.data).toMatchObject({
      status: 'QUOTE_ACCEPTED',
      acceptedByCustomerAt: server.clock.now().toISOString(),
      totalAmount: '1285.14',
    });
    expect((await balanceOf(ids.acAUsd)).balance.equals(debited.minus('0.08'))).toBe(true);

    await drain(worker);
    const executing = await readRequest(server, request.id);
    expect(executing.status).toBe('EXECUTING');
    // The transfers move the accepted figures.
    expect(executing.transfers.map((t) => [t.transferType, t.status, t.amount, t.currencyCode])).toEqual([
      ['PROCESSOR_INTERNAL_DEBIT', 'COMPLETED', '1285.14', 'USD'],
      ['PROCESSOR_TO_BANK', 'COMPLETED', '1273.75', 'USD'],
    ]);
    expect(executing.transfers[0]).toMatchObject({
      externalId: expect.stringMatching(/^SIM-PRC-/),
      executedAt: expect.any(String),
      completedAt: expect.any(String),
      feeDetails: { amount: '2.28' },
    });

    const fx = await recordFx(server, request.id, '3.6520');
    expect(fx.response.status).toBe(200);
    const paying = fx.data!.data;
    // toAmount = 1273.75 × 3.652 = 4651.735 down = 4651.73; the payouts stay the quoted 3653.00 and 1000.00,
    // so the platform books an FX result of 4651.73 − 4653.00 = −1.27 (a loss it bears).
    expect(paying.fxExchange).toMatchObject({
      fromAmount: '1273.75',
      toAmount: '4651.73',
      exchangeRate: '3.652',
      payoutAmount: '4653.00',
      fxResultAmount: '-1.27',
      fromCurrencyCode: 'USD',
      toCurrencyCode: 'AED',
      recordedByUserId: ids.admin,
    });
    expect(paying.status).toBe('PAYOUT_INITIATED');
    const payouts = paying.transfers.filter((t) => t.transferType === 'BANK_TO_BENEFICIARY');
    expect(payouts.map((t) => [t.amount, t.currencyCode, t.status])).toEqual([
      ['3653.00', 'AED', 'PENDING'],
      ['1000.00', 'AED', 'PENDING'],
    ]);
    for (const split of paying.amountSplitDetails) {
      expect(payouts.find((t) => t.id === split.payoutTransferId)?.payoutInstruction?.id).toBe(split.id);
      expect(payouts.find((t) => t.id === split.payoutTransferId)?.amount).toBe(split.quotedAmount);
    }
    // Payouts never exceed what the customer funded at the accepted quote; received + FX result = toAmount.
    expect(new Money('3653.00').plus('1000.00').lessThanOrEqualTo(new Money('1273.75').times('3.653'))).toBe(true);
    expect(new Money(paying.fxExchange!.payoutAmount).plus(paying.fxExchange!.fxResultAmount).equals(paying.fxExchange!.toAmount)).toBe(true);

    await drain(worker);
    const done = await readRequest(server, request.id);
    expect(done.status).toBe('COMPLETED');
    expect(done.transfers.every((t) => t.status === 'COMPLETED' && t.externalId && t.completedAt)).toBe(true);
    const [ops] = await server.db.query<{ max: number }>('SELECT max(calls)::int AS max FROM simulated_operations');
    expect(ops!.max).toBe(1); // no transfer was sent twice
  });

  it('a payout to a FAIL… reference fails, the others complete: PARTIALLY_COMPLETED', async () => {
    const closed = await addBeneficiary(customer(), closedAccountBeneficiary());
    const { created } = await estimateAndCreate(customer(), [
      { beneficiaryId: closed, amount: '100', purposeCode: 'SAL' },
      { beneficiaryId: ids.beneficiaryA4, amount: '200', purposeCode: 'SAL' },
    ]);
    const id = created.data!.data.id;
    await quote(server, id);
    await accept(server, id);
    await drain(worker);
    await recordFx(server, id);
    await drain(worker);
    const done = await readRequest(server, id);
    expect(done.status).toBe('PARTIALLY_COMPLETED');
    const failed = done.transfers.filter((t) => t.status === 'FAILED');
    expect(failed).toHaveLength(1);
    expect(failed[0]).toMatchObject({
      transferType: 'BANK_TO_BENEFICIARY',
      failureReason: 'Beneficiary account closed',
      payoutInstruction: { beneficiaryId: closed },
    });
  });

  it('a failed source debit fails the request and returns the funds', async () => {
    // Customer A's USDC account at a processor that declines every debit (src/adapters/processor/rails.ts).
    const declining = await startTestServer({ world: worldWith({ accounts: { [ids.accountAUsdc]: { accountProvider: 'FAILING_PROCESSOR' } } }) });
    try {
      const balanceThere = (accountCurrencyId: string) => balancesOf(declining.db, accountCurrencyId);
      const before = await balanceThere(ids.acAUsdc);
      const { created } = await estimateAndCreate(declining.as(ids.userA), [{ beneficiaryId: ids.beneficiaryA1, amount: '50', purposeCode: 'SAL' }], {
        accounts: { sourceAccountCurrencyId: ids.acAUsdc },
      });
      const id = created.data!.data.id;
      expect((await balanceThere(ids.acAUsdc)).balance.lessThan(before.balance)).toBe(true);
      await quote(declining, id, '3.66');
      await accept(declining, id);
      await drain(workerFor(declining));
      const failed = await readRequest(declining, id);
      expect(failed).toMatchObject({ status: 'FAILED', failureReason: expect.stringContaining('PROCESSOR_INTERNAL_DEBIT failed') });
      expect(failed.transfers).toEqual([
        expect.objectContaining({ transferType: 'PROCESSOR_INTERNAL_DEBIT', status: 'FAILED', failureReason: 'Processor declined the debit' }),
      ]);
      expectSameBalances(await balanceThere(ids.acAUsdc), before);
      await expectBooksBalanced(declining.db);
    } finally {
      await declining.close();
    }
  });

  it('cancel from PENDING or QUOTE_PROVIDED returns the debited funds', async () => {
    const before = await balanceOf(ids.acAUsd);
    const first = (await estimateAndCreate(customer(), [{ beneficiaryId: ids.beneficiaryA1, amount: '10', purposeCode: 'SAL' }])).created.data!.data;
    const second = (await estimateAndCreate(customer(), [{ beneficiaryId: ids.beneficiaryA2, amount: '20', purposeCode: 'OFS' }])).created.data!.data;
    await quote(server, second.id);
    const cancelled = await cancel(server, first.id, 'Wrong amounts');
    expect(cancelled.data!.data).toMatchObject({ status: 'CANCELLED', cancellationReason: 'Wrong amounts' });
    expect((await cancel(server, second.id)).data!.data.status).toBe('CANCELLED');
    expectSameBalances(await balanceOf(ids.acAUsd), before);
  });

  it('an expired quote cannot be accepted; the admin re-quotes and it can', async () => {
    const id = (await estimateAndCreate(customer(), [{ beneficiaryId: ids.beneficiaryA1, amount: '10', purposeCode: 'SAL' }])).created.data!.data.id;
    await quote(server, id, '3.65', 60);
    const early = await quote(server, id, '3.66', 60);
    expect(early.response.status).toBe(409);
    expect(early.error!.error.code).toBe('INVALID_STATE');
    server.clock.advance(61);
    const late = await accept(server, id);
    expect(late.response.status).toBe(409);
    expect(late.error!.error.code).toBe('QUOTE_EXPIRED');
    const requoted = await quote(server, id, '3.66', 600);
    expect(requoted.data!.data).toMatchObject({ status: 'QUOTE_PROVIDED', quotedFxRate: '3.66' });
    expect((await accept(server, id)).data!.data.status).toBe('QUOTE_ACCEPTED');
    await drain(worker);
  });

  it('every illegal transition is 409 INVALID_STATE TRANSITION_NOT_ALLOWED, and changes nothing', async () => {
    const refused = { code: 'INVALID_STATE', reason: 'TRANSITION_NOT_ALLOWED' };
    const id = (await estimateAndCreate(customer(), [{ beneficiaryId: ids.beneficiaryA5, amount: '10', purposeCode: 'SAL' }])).created.data!.data.id;
    const pending = [await accept(server, id), await recordFx(server, id)];
    for (const { response, error } of pending) {
      expect(response.status).toBe(409);
      expect(error!.error).toMatchObject(refused);
    }
    expect((await readRequest(server, id)).status).toBe('PENDING');
    await quote(server, id);
    await accept(server, id);
    const accepted = [await cancel(server, id), await accept(server, id), await quote(server, id), await recordFx(server, id)];
    for (const { response, error } of accepted) {
      expect(response.status).toBe(409);
      expect(error!.error).toMatchObject(refused);
    }
    expect((await readRequest(server, id)).status).toBe('QUOTE_ACCEPTED');
    await drain(worker);
    const executing = [await cancel(server, id), await accept(server, id), await quote(server, id)];
    for (const { error } of executing) expect(error!.error).toMatchObject(refused);
    expect((await readRequest(server, id)).status).toBe('EXECUTING');
    await recordFx(server, id);
    await drain(worker);
    for (const { error } of [await cancel(server, id), await accept(server, id), await quote(server, id), await recordFx(server, id)]) {
      expect(error!.error).toMatchObject(refused);
    }
    expect((await readRequest(server, id)).status).toBe('COMPLETED');
  });

  it("lists the caller's requests newest first with a cursor, and admins by status", async () => {
    const first = await customer().GET('/v1/customers/payroll/requests', { params: { query: { limit: 2 } } });
    expect(first.data!.data.items).toHaveLength(2);
    expect(first.data!.data.items.every((item) => item.customerId === ids.customerA)).toBe(true);
    const second = await customer().GET('/v1/customers/payroll/requests', { params: { query: { limit: 2, cursor: first.data!.data.nextCursor! } } });
    const seen = [...first.data!.data.items, ...second.data!.data.items];
    expect(new Set(seen.map((item) => item.id)).size).toBe(seen.length);
    const times = seen.map((item) => item.createdAt);
    expect([...times].sort().reverse()).toEqual(times);
    const cancelled = await customer().GET('/v1/customers/payroll/requests', { params: { query: { status: 'CANCELLED' } } });
    expect(cancelled.data!.data.items.length).toBeGreaterThanOrEqual(2);
    expect(cancelled.data!.data.items.every((item) => item.status === 'CANCELLED')).toBe(true);
    const foreign = await customer().GET('/v1/customers/payroll/requests', { params: { query: { cursor: 'not-a-cursor' } } });
    expect(foreign.response.status).toBe(400);
    const queue = await admin().GET('/v1/admin/payroll/requests', { params: { query: { status: 'PENDING' } } });
    expect(queue.data!.data.items.map((item) => item.id)).toContain(ids.requestBPending);
    expect((await customer().GET('/v1/admin/payroll/requests', {})).response.status).toBe(403);
  });
});

describe('POST /v1/customers/payroll/requests: the feeHash', () => {
  const entries: Entry[] = [{ beneficiaryId: ids.beneficiaryA1, amount: '25.50', purposeCode: 'SAL' }];
  const estimateHash = async () =>
    (
      await customer().POST('/v1/customers/payroll/estimate', {
        body: { ...usdToAed, amountSplitDetails: [{ beneficiaryId: ids.beneficiaryA1, amount: '25.50' }] },
      })
    ).data!.data.feeHash;
  const create = (feeHash: string, body: Partial<components['schemas']['CreatePayrollRequestRequest']> = {}) =>
    customer().POST('/v1/customers/payroll/requests', { body: { ...usdToAed, feeHash, amountSplitDetails: entries, ...body } });

  it("unknown or another customer's → 404; used → 409 FEE_HASH_ALREADY_USED; expired → 400 FEE_HASH_EXPIRED", async () => {
    expect((await create('x'.repeat(43))).response.status).toBe(404);
    const feeHash = await estimateHash();
    const foreign = await server.as(ids.userB).POST('/v1/customers/payroll/requests', { body: { ...usdToAed, feeHash, amountSplitDetails: entries } });
    expect(foreign.response.status).toBe(404);
    expect((await create(feeHash)).response.status).toBe(201);
    const again = await create(feeHash);
    expect(again.response.status).toBe(409);
    expect(again.error!.error.code).toBe('FEE_HASH_ALREADY_USED');
    const stale = await estimateHash();
    server.clock.advance(901);
    const expired = await create(stale);
    expect(expired.response.status).toBe(400);
    expect(expired.error!.error.code).toBe('FEE_HASH_EXPIRED');
  });

  it('a body that differs from the locked estimate → 400 FEE_HASH_MISMATCH, and the feeHash stays usable', async () => {
    const feeHash = await estimateHash();
    const cases = [
      { amountSplitDetails: [{ ...entries[0]!, amount: '25.51' }] },
      { amountSplitDetails: [{ ...entries[0]!, beneficiaryId: ids.beneficiaryA2 }] },
      { amountSplitDetails: [{ ...entries[0]!, amountCurrencyType: 'PAYROLL' as const }] },
      { amountSplitDetails: [...entries, { beneficiaryId: ids.beneficiaryA2, amount: '1', purposeCode: 'SAL' as const }] },
      { sourceAccountCurrencyId: ids.acAUsdc },
    ];
    for (const body of cases) {
      const { response, error } = await create(feeHash, body);
      expect(response.status).toBe(400);
      expect(error!.error.code).toBe('FEE_HASH_MISMATCH');
    }
    // The same amount written differently is the same amount.
    expect((await create(feeHash, { amountSplitDetails: [{ ...entries[0]!, amount: '25.5' }] })).response.status).toBe(201);
  });

  it('INSUFFICIENT_FUNDS leaves the feeHash unused and the balance untouched', async () => {
    const b = server.as(ids.userB);
    const body = { sourceAccountCurrencyId: ids.acBUsd, payrollAccountCurrencyId: ids.acPartnerAed };
    const before = await balanceOf(ids.acBUsd);
    const { data } = await b.POST('/v1/customers/payroll/estimate', {
      body: { ...body, amountSplitDetails: [{ beneficiaryId: ids.beneficiaryB1, amount: '2000' }] },
    });
    const feeHash = data!.data.feeHash;
    const refused = await b.POST('/v1/customers/payroll/requests', {
      body: { ...body, feeHash, amountSplitDetails: [{ beneficiaryId: ids.beneficiaryB1, amount: '2000', purposeCode: 'SAL' }] },
    });
    expect(refused.response.status).toBe(400);
    expect(refused.error!.error.code).toBe('INSUFFICIENT_FUNDS');
    expectSameBalances(await balanceOf(ids.acBUsd), before);
    const [row] = await server.db.query<{ consumed_at: Date | null }>('SELECT consumed_at FROM payroll_fee_estimates WHERE fee_hash = $1', [feeHash]);
    expect(row!.consumed_at).toBeNull();
  });

  it('50 concurrent creates with one feeHash: exactly one 201 and one debit', async () => {
    const feeHash = await estimateHash();
    const before = await balanceOf(ids.acAUsd);
    const results = await Promise.all(Array.from({ length: 50 }, () => create(feeHash)));
    const statuses = results.map((result) => result.response.status);
    expect(statuses.filter((status) => status === 201)).toHaveLength(1);
    expect(statuses.filter((status) => status === 409)).toHaveLength(49);
    const total = results.find((result) => result.response.status === 201)!.data!.data.totalAmount;
    expect(before.balance.minus((await balanceOf(ids.acAUsd)).balance).equals(total)).toBe(true);
    const [debits] = await server.db.query<{ count: number }>(
      "SELECT count(*)::int AS count FROM journal_entries WHERE kind = 'PAYROLL_CREATED' AND payroll_request_id IN (SELECT id FROM payroll_requests WHERE fee_hash = $1)",
      [feeHash],
    );
    expect(debits!.count).toBe(1);
  });
});

describe('Idempotency-Key', () => {
  it('replays the first response for the same key and body; 422 for another body; concurrent repeats execute once', async () => {
    const entries: Entry[] = [{ beneficiaryId: ids.beneficiaryA2, amount: '7', purposeCode: 'SAL' }];
    const { created, feeHash } = await estimateAndCreate(customer(), entries, { idempotencyKey: 'payroll-2026-11-run-1' });
    expect(created.response.status).toBe(201);
    const body = { ...usdToAed, feeHash, amountSplitDetails: entries };
    const replay = await customer().POST('/v1/customers/payroll/requests', { body, headers: { 'Idempotency-Key': 'payroll-2026-11-run-1' } });
    expect(replay.response.status).toBe(201);
    expect(replay.data).toEqual(created.data);
    const reused = await customer().POST('/v1/customers/payroll/requests', {
      body: { ...body, amountSplitDetails: [{ ...entries[0]!, amount: '8' }] },
      headers: { 'Idempotency-Key': 'payroll-2026-11-run-1' },
    });
    expect(reused.response.status).toBe(422);
    expect(reused.error!.error.code).toBe('IDEMPOTENCY_KEY_REUSED');

    const id = created.data!.data.id;
    const accepts = await Promise.all(
      Array.from({ length: 10 }, () =>
        customer().POST('/v1/customers/payroll/requests/{requestId}/cancel', {
          params: { path: { requestId: id } },
          body: { reason: 'dup' },
          headers: { 'Idempotency-Key': 'cancel-once' },
        }),
      ),
    );
    expect(accepts.map((result) => result.response.status)).toEqual(Array(10).fill(200));
    const [refunds] = await server.db.query<{ count: number }>(
      "SELECT count(*)::int AS count FROM journal_entries WHERE kind = 'PAYROLL_CANCELLED' AND payroll_request_id = $1",
      [id],
    );
    expect(refunds!.count).toBe(1);
  });
});

describe('the worker', () => {
  it('two workers racing over the same transfers never send one twice', async () => {
    const entries: Entry[] = [ids.beneficiaryA1, ids.beneficiaryA2, ids.beneficiaryA3, ids.beneficiaryA4, ids.beneficiaryA5].map((beneficiaryId, n) => ({
      beneficiaryId,
      amount: `${10 + n}.00`,
      purposeCode: 'SAL',
    }));
    const id = (await estimateAndCreate(customer(), entries)).created.data!.data.id;
    await quote(server, id);
    await accept(server, id);
    const second = workerFor(server);
    await Promise.all([drain(worker), drain(second)]);
    await recordFx(server, id);
    await Promise.all([drain(worker), drain(second), drain(workerFor(server))]);
    const done = await readRequest(server, id);
    expect(done.status).toBe('COMPLETED');
    expect(done.transfers).toHaveLength(7);
    const sent = await server.db.query<{ calls: number }>(
      'SELECT calls FROM simulated_operations WHERE transfer_id IN (SELECT id FROM transfers WHERE payroll_request_id = $1)',
      [id],
    );
    expect(sent.map((row) => row.calls)).toEqual(Array(7).fill(1));
  });

  it('transfers stay PROCESSING until the rails settle (configurable delay)', async () => {
    const slow = workerFor(server, 5_000);
    const id = (await estimateAndCreate(customer(), [{ beneficiaryId: ids.beneficiaryA1, amount: '5', purposeCode: 'SAL' }])).created.data!.data.id;
    await quote(server, id);
    await accept(server, id);
    await drain(slow);
    expect((await readRequest(server, id)).transfers.map((t) => t.status)).toEqual(['PROCESSING']);
    server.clock.advance(6);
    await drain(slow);
    expect((await readRequest(server, id)).transfers.map((t) => t.status)).toEqual(['COMPLETED', 'PROCESSING']);
    server.clock.advance(6);
    await drain(slow);
    expect((await readRequest(server, id)).transfers.map((t) => t.status)).toEqual(['COMPLETED', 'COMPLETED']);
  });

  it('an estimate repeated with its Idempotency-Key returns the same feeHash', async () => {
    const body = { ...usdToAed, amountSplitDetails: [{ beneficiaryId: ids.beneficiaryA1, amount: '12' }] };
    const headers = { 'Idempotency-Key': 'estimate-once' };
    const [first, second] = [
      await customer().POST('/v1/customers/payroll/estimate', { body, headers }),
      await customer().POST('/v1/customers/payroll/estimate', { body, headers }),
    ];
    expect(second.data!.data.feeHash).toBe(first.data!.data.feeHash);
  });
});
