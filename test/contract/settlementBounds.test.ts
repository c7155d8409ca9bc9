import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signPayoutFeeHash } from '../../src/domain/fees/feeHash.js';
import { Money } from '../../src/domain/money/money.js';
import { lockedPayoutFigures } from '../../src/usecases/fees/estimatePayoutFees.js';
import { ids } from '../fixtures/world.js';
import { balancesOf, expectSameBalances } from '../support/balances.js';
import { estimateAndCreate, quote, readRequest, recordFx } from '../support/payroll.js';
import { type TestServer, anyQuoteConfig, startTestServer, testConfig } from '../support/server.js';

/**
 * Bounds instead of 500s, through the typed client with response
 * validation on: each refused input gets its documented 400 naming the field and the bound.
 */

let server: TestServer;
beforeAll(async () => (server = await startTestServer({ config: anyQuoteConfig })));
afterAll(() => server.close());

const customer = () => server.as(ids.userA);
const admin = () => server.as(ids.admin);

function estimatePayroll(sourceAccountCurrencyId: string, entry: { beneficiaryId: string; amount: string }) {
  return customer().POST('/v1/customers/payroll/estimate', {
    body: { sourceAccountCurrencyId, payrollAccountCurrencyId: ids.acPartnerAed, amountSplitDetails: [entry] },
  });
}

function estimatePayout(accountId: string, query: { amount: string; currency: string }) {
  return customer().GET('/v1/accounts/{accountId}/payouts/estimate', {
    params: { path: { accountId }, query: { ...query, beneficiaryId: ids.beneficiaryA1 } },
  });
}

/** Any operation's answer: 400 VALIDATION_ERROR with these facts (where, by which rule), and a message for people. */
function expectValidationError(result: { response: Response; error?: unknown }, facts: { reason?: string; field?: string; entryIndex?: number }) {
  expect(result.response.status).toBe(400);
  const { error } = result.error as { error: { code: string; message: string } };
  expect(error).toMatchObject({ code: 'VALIDATION_ERROR', ...facts, message: expect.any(String) });
}

describe('POST /v1/customers/payroll/estimate: minor units', () => {
  it('a SOURCE amount with 3 places on a USD source: 400 naming the entry and the limit of USD', async () => {
    expectValidationError(await estimatePayroll(ids.acAUsd, { beneficiaryId: ids.beneficiaryA1, amount: '10.005' }), {
      reason: 'TOO_MANY_DECIMALS',
      field: '/amountSplitDetails/0/amount',
      entryIndex: 0,
    });
  });

  it('an entry converting to zero: 400 naming the entry (nothing is paid for nothing)', async () => {
    // 0.00000001 USDC × 3.653441 = 0.0000000365… → 0.00 AED
    expectValidationError(await estimatePayroll(ids.acAUsdc, { beneficiaryId: ids.beneficiaryA1, amount: '0.00000001' }), {
      reason: 'ZERO_PAYOUT',
      field: '/amountSplitDetails/0/amount',
      entryIndex: 0,
    });
    const [row] = await server.db.query<{ n: number }>('SELECT count(*)::int AS n FROM payroll_fee_estimates');
    expect(row!.n).toBe(0);
  });
});

describe('admin rates: RateString bounds', () => {
  const bounds = { reason: 'RATE_OUT_OF_BOUNDS', field: '/rate' };
  const putRate = (rate: string) =>
    admin().PUT('/v1/admin/rates/{fromCurrencyCode}/{toCurrencyCode}', {
      params: { path: { fromCurrencyCode: 'USD', toCurrencyCode: 'AED' } },
      body: { rate },
    });

  it('PUT /v1/admin/rates: below 10^-8, above 10^8, 15 significant digits or zero → 400; the rate is unchanged', async () => {
    expectValidationError(await putRate('0.000000000000000000000000000000001'), { field: '/rate' });
    expectValidationError(await putRate('0.000000001'), bounds);
    expectValidationError(await putRate('100000000.5'), bounds);
    expectValidationError(await putRate('3.67251234567891'), bounds);
    expectValidationError(await putRate('0'), bounds);
    const [row] = await server.db.query<{ rate: string }>("SELECT rate::text FROM exchange_rates WHERE from_code = 'USD' AND to_code = 'AED'");
    expect(row!.rate).toBe('3.6725');
  });

  it('quote and FX record rates out of bounds → 400, before anything changes', async () => {
    const { created } = await estimateAndCreate(customer(), [{ beneficiaryId: ids.beneficiaryA2, amount: '100.00' }]);
    const requestId = created.data!.data.id;
    const exchangeRate = { reason: 'RATE_OUT_OF_BOUNDS', field: '/exchangeRate' };
    expectValidationError(await quote(server, requestId, '100000001'), exchangeRate);
    expectValidationError(await quote(server, requestId, '0'), exchangeRate);
    expectValidationError(await recordFx(server, requestId, '0.000000001'), exchangeRate);
    // A quote that would make a split zero is refused, naming it: 0.01 USD × 0.1 = 0.001 → 0.00 AED.
    const tiny = (await estimateAndCreate(customer(), [{ beneficiaryId: ids.beneficiaryA5, amount: '0.01' }])).created.data!.data.id;
    expectValidationError(await quote(server, tiny, '0.1'), { reason: 'ZERO_PAYOUT', entryIndex: 0 });
    for (const id of [requestId, tiny]) expect((await readRequest(server, id)).status).toBe('PENDING');
  });
});

describe('single payouts: JSON-exact figures and the stored estimate', () => {
  it('GET …/payouts/estimate: an amount of more than 15 significant digits → 400; 15 pass', async () => {
    expectValidationError(await estimatePayout(ids.accountAUsdc, { amount: '999999999.12345678', currency: 'USDC' }), {
      reason: 'TOO_MANY_SIGNIFICANT_DIGITS',
      field: 'amount',
    });
    const fifteen = await estimatePayout(ids.accountAUsdc, { amount: '1234567.12345678', currency: 'USDC' });
    expect(fifteen.response.status).toBe(200);
    expect(fifteen.data!.data.amount).toBe(1234567.12345678);
  });

  it("a validly signed feeHash naming another account's estimate → 400 FEE_HASH_MISMATCH, never a 500; nothing debited", async () => {
    // A genuine estimate for A's USDC account, re-signed (with the server's secret) for a USD payout from A's USD account.
    const usdc = await estimatePayout(ids.accountAUsdc, { amount: '100.00', currency: 'USDC' });
    const [estimateId, expiresAtSeconds] = usdc.data!.data.feeHash.split(':');
    const figures = lockedPayoutFigures({ accountId: ids.accountAUsd, beneficiaryId: ids.beneficiaryA1, currency: 'USD', amount: new Money('100.00') });
    const forged = signPayoutFeeHash(testConfig.feeHashSecret, estimateId!, new Date(Number(expiresAtSeconds) * 1000), figures);
    const before = await balancesOf(server.db, ids.acAUsd);
    const created = await customer().POST('/v1/accounts/{accountId}/payouts', {
      params: { path: { accountId: ids.accountAUsd } },
      body: { feeHash: forged, beneficiaryId: ids.beneficiaryA1, amount: '100.00', currency: 'USD' },
    });
    expect(created.response.status).toBe(400);
    expect(created.error!.error.code).toBe('FEE_HASH_MISMATCH');
    expectSameBalances(await balancesOf(server.db, ids.acAUsd), before);
  });
});
