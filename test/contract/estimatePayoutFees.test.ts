import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyPayoutFeeHash } from '../../src/domain/fees/feeHash.js';
import { Money } from '../../src/domain/money/money.js';
import { lockedPayoutFigures } from '../../src/usecases/fees/estimatePayoutFees.js';
import { ids } from '../fixtures/world.js';
import { type TestServer, startTestServer, testConfig } from '../support/server.js';

let server: TestServer;
beforeAll(async () => (server = await startTestServer()));
afterAll(() => server.close());

const path = '/v1/accounts/{accountId}/payouts/estimate' as const;
type Query = { amount: string; currency: string; beneficiaryId: string };
const valid: Query = { amount: '1234.56', currency: 'USD', beneficiaryId: ids.beneficiaryA1 };

function estimate(query: Partial<Query>, accountId: string = ids.accountAUsd, userId: string = ids.userA) {
  return server.as(userId).GET(path, { params: { path: { accountId }, query: query as Query } });
}

describe('GET /v1/accounts/{accountId}/payouts/estimate', () => {
  it('200 with JSON numbers at the currency scale, the customer rule set and a signed feeHash', async () => {
    const { data, response } = await estimate(valid);
    expect(response.status).toBe(200);
    // fee 1234.56 × 0.0025 + 2 = 5.0864 → 5.09; customer A's rule 1234.56 × 0.0005 + 0.25 = 0.86728 → 0.87
    expect(data!.data).toEqual({
      amount: 1234.56,
      currency: 'USD',
      fee: 5.09,
      feeCurrency: 'USD',
      estimatedDate: '2026-11-25T10:00:00.000Z', // Monday + 2 business days
      isEstimateAvailable: true,
      totalAmount: 1240.52,
      internalFee: 0.87,
      ruleSet: true,
      totalFee: 5.96,
      feeHash: expect.stringMatching(/^[0-9a-f-]{36}:\d+:[A-Za-z0-9_-]{43}$/),
      expiresAt: '2026-11-23T10:15:00.000Z',
    });
    const feeHash = data!.data.feeHash;
    const figures = lockedPayoutFigures({ accountId: ids.accountAUsd, beneficiaryId: ids.beneficiaryA1, currency: 'USD', amount: new Money('1234.56') });
    expect(verifyPayoutFeeHash(testConfig.feeHashSecret, feeHash, figures, server.clock.now()).ok).toBe(true);
    // One altered character anywhere is rejected.
    for (let index = 0; index < feeHash.length; index++) {
      if (feeHash[index] === ':') continue;
      const altered = feeHash.slice(0, index) + (feeHash[index] === '0' ? '1' : '0') + feeHash.slice(index + 1);
      expect(verifyPayoutFeeHash(testConfig.feeHashSecret, altered, figures, server.clock.now()).ok).toBe(false);
    }
    const [stored] = await server.db.query<{ total_amount: string; consumed_at: Date | null }>(
      'SELECT total_amount::text, consumed_at FROM payout_fee_estimates WHERE id = $1',
      [feeHash.split(':')[0]],
    );
    expect(stored).toEqual({ total_amount: '1240.52', consumed_at: null });
  });

  it('the platform default applies to a customer without a rule set (ruleSet false)', async () => {
    const { data } = await estimate({ amount: '10', currency: 'USD', beneficiaryId: ids.beneficiaryB1 }, ids.accountBUsd, ids.userB);
    // fee clamp(2.025, 3, 40) = 3; platform 0.01 + 0.50 = 0.51
    expect(data!.data).toMatchObject({ amount: 10, fee: 3, internalFee: 0.51, totalFee: 3.51, totalAmount: 13.51, ruleSet: false });
  });

  it('isEstimateAvailable false when no payout schedule covers the currency', async () => {
    const { data } = await estimate({ amount: '100.00000001', currency: 'USDC', beneficiaryId: ids.beneficiaryA1 }, ids.accountAUsdc);
    expect(data!.data).toMatchObject({
      amount: 100.00000001,
      fee: 0,
      internalFee: 0,
      totalFee: 0,
      totalAmount: 100.00000001,
      isEstimateAvailable: false,
      ruleSet: false,
      estimatedDate: '2026-11-23T10:00:00.000Z',
    });
  });

  it.each([
    ['a missing amount', { currency: 'USD', beneficiaryId: ids.beneficiaryA1 }, { field: 'amount' }],
    ['a missing currency', { amount: '10', beneficiaryId: ids.beneficiaryA1 }, { field: 'currency' }],
    ['a missing beneficiaryId', { amount: '10', currency: 'USD' }, { field: 'beneficiaryId' }],
    ['an amount of zero', { ...valid, amount: '0' }, { field: 'amount', reason: 'AMOUNT_NOT_POSITIVE' }],
    ['a negative amount', { ...valid, amount: '-1' }, { field: 'amount' }],
    ['too many decimals for USD', { ...valid, amount: '1.005' }, { field: 'amount', reason: 'TOO_MANY_DECIMALS' }],
    ['an exponent', { ...valid, amount: '1e5' }, { field: 'amount' }],
    ['a lowercase currency', { ...valid, currency: 'usd' }, { field: 'currency' }],
    ['a currency the account does not hold', { ...valid, currency: 'AED' }, { field: 'currency', reason: 'CURRENCY_NOT_HELD' }],
    ['a malformed beneficiaryId', { ...valid, beneficiaryId: 'x' }, { field: 'beneficiaryId' }],
    ['an unknown query parameter', { ...valid, extra: '1' } as Query, { field: 'extra' }],
  ])('400 VALIDATION_ERROR for %s', async (_case, query, facts) => {
    const { error, response } = await estimate(query);
    expect(response.status).toBe(400);
    expect(error?.error).toMatchObject({ code: 'VALIDATION_ERROR', ...facts });
  });

  it("404 for another customer's account or beneficiary, an inactive beneficiary and a missing account", async () => {
    const cases = [
      estimate(valid, ids.accountBUsd),
      estimate({ ...valid, beneficiaryId: ids.beneficiaryB1 }),
      estimate({ ...valid, beneficiaryId: ids.beneficiaryAInactive }),
      estimate(valid, '7e570000-0000-4000-8000-00000000beef'),
      estimate(valid, ids.accountPartnerBank),
    ];
    for (const { error, response } of await Promise.all(cases)) {
      expect(response.status).toBe(404);
      expect(error?.error.code).toBe('NOT_FOUND');
    }
  });

  it('401 without a token', async () => {
    const { response, error } = await server.client.GET(path, { params: { path: { accountId: ids.accountAUsd }, query: valid } });
    expect(response.status).toBe(401);
    expect(error?.error.code).toBe('UNAUTHORIZED');
  });
});

describe('PUT /v1/admin/rates/{fromCurrencyCode}/{toCurrencyCode}', () => {
  const put = (from: string, to: string, rate: string, userId: string = ids.admin) =>
    server
      .as(userId)
      .PUT('/v1/admin/rates/{fromCurrencyCode}/{toCurrencyCode}', { params: { path: { fromCurrencyCode: from, toCurrencyCode: to } }, body: { rate } });

  it('creates or replaces a rate', async () => {
    const { data } = await put('USD', 'EUR', '0.92140');
    expect(data!.data).toMatchObject({ fromCurrencyCode: 'USD', toCurrencyCode: 'EUR', rate: '0.9214' });
  });

  it.each([
    ['a zero rate', 'USD', 'AED', '0', { field: '/rate', reason: 'RATE_OUT_OF_BOUNDS' }],
    ['the same currency', 'USD', 'USD', '1', { field: 'toCurrencyCode', reason: 'SAME_CURRENCY_PAIR' }],
    ['an unknown currency', 'USD', 'GBP', '0.79', { field: 'toCurrencyCode', reason: 'UNKNOWN_CURRENCY' }],
    ['a malformed rate', 'USD', 'AED', '3,67', { field: '/rate' }],
  ])('400 for %s', async (_case, from, to, rate, facts) => {
    const { error, response } = await put(from, to, rate);
    expect(response.status).toBe(400);
    expect(error?.error).toMatchObject({ code: 'VALIDATION_ERROR', ...facts });
  });
});
