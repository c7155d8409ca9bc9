import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { components } from '../../generated/api.js';
import { consumePayrollFeeEstimate } from '../../src/store/fees/feeEstimates.js';
import { ids } from '../fixtures/world.js';
import { type TestServer, startTestServer } from '../support/server.js';

let server: TestServer;
beforeAll(async () => (server = await startTestServer()));
afterAll(() => server.close());

type EstimateRequest = components['schemas']['EstimatePayrollFeeRequest'];
type Entry = components['schemas']['EstimateAmountSplitEntry'];

const usdToAed = (entries: Entry[], overrides: Partial<EstimateRequest> = {}): EstimateRequest => ({
  sourceAccountCurrencyId: ids.acAUsd,
  payrollAccountCurrencyId: ids.acPartnerAed,
  amountSplitDetails: entries,
  ...overrides,
});

function estimate(body: EstimateRequest, userId: string = ids.userA) {
  return server.as(userId).POST('/v1/customers/payroll/estimate', { body });
}

/** Where a problem is and which rule refused it, as the envelope says them. */
type Facts = { reason?: string; field?: string; entryIndex?: number };

async function expectError(body: EstimateRequest, status: number, code: string, facts: Facts = {}, userId?: string) {
  const { error, response } = await estimate(body, userId);
  expect(response.status).toBe(status);
  expect(error?.success).toBe(false);
  expect(error?.error).toMatchObject({ code, ...facts, message: expect.any(String) });
}

/** The place of an entry's field. */
const at = (entryIndex: number, name: string) => ({ field: `/amountSplitDetails/${entryIndex}/${name}`, entryIndex });

describe('POST /v1/customers/payroll/estimate: figures (hand-computed; see test/unit/domain/payrollFees.test.ts)', () => {
  it('USD → AED with a 50 bips profile, two SOURCE entries', async () => {
    const { data, response } = await estimate(
      usdToAed([
        { beneficiaryId: ids.beneficiaryA1, amount: '1000.00' },
        { beneficiaryId: ids.beneficiaryA2, amount: '500.00', amountCurrencyType: 'SOURCE' },
      ]),
    );
    expect(response.status).toBe(200);
    // Every USD figure at USD's 2 places: bank fee 10 / 3.6541375 = 2.7366… up = 2.74.
    expect(data!.data).toEqual({
      totalAmount: '1512.74',
      sourceCurrencyAmount: '1500.00',
      feeAmount: '12.74',
      estimatedReceivedAmount: '5481.19',
      sourceAccountCurrencyId: ids.acAUsd,
      payrollAccountCurrencyId: ids.acPartnerAed,
      feeHash: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
      expiresAt: '2026-11-23T10:15:00.000Z', // the test clock + 900 s
      feeBreakdown: {
        sourceCurrencyAmount: '1500.00',
        spreadFee: '7.50',
        processorFee: '2.50',
        bankFee: '2.74',
        totalFee: '12.74',
        estimatedReceivedAmount: '5481.19',
        payrollCurrencyCode: 'AED',
        feeCurrencyCode: 'USD',
        exchangeRate: '3.6541375',
        baseRate: '3.6725',
        // The world's table: its row's age, no bound.
        rateSource: 'WORLD',
        rateAsOf: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/),
      },
      lines: [
        { beneficiaryId: ids.beneficiaryA1, amountCurrencyType: 'SOURCE', sourceCurrencyAmount: '1000.00', amount: '3654.13' },
        { beneficiaryId: ids.beneficiaryA2, amountCurrencyType: 'SOURCE', sourceCurrencyAmount: '500.00', amount: '1827.06' },
      ],
    });
  });

  it('mixed SOURCE and PAYROLL entries, with the breakdown locked behind the feeHash', async () => {
    const { data } = await estimate(
      usdToAed([
        { beneficiaryId: ids.beneficiaryA1, amount: '1000' },
        { beneficiaryId: ids.beneficiaryA2, amount: '1000.00', amountCurrencyType: 'PAYROLL' },
      ]),
    );
    // 1000 AED / 3.6541375 = 273.6623… up to 273.67 USD; spread 6.36835 → 6.37, processor 2.27367 → 2.28, bank 2.74.
    expect(data!.data).toMatchObject({ totalAmount: '1285.06', sourceCurrencyAmount: '1273.67', feeAmount: '11.39', estimatedReceivedAmount: '4654.13' });
    const [locked] = await server.db.query<{ fee_breakdown: unknown; entries: unknown; consumed_at: Date | null }>(
      'SELECT fee_breakdown, entries, consumed_at FROM payroll_fee_estimates WHERE fee_hash = $1',
      [data!.data.feeHash],
    );
    expect(locked).toEqual({
      fee_breakdown: {
        sourceCurrencyAmount: '1273.67',
        spreadFee: '6.37',
        processorFee: '2.28',
        bankFee: '2.74',
        totalFee: '11.39',
        estimatedReceivedAmount: '4654.13',
        payrollCurrencyCode: 'AED',
        feeCurrencyCode: 'USD',
        exchangeRate: '3.6541375',
        baseRate: '3.6725',
        // The world's table: its row's age, no bound.
        rateSource: 'WORLD',
        rateAsOf: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/),
      },
      entries: [
        { beneficiaryId: ids.beneficiaryA1, amount: '1000', amountCurrencyType: 'SOURCE', sourceCurrencyAmount: '1000.00', amountInPayrollCurrency: '3654.13' },
        { beneficiaryId: ids.beneficiaryA2, amount: '1000', amountCurrencyType: 'PAYROLL', sourceCurrencyAmount: '273.67', amountInPayrollCurrency: '1000.00' },
      ],
      consumed_at: null,
    });
  });

  it('a 0-decimal payroll currency (JPY) through the partner bank', async () => {
    const { data } = await estimate(usdToAed([{ beneficiaryId: ids.beneficiaryA1, amount: '100.00' }], { payrollAccountCurrencyId: ids.acPartnerJpy }));
    // spread 0.50 + processor 2.00 + bank 150 JPY / 150.61315 = 0.9959… up to 1.00 USD.
    expect(data!.data).toMatchObject({ estimatedReceivedAmount: '15061', sourceCurrencyAmount: '100.00', feeAmount: '3.50', totalAmount: '103.50' });
  });

  it('an 8-decimal source currency (USDC) hitting the processor minimum', async () => {
    const { data } = await estimate(usdToAed([{ beneficiaryId: ids.beneficiaryA1, amount: '0.12345678' }], { sourceAccountCurrencyId: ids.acAUsdc }));
    expect(data!.data).toMatchObject({
      sourceCurrencyAmount: '0.12345678',
      feeAmount: '1.86919010',
      totalAmount: '1.99264688',
      estimatedReceivedAmount: '0.45',
    });
  });

  it('a customer without a fee profile pays no spread (customer B)', async () => {
    const { data } = await estimate(usdToAed([{ beneficiaryId: ids.beneficiaryB1, amount: '200' }], { sourceAccountCurrencyId: ids.acBUsd }), ids.userB);
    // eff = base 3.6725: 734.50 AED; processor clamp(0.2 + 1, 2, 50) = 2; bank 5 / 3.6725 = 1.3614… up to 1.37.
    expect(data!.data).toMatchObject({ sourceCurrencyAmount: '200.00', estimatedReceivedAmount: '734.50', feeAmount: '3.37', totalAmount: '203.37' });
  });

  it('the processor maximum clamps the fee', async () => {
    const { data } = await estimate(usdToAed([{ beneficiaryId: ids.beneficiaryA1, amount: '100000' }]));
    // spread 500; processor min(100 + 1, 50) = 50; bank 1.37 (5 / 3.6541375 = 1.3683… up to 2 places)
    expect(data!.data).toMatchObject({ feeAmount: '551.37', totalAmount: '100551.37' });
  });

  it('each estimate has its own feeHash', async () => {
    const body = usdToAed([{ beneficiaryId: ids.beneficiaryA1, amount: '10' }]);
    const [first, second] = await Promise.all([estimate(body), estimate(body)]);
    expect(first.data!.data.feeHash).not.toBe(second.data!.data.feeHash);
  });

  it('the feeHash expires at expiresAt (injectable clock) and is consumed once', async () => {
    const { data } = await estimate(usdToAed([{ beneficiaryId: ids.beneficiaryA3, amount: '10' }]));
    const { feeHash, expiresAt } = data!.data;
    const consumeAt = (at: Date) => server.db.transaction((tx) => consumePayrollFeeEstimate(tx, feeHash, ids.customerA, ids.requestACompleted, at));
    const expiry = new Date(expiresAt);
    expect(await consumeAt(expiry)).toEqual({ ok: false, reason: 'EXPIRED', expiresAt: expiry });
    expect((await consumeAt(new Date(expiry.getTime() - 1000))).ok).toBe(true);
    expect(await consumeAt(new Date(expiry.getTime() - 500))).toEqual({ ok: false, reason: 'ALREADY_USED' });
  });

  it('a rate moved by an admin applies to later estimates only', async () => {
    const body = usdToAed([{ beneficiaryId: ids.beneficiaryA4, amount: '100' }], { sourceAccountCurrencyId: ids.acAUsdc });
    const before = await estimate(body);
    const moved = await server.as(ids.admin).PUT('/v1/admin/rates/{fromCurrencyCode}/{toCurrencyCode}', {
      params: { path: { fromCurrencyCode: 'USDC', toCurrencyCode: 'AED' } },
      body: { rate: '3.7000' },
    });
    expect(moved.data!.data).toMatchObject({ fromCurrencyCode: 'USDC', toCurrencyCode: 'AED', rate: '3.7' });
    const after = await estimate(body);
    expect(before.data!.data.estimatedReceivedAmount).toBe('365.34'); // 100 × 3.6718 × 0.995 = 365.3441 down
    expect(after.data!.data.estimatedReceivedAmount).toBe('368.15'); // 100 × 3.7 × 0.995 = 368.15
    const [locked] = await server.db.query<{ fee_breakdown: { baseRate: string } }>('SELECT fee_breakdown FROM payroll_fee_estimates WHERE fee_hash = $1', [
      before.data!.data.feeHash,
    ]);
    expect(locked!.fee_breakdown.baseRate).toBe('3.6718');
  });
});

describe('POST /v1/customers/payroll/estimate: validation (400 VALIDATION_ERROR names the entry and field)', () => {
  const one = (entry: Partial<Entry>) => usdToAed([{ beneficiaryId: ids.beneficiaryA1, amount: '10', ...entry }]);

  it('an empty list', () => expectError(usdToAed([]), 400, 'VALIDATION_ERROR', { field: '/amountSplitDetails' }));
  it('an amount of zero', () => expectError(one({ amount: '0.00' }), 400, 'VALIDATION_ERROR', { reason: 'AMOUNT_NOT_POSITIVE', ...at(0, 'amount') }));
  it('a negative amount', () => expectError(one({ amount: '-5' }), 400, 'VALIDATION_ERROR', at(0, 'amount')));
  it('an exponent', () => expectError(one({ amount: '1e3' }), 400, 'VALIDATION_ERROR', at(0, 'amount')));
  it('a JSON number instead of a decimal string', () => expectError(one({ amount: 10 as unknown as string }), 400, 'VALIDATION_ERROR', at(0, 'amount')));
  it('more than 8 decimals', () => expectError(one({ amount: '1.123456789' }), 400, 'VALIDATION_ERROR', at(0, 'amount')));
  it('more than 2 decimals on a PAYROLL amount', () =>
    expectError(
      usdToAed([
        { beneficiaryId: ids.beneficiaryA1, amount: '10' },
        { beneficiaryId: ids.beneficiaryA2, amount: '10.005', amountCurrencyType: 'PAYROLL' },
      ]),
      400,
      'VALIDATION_ERROR',
      { reason: 'TOO_MANY_DECIMALS', ...at(1, 'amount') },
    ));
  it('decimals on a PAYROLL amount in JPY (0 minor units)', () =>
    expectError(
      usdToAed([{ beneficiaryId: ids.beneficiaryA1, amount: '1000.5', amountCurrencyType: 'PAYROLL' }], { payrollAccountCurrencyId: ids.acPartnerJpy }),
      400,
      'VALIDATION_ERROR',
      { reason: 'TOO_MANY_DECIMALS', ...at(0, 'amount') },
    ));
  it('a duplicate beneficiaryId', () =>
    expectError(
      usdToAed([
        { beneficiaryId: ids.beneficiaryA1, amount: '10' },
        { beneficiaryId: ids.beneficiaryA2, amount: '10' },
        { beneficiaryId: ids.beneficiaryA1, amount: '20' },
      ]),
      400,
      'VALIDATION_ERROR',
      { reason: 'DUPLICATE_ENTRY', ...at(2, 'beneficiaryId') },
    ));
  it('several bad entries: every one listed in error.details with its field', async () => {
    const { error, response } = await estimate(
      usdToAed([
        { beneficiaryId: ids.beneficiaryA1, amount: '0.00' },
        { beneficiaryId: ids.beneficiaryA2, amount: '10.001' },
        { beneficiaryId: ids.beneficiaryA1, amount: '20' },
      ]),
    );
    expect(response.status).toBe(400);
    // The first problem's place on the error, each problem's in details; the messages are for people.
    expect(error!.error).toMatchObject({ code: 'VALIDATION_ERROR', ...at(0, 'amount') });
    expect(error!.error.details).toEqual([
      { reason: 'AMOUNT_NOT_POSITIVE', ...at(0, 'amount'), message: expect.any(String) },
      { reason: 'TOO_MANY_DECIMALS', ...at(1, 'amount'), message: expect.any(String) },
      { reason: 'DUPLICATE_ENTRY', ...at(2, 'beneficiaryId'), message: expect.any(String) },
    ]);
  });
  it('an unknown amountCurrencyType', () => expectError(one({ amountCurrencyType: 'EUR' as 'SOURCE' }), 400, 'VALIDATION_ERROR', at(0, 'amountCurrencyType')));
  it('a malformed beneficiaryId', () => expectError(one({ beneficiaryId: 'nope' }), 400, 'VALIDATION_ERROR', at(0, 'beneficiaryId')));
  it('an unknown field', () => expectError({ ...one({}), extra: true } as EstimateRequest, 400, 'VALIDATION_ERROR', { field: '/extra' }));
  it('more than 100,000 entries', async () => {
    const entries = Array.from({ length: 100_001 }, (_, n) => ({ beneficiaryId: `7e570000-0000-4000-8000-${String(n).padStart(12, '0')}`, amount: '1' }));
    await expectError(usdToAed(entries), 400, 'VALIDATION_ERROR', { field: '/amountSplitDetails' });
  });
});

describe('POST /v1/customers/payroll/estimate: not found and rates', () => {
  it("404 naming unknown, inactive and other customers' beneficiaries", async () => {
    const unknown = '7e570000-0000-4000-8000-00000000beef';
    const { error, response } = await estimate(
      usdToAed([
        { beneficiaryId: ids.beneficiaryA1, amount: '10' },
        { beneficiaryId: unknown, amount: '10' },
        { beneficiaryId: ids.beneficiaryAInactive, amount: '10' },
        { beneficiaryId: ids.beneficiaryB1, amount: '10' },
      ]),
    );
    expect(response.status).toBe(404);
    expect(error).toEqual({ success: false, error: { code: 'NOT_FOUND', message: expect.any(String) } });
  });

  it('404 for a source account currency of another customer, or a missing one', async () => {
    await expectError(usdToAed([{ beneficiaryId: ids.beneficiaryA1, amount: '10' }], { sourceAccountCurrencyId: ids.acBUsd }), 404, 'NOT_FOUND');
    await expectError(usdToAed([{ beneficiaryId: ids.beneficiaryA1, amount: '10' }], { sourceAccountCurrencyId: ids.acPartnerAed }), 404, 'NOT_FOUND');
  });

  it("404 for a payroll account currency that is neither the caller's nor a partner bank's", async () => {
    await expectError(
      usdToAed([{ beneficiaryId: ids.beneficiaryB1, amount: '10' }], { sourceAccountCurrencyId: ids.acBUsd, payrollAccountCurrencyId: ids.acAAed }),
      404,
      'NOT_FOUND',
      {},
      ids.userB,
    );
    // The caller's own AED account is allowed.
    const own = await estimate(usdToAed([{ beneficiaryId: ids.beneficiaryA1, amount: '10' }], { payrollAccountCurrencyId: ids.acAAed }));
    expect(own.response.status).toBe(200);
  });

  it('400 EXCHANGE_RATE_UNAVAILABLE when no rate exists for the pair', async () => {
    // The test world has USD → JPY and USDC → AED, but no USDC → JPY.
    await expectError(
      usdToAed([{ beneficiaryId: ids.beneficiaryA1, amount: '10' }], { sourceAccountCurrencyId: ids.acAUsdc, payrollAccountCurrencyId: ids.acPartnerJpy }),
      400,
      'EXCHANGE_RATE_UNAVAILABLE',
    );
  });

  it('a rejected estimate stores no feeHash', async () => {
    const [{ count: before }] = (await server.db.query<{ count: number }>('SELECT count(*)::int AS count FROM payroll_fee_estimates')) as [{ count: number }];
    await estimate(usdToAed([{ beneficiaryId: ids.beneficiaryAInactive, amount: '10' }]));
    const [{ count: after }] = (await server.db.query<{ count: number }>('SELECT count(*)::int AS count FROM payroll_fee_estimates')) as [{ count: number }];
    expect(after).toBe(before);
  });
});
