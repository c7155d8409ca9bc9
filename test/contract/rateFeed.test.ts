import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { components } from '../../generated/api.js';
import { buildWorker } from '../../src/composition/worker.js';
import { type Config, loadConfig } from '../../src/config/config.js';
import { createLogger } from '../../src/observability/logger.js';
import { ids } from '../fixtures/world.js';
import { type FeedServer, rateFixture, startFeedServer } from '../support/rateFeedServer.js';
import { type TestServer, startTestServer } from '../support/server.js';

/**
 * RATE_SOURCE=feed with the ECB's XML, served from fixtures by a feed on loopback, and AED pegged to
 * USD: the worker's poll, the estimate's figures at a fed rate, and what a weekend, a malformed
 * body, an outage, a jump and a feed that stopped do to them. The test clock starts on Monday
 * 2026-11-23 10:00 UTC; the feed's first file is Friday's.
 */
let feed: FeedServer;
let server: TestServer;
let config: Config;
let poll: () => Promise<number>;

beforeAll(async () => {
  feed = await startFeedServer();
  config = loadConfig({
    NODE_ENV: 'test',
    VALIDATE_RESPONSES: 'true',
    RATE_SOURCE: 'feed',
    RATE_FEED_URL: feed.url,
    RATE_FEED_FORMAT: 'ecb-xml',
    RATE_POLL_INTERVAL_S: '60',
    RATE_PEGS: 'USD/AED=3.6725',
  });
  server = await startTestServer({ config });
  const worker = buildWorker(config, server.db, createLogger('silent'), server.clock.now).deps;
  poll = () => worker.rateFeed!.poll();
});
afterAll(async () => {
  await server.close();
  await feed.close();
});

type EstimateRequest = components['schemas']['EstimatePayrollFeeRequest'];
const toJpy: EstimateRequest = {
  sourceAccountCurrencyId: ids.acAUsd,
  payrollAccountCurrencyId: ids.acPartnerJpy,
  amountSplitDetails: [{ beneficiaryId: ids.beneficiaryA1, amount: '1000.00' }],
};
const toAed: EstimateRequest = {
  sourceAccountCurrencyId: ids.acAUsd,
  payrollAccountCurrencyId: ids.acPartnerAed,
  amountSplitDetails: [
    { beneficiaryId: ids.beneficiaryA1, amount: '1000.00' },
    { beneficiaryId: ids.beneficiaryA2, amount: '500.00' },
  ],
};

const estimate = (body: EstimateRequest) => server.as(ids.userA).POST('/v1/customers/payroll/estimate', { body });
const adminRates = async () => (await server.as(ids.admin).GET('/v1/admin/rates')).data!.data.items;
const pair = async (from: string, to: string) => (await adminRates()).find((item) => item.fromCurrencyCode === from && item.toCurrencyCode === to);
const storedUsd = async () =>
  (await server.db.query<{ rate: string; asOf: Date }>(`SELECT rate::text AS rate, as_of AS "asOf" FROM fed_rates WHERE currency_code = 'USD'`))[0];
const lastFailure = async () => (await server.db.query<{ last_failure: string | null }>('SELECT last_failure FROM rate_feed_state'))[0]!.last_failure;

/** Moves the test clock to `iso` (forward only). */
function clockTo(iso: string): void {
  server.clock.advance((Date.parse(iso) - server.clock.now().getTime()) / 1000);
}

describe('RATE_SOURCE=feed, ECB XML, AED pegged to USD', () => {
  it('before the first poll no pair has a rate: 400 EXCHANGE_RATE_UNAVAILABLE naming the pair', async () => {
    const { error, response } = await estimate(toJpy);
    expect(response.status).toBe(400);
    expect(error!.error).toEqual({
      code: 'EXCHANGE_RATE_UNAVAILABLE',
      message: expect.any(String),
      details: [{ message: expect.any(String), currencyPair: 'USD/JPY' }],
    });
  });

  it("over the weekend Friday's rates serve Monday's estimate, crossed through EUR, with exact figures", async () => {
    feed.serve(rateFixture('eurofxref-2026-11-20.xml'));
    expect(await poll()).toBe(1);
    const { data, response } = await estimate(toJpy);
    expect(response.status).toBe(200);
    // base = 162.05 / 1.0412 = 155.63772570… → 10 significant digits; eff = base × 0.995 (A's 50 BIPS).
    // 1000.00 USD × 154.8595370715 = 154859.537… → 154859 JPY (down); bank fee 150 JPY / eff = 0.9686… → 0.97 USD (up);
    // spread 1000.00 × 0.005 = 5.00; processor 1000.00 × 0.001 + 1 = 2.00 (its minimum).
    expect(data!.data).toMatchObject({ totalAmount: '1007.97', feeAmount: '7.97', estimatedReceivedAmount: '154859' });
    expect(data!.data.feeBreakdown).toEqual({
      sourceCurrencyAmount: '1000.00',
      spreadFee: '5.00',
      processorFee: '2.00',
      bankFee: '0.97',
      totalFee: '7.97',
      estimatedReceivedAmount: '154859',
      payrollCurrencyCode: 'JPY',
      feeCurrencyCode: 'USD',
      exchangeRate: '154.8595370715',
      baseRate: '155.6377257',
      rateSource: 'ECB',
      rateAsOf: '2026-11-20T00:00:00.000Z',
    });
  });

  it("a pegged currency is the anchor's fed rate times the peg: USD → AED is 3.6725, as old as the ECB's USD", async () => {
    const { data } = await estimate(toAed);
    expect(data!.data.feeBreakdown).toMatchObject({
      baseRate: '3.6725',
      exchangeRate: '3.6541375',
      totalFee: '12.74',
      rateSource: 'PEG',
      rateAsOf: '2026-11-20T00:00:00.000Z',
    });
    // EUR → AED: 1.0412 × 3.6725, exactly.
    expect(await pair('EUR', 'AED')).toMatchObject({ rate: '3.823807', source: 'PEG' });
  });

  it('GET /v1/admin/rates lists each pair with its source, asOf, fetch time, age, bound and usability; admin only', async () => {
    expect(await pair('EUR', 'USD')).toEqual({
      fromCurrencyCode: 'EUR',
      toCurrencyCode: 'USD',
      rate: '1.0412',
      source: 'ECB',
      asOf: '2026-11-20T00:00:00.000Z',
      fetchedAt: '2026-11-23T10:00:00.000Z',
      ageSeconds: 3 * 86_400 + 10 * 3600,
      maxAgeSeconds: 4 * 86_400,
      usable: true,
    });
    expect(await pair('USD', 'JPY')).toMatchObject({ rate: '155.6377257', source: 'ECB', usable: true });
    // USDC: neither published by the ECB nor pegged.
    expect(await pair('USDC', 'AED')).toBeUndefined();
    const refused = await server.as(ids.userA).GET('/v1/admin/rates');
    expect(refused.response.status).toBe(403);
    expect(refused.error!.error.code).toBe('FORBIDDEN');
  });

  it('GET /v1/admin/rates takes limit and cursor as every list: pages read every pair once, in pair order', async () => {
    const whole = (await server.as(ids.admin).GET('/v1/admin/rates')).data!.data;
    expect(whole.nextCursor).toBeNull();
    const pairs = whole.items.map((item) => `${item.fromCurrencyCode}/${item.toCurrencyCode}`);
    expect(pairs.length).toBeGreaterThan(3);
    const key = (text: string) => text.split('/') as [string, string];
    const ordered = [...pairs].sort((a, b) => (key(a)[0] === key(b)[0] ? (key(a)[1] < key(b)[1] ? -1 : 1) : key(a)[0] < key(b)[0] ? -1 : 1));
    expect(pairs).toEqual(ordered);
    const paged: string[] = [];
    let cursor: string | undefined;
    do {
      const page = (await server.as(ids.admin).GET('/v1/admin/rates', { params: { query: { limit: 3, cursor } } })).data!.data;
      expect(page.items.length).toBeLessThanOrEqual(3);
      paged.push(...page.items.map((item) => `${item.fromCurrencyCode}/${item.toCurrencyCode}`));
      cursor = page.nextCursor ?? undefined;
    } while (cursor);
    expect(paged).toEqual(pairs);
    const foreign = await server.as(ids.admin).GET('/v1/admin/rates', { params: { query: { cursor: 'eyJjIjoiMjAyNi0xMS0yNVQxMDowMDowMC4wMDBaIn0' } } });
    expect(foreign.response.status).toBe(400);
    expect(foreign.error!.error.field).toBe('cursor');
  });

  it('a malformed body replaces nothing, is recorded, and the next poll waits for the interval', async () => {
    server.clock.advance(60);
    feed.serve(rateFixture('eurofxref-malformed.xml'));
    const asked = feed.requests;
    expect(await poll()).toBe(1);
    expect(await poll()).toBe(0);
    expect(feed.requests).toBe(asked + 1);
    expect(await storedUsd()).toEqual({ rate: '1.0412', asOf: new Date('2026-11-20T00:00:00Z') });
    expect(await lastFailure()).toMatch(/^malformed: not well-formed XML/);
  });

  it('an outage and an HTTP error replace nothing', async () => {
    server.clock.advance(60);
    feed.outage();
    await poll();
    expect(await lastFailure()).toMatch(/^unreachable: cannot reach/);
    server.clock.advance(60);
    feed.serve('Service Unavailable', 503);
    await poll();
    expect(await lastFailure()).toMatch(/^unreachable: .* answered HTTP 503$/);
    expect(await storedUsd()).toEqual({ rate: '1.0412', asOf: new Date('2026-11-20T00:00:00Z') });
    expect((await estimate(toJpy)).response.status).toBe(200);
  });

  it('a feed that stopped past RATE_MAX_AGE (4d) turns the estimate into EXCHANGE_RATE_UNAVAILABLE with the pair and its age', async () => {
    feed.outage();
    clockTo('2026-11-24T00:30:00.000Z');
    await poll();
    const { error, response } = await estimate(toAed);
    expect(response.status).toBe(400);
    expect(error!.error.code).toBe('EXCHANGE_RATE_UNAVAILABLE');
    expect(error!.error.details).toEqual([
      {
        message: expect.any(String),
        currencyPair: 'USD/AED',
        rateSource: 'PEG',
        rateAsOf: '2026-11-20T00:00:00.000Z',
        rateAgeSeconds: 4 * 86_400 + 1800,
        rateMaxAgeSeconds: 4 * 86_400,
      },
    ]);
    expect(await pair('USD', 'AED')).toMatchObject({ usable: false, ageSeconds: 4 * 86_400 + 1800 });
  });

  it('a jump beyond RATE_MAX_JUMP_BPS and a rate ≤ 0 are refused while the good rates of the same file are stored', async () => {
    clockTo('2026-11-24T15:00:00.000Z');
    feed.serve(rateFixture('eurofxref-2026-11-24-jump.xml'));
    await poll();
    // USD 1.3500 is 2966 BIPS from 1.0412 (the bound is 1000): refused; GBP 0 and CHF -0.9360 are not rates.
    expect(await storedUsd()).toEqual({ rate: '1.0412', asOf: new Date('2026-11-20T00:00:00Z') });
    expect(await lastFailure()).toBe('refused 3: USD 1.3500 (jump), GBP 0 (invalid_rate), CHF -0.9360 (invalid_rate)');
    // JPY 163.00 is stored (a rate is shown with the digits its value needs), but USD → JPY is as old as its older leg: still past its bound.
    expect(await pair('EUR', 'JPY')).toMatchObject({ rate: '163', asOf: '2026-11-24T00:00:00.000Z', usable: true });
    expect(await pair('USD', 'JPY')).toMatchObject({ rate: '156.5501345', asOf: '2026-11-20T00:00:00.000Z', usable: false });
    expect((await estimate(toJpy)).error!.error.code).toBe('EXCHANGE_RATE_UNAVAILABLE');
  });

  it('the feed back with good rates: the estimate uses them at once', async () => {
    clockTo('2026-11-25T15:00:00.000Z');
    feed.serve(rateFixture('eurofxref-2026-11-25.xml'));
    await poll();
    const { data } = await estimate(toAed);
    expect(data!.data.feeBreakdown).toMatchObject({ baseRate: '3.6725', rateSource: 'PEG', rateAsOf: '2026-11-25T00:00:00.000Z' });
    const jpy = await estimate(toJpy);
    expect(jpy.data!.data.feeBreakdown).toMatchObject({ baseRate: '156.097561', rateSource: 'ECB', rateAsOf: '2026-11-25T00:00:00.000Z' });
  });

  it("an admin's PUT is a manual rate: it takes precedence over the feed's while within its own bound", async () => {
    const put = await server.as(ids.admin).PUT('/v1/admin/rates/{fromCurrencyCode}/{toCurrencyCode}', {
      params: { path: { fromCurrencyCode: 'USD', toCurrencyCode: 'JPY' } },
      body: { rate: '150.5' },
    });
    expect(put.response.status).toBe(200);
    const manual = await estimate(toJpy);
    expect(manual.data!.data.feeBreakdown).toMatchObject({ baseRate: '150.5', rateSource: 'MANUAL', rateAsOf: '2026-11-25T15:00:00.000Z' });
    // RATE_MANUAL_MAX_AGE defaults to RATE_MAX_AGE: past it, the feed's rate is used again.
    clockTo('2026-11-29T16:00:00.000Z');
    feed.serve(rateFixture('eurofxref-2026-11-25.xml').replace("time='2026-11-25'", "time='2026-11-27'"));
    await poll();
    const fed = await estimate(toJpy);
    expect(fed.data!.data.feeBreakdown).toMatchObject({ baseRate: '156.097561', rateSource: 'ECB', rateAsOf: '2026-11-27T00:00:00.000Z' });
  });
});
