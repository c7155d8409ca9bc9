import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildWorker } from '../../src/composition/worker.js';
import { loadConfig } from '../../src/config/config.js';
import { createLogger } from '../../src/observability/logger.js';
import { installMetrics, metrics } from '../../src/observability/telemetry.js';
import { type FeedServer, startFeedServer } from '../support/rateFeedServer.js';
import { type TestServer, startTestServer } from '../support/server.js';

/**
 * The rate feed read as an answer that may be hostile (RATE_SOURCE=feed, the ECB's XML, from a
 * feed on loopback): a redirect is not followed, another content type is refused, an endless body
 * is cut off as it streams, and a rate that creeps a little every poll, or leaves its peg, is
 * stopped by the bounds over a day. Each refusal replaces nothing and says why.
 */
let feed: FeedServer;
let server: TestServer;
let poll: () => Promise<number>;
/** What payroll_rate_feed_failures_total was told, by reason. */
const counted: string[] = [];
const installed = metrics;

beforeAll(async () => {
  installMetrics({ ...installed, rateFeedFailure: (reason) => counted.push(reason) });
  feed = await startFeedServer();
  const config = loadConfig({
    NODE_ENV: 'test',
    RATE_SOURCE: 'feed',
    RATE_FEED_URL: feed.url,
    RATE_FEED_FORMAT: 'ecb-xml',
    RATE_POLL_INTERVAL_S: '60',
    RATE_MAX_JUMP_BPS: '1000',
    RATE_MAX_WINDOW_BPS: '2000',
    RATE_PEGS: 'USD/AED=3.6725',
  });
  server = await startTestServer({ config });
  const worker = buildWorker(config, server.db, createLogger('silent'), server.clock.now).deps;
  poll = async () => {
    // One poll per interval: the next one is due a minute later.
    server.clock.advance(60);
    return worker.rateFeed!.poll();
  };
}, 120_000);
afterAll(async () => {
  installMetrics(installed);
  await server?.close();
  await feed?.close();
});

/** The ECB's daily file of `day` with these rates (1 EUR = rate). */
function ecb(day: string, rates: Record<string, string>): string {
  const cubes = Object.entries(rates)
    .map(([currency, rate]) => `<Cube currency='${currency}' rate='${rate}'/>`)
    .join('');
  return `<?xml version="1.0" encoding="UTF-8"?>
<gesmes:Envelope xmlns:gesmes="http://www.gesmes.org/xml/2002-08-01" xmlns="http://www.ecb.int/vocabulary/2002-08-01/eurofxref">
<gesmes:subject>Reference rates</gesmes:subject><Cube><Cube time='${day}'>${cubes}</Cube></Cube></gesmes:Envelope>`;
}

const stored = async (currency: string) =>
  (await server.db.query<{ rate: string }>('SELECT rate::text AS rate FROM fed_rates WHERE currency_code = $1', [currency]))[0]?.rate;
const lastFailure = async () => (await server.db.query<{ last_failure: string | null }>('SELECT last_failure FROM rate_feed_state'))[0]!.last_failure;

describe('RATE_SOURCE=feed read as a hostile answer', () => {
  it('takes a good file first', async () => {
    feed.serve(ecb('2026-11-23', { USD: '1.0412', JPY: '162.05' }));
    expect(await poll()).toBe(1);
    expect(await stored('USD')).toBe('1.0412');
  });

  it('refuses a redirect without following it: a failed poll, the reason recorded, nothing replaced', async () => {
    feed.redirect(`${feed.url}?moved=elsewhere`);
    const asked = feed.requests;
    expect(await poll()).toBe(1);
    expect(feed.requests).toBe(asked + 1);
    expect(await lastFailure()).toMatch(/^redirect: /);
    expect(await stored('USD')).toBe('1.0412');
  });

  it('refuses a body of another content type', async () => {
    feed.serve(ecb('2026-11-23', { USD: '1.05' }), 200, 'text/html');
    await poll();
    expect(await lastFailure()).toMatch(/^content_type: /);
    expect(await stored('USD')).toBe('1.0412');
  });

  it('cuts off an endless body as it streams: the poll fails, and the process holds no more than it did', async () => {
    const size = 200 * 1024 * 1024;
    feed.flood(size);
    const before = process.memoryUsage().rss;
    let peak = before;
    const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 5);
    try {
      await poll();
    } finally {
      clearInterval(sampler);
    }
    peak = Math.max(peak, process.memoryUsage().rss);
    expect(await lastFailure()).toMatch(/^too_large: /);
    expect(await stored('USD')).toBe('1.0412');
    // The connection was cut: the feed never got to write most of its body.
    expect(feed.sent).toBeLessThan(size / 2);
    // A behaviour bound, generous by design: the body was never gathered whole.
    expect(peak - before, `RSS ${Math.round(before / 2 ** 20)} MB before, ${Math.round(peak / 2 ** 20)} MB at the peak`).toBeLessThan(50 * 1024 * 1024);
  });

  it('stops a rate creeping 9% a poll at the bound over a day, though each step is within the jump bound', async () => {
    const seen: string[] = [];
    for (let step = 0; step < 8; step++) {
      // Always 9% above what we hold, so that no step is a jump.
      const usd = Number(await stored('USD')) * 1.09;
      feed.serve(ecb('2026-11-23', { USD: usd.toFixed(4), JPY: '162.05' }));
      await poll();
      seen.push((await stored('USD'))!);
    }
    // Every stored rate stays within 20% of the day's first; the refusal says why.
    for (const rate of seen) expect(Number(rate), seen.join(', ')).toBeLessThanOrEqual(1.0412 * 1.2);
    expect(await lastFailure()).toMatch(/USD [\d.]+ \(window\)/);
    expect(Number(await stored('USD'))).toBeGreaterThan(1.0412);
  });

  it('bounds a pegged currency the feed publishes against its anchor times the peg', async () => {
    const usd = Number(await stored('USD'));
    feed.serve(ecb('2026-11-24', { USD: usd.toFixed(4), AED: (usd * 3.6725 * 1.3).toFixed(4) }));
    await poll();
    expect(await lastFailure()).toMatch(/AED [\d.]+ \(peg\)/);
    expect(await stored('AED')).toBeUndefined();
    const pegged = (usd * 3.6725).toFixed(4);
    feed.serve(ecb('2026-11-24', { USD: usd.toFixed(4), AED: pegged }));
    await poll();
    expect(await stored('AED')).toBe(pegged);
  });

  it('measures the window from the rate that stood a day before: a day later the rate may move on', async () => {
    server.clock.advance(25 * 3600);
    const held = Number(await stored('USD'));
    const next = (held * 1.09).toFixed(4);
    feed.serve(ecb('2026-11-25', { USD: next }));
    await poll();
    expect(await stored('USD')).toBe(next);
  });

  it('counts every failed poll and refused rate in payroll_rate_feed_failures_total, by reason', () => {
    expect(new Set(counted)).toEqual(new Set(['redirect', 'content_type', 'too_large', 'window', 'peg']));
  });
});
