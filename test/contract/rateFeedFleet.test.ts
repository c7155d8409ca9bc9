import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MalformedFeed } from '../../src/adapters/rates/rateFeed.js';
import { parseEcbXml, parseJsonFeed } from '../../src/adapters/rates/rateFeedParsers.js';
import { buildRateSource } from '../../src/composition/deps.js';
import { buildWorker } from '../../src/composition/worker.js';
import { loadConfig } from '../../src/config/config.js';
import { createLogger } from '../../src/observability/logger.js';
import type { Database } from '../../src/store/database/db.js';
import { PostgresDatabase } from '../../src/store/database/postgres.js';
import type { WorkerLoop } from '../../src/worker/loop.js';
import { testWorld } from '../fixtures/world.js';
import { type FreshDatabase, freshDatabase } from '../support/database.js';
import { waitFor } from '../support/polling.js';
import { type FeedServer, rateFixture, startFeedServer } from '../support/rateFeedServer.js';
import { TestClock } from '../support/server.js';

/**
 * A JSON rate feed (the shape commercial providers use, for the currencies the ECB does not
 * publish) polled by a fleet of two workers, each a worker loop with a pool of its own, on one
 * database: one poll per interval between them.
 */
let feed: FeedServer;
let database: FreshDatabase;
let second: Database;
const clock = new TestClock(new Date('2026-11-23T10:00:00.000Z'));
const envOf = (url: string) => ({
  NODE_ENV: 'test',
  WORKER_POLL_MS: '10',
  RATE_SOURCE: 'feed',
  RATE_FEED_URL: url,
  RATE_FEED_FORMAT: 'json',
  RATE_POLL_INTERVAL_S: '3600',
});
const config = (url: string) => loadConfig(envOf(url));

beforeAll(async () => {
  feed = await startFeedServer('/latest.json');
  feed.serve(rateFixture('rates-usd-2026-11-23.json'));
  database = await freshDatabase();
  second = await PostgresDatabase.open(database.url);
});
afterAll(async () => {
  await second.close();
  await database.drop();
  await feed.close();
});

/** A worker loop on `db` on the test clock, counting its passes: each asks whether the feed's poll is due. */
function countedLoop(db: Database): { loop: WorkerLoop; passes: number } {
  const { loop, deps } = buildWorker(config(feed.url), db, createLogger('silent'), clock.now);
  const feedPoll = deps.rateFeed!;
  const counted = { loop, passes: 0 };
  deps.rateFeed = {
    poll: () => {
      counted.passes += 1;
      return feedPoll.poll();
    },
  };
  return counted;
}

describe('the rate feed polled by a fleet of two workers', () => {
  it('polls once per interval between them, and its rates serve the pairs through the base', async () => {
    const workers = [database.db, second].map(countedLoop);
    const passes = () => workers.map((worker) => worker.passes);
    /** Both loops' passes once each has made `more` since now: the feed's requests are read after them. */
    const afterPasses = async (more: number) => {
      const from = passes();
      await waitFor(`${more} more passes of each loop`, passes, (now) => now.every((n, i) => n >= from[i]! + more));
    };
    workers.forEach((worker) => worker.loop.start());
    try {
      await waitFor(
        'the first poll',
        () => feed.requests,
        (n) => n >= 1,
      );
      // Dozens of passes of both loops within the interval: no second poll.
      await afterPasses(20);
      expect(feed.requests).toBe(1);
      clock.advance(3600);
      await waitFor(
        'the poll of the next interval',
        () => feed.requests,
        (n) => n >= 2,
      );
      await afterPasses(20);
      expect(feed.requests).toBe(2);
    } finally {
      await Promise.all(workers.map((worker) => worker.loop.stop()));
    }
    const rates = buildRateSource(config(feed.url), database.db, clock.now);
    const usdAed = await rates.getRate('USD', 'AED');
    expect(usdAed).toMatchObject({ source: 'FEED', asOf: new Date('2026-11-23T09:00:00.000Z'), maxAgeMs: 86_400_000 });
    // 3.6725 as the feed writes it, never through a JS number.
    expect(usdAed!.rate.toFixed()).toBe('3.6725');
    // AED → JPY through USD: 155.7894 / 3.6725 = 42.42053097… → 10 significant digits.
    expect((await rates.getRate('AED', 'JPY'))!.rate.toFixed()).toBe('42.42053097');
    // BTC 1.0e-5 is not a plain decimal: refused, and USD itself (1, the base) is not stored.
    const stored = await database.db.query<{ currency_code: string }>('SELECT currency_code FROM fed_rates ORDER BY 1');
    expect(stored.map((row) => row.currency_code)).toEqual(['AED', 'EUR', 'JPY', 'SAR']);
  });
});

describe('pegs declared in the world file', () => {
  it('stand in for a currency the feed does not publish, at the anchor fed rate; RATE_PEGS wins for the same currency', async () => {
    const world = { ...testWorld, pegs: [{ anchor: 'USD', currency: 'USDC', rate: '1' }] };
    const pegged = await freshDatabase(world);
    try {
      const feedConfig = config(feed.url);
      const worker = buildWorker(feedConfig, pegged.db, createLogger('silent'), clock.now).deps;
      clock.advance(3600);
      expect(await worker.rateFeed!.poll()).toBe(1);
      const rates = buildRateSource(feedConfig, pegged.db, clock.now);
      const usdcAed = await rates.getRate('USDC', 'AED');
      expect(usdcAed).toMatchObject({ source: 'PEG', asOf: new Date('2026-11-23T09:00:00.000Z') });
      expect(usdcAed!.rate.toFixed()).toBe('3.6725');
      const configured = buildRateSource(loadConfig({ ...envOf(feed.url), RATE_PEGS: 'USD/USDC=0.9998' }), pegged.db, clock.now);
      expect((await configured.getRate('USD', 'USDC'))!.rate.toFixed()).toBe('0.9998');
    } finally {
      await pegged.drop();
    }
  });

  it('are checked when the world loads: a peg of an unknown currency is refused', async () => {
    const world = { ...testWorld, pegs: [{ anchor: 'USD', currency: 'SAR', rate: '3.75' }] };
    await expect(freshDatabase(world)).rejects.toMatchObject({ path: 'world.pegs[0].currency' });
  });
});

describe('the feed parsers', () => {
  it('read the ECB file as the strings it holds, 1 EUR = rate, dated by its Cube time', () => {
    const snapshot = parseEcbXml(rateFixture('eurofxref-2026-11-20.xml'));
    expect(snapshot.base).toBe('EUR');
    expect(snapshot.asOf.toISOString()).toBe('2026-11-20T00:00:00.000Z');
    expect(snapshot.rates.get('USD')).toBe('1.0412');
    expect(snapshot.rates.get('SEK')).toBe('11.4650');
    expect(snapshot.rates.has('AED')).toBe(false);
  });

  it('keep the digits of JSON numbers, and a string holding digits stays a string', () => {
    const snapshot = parseJsonFeed('{"base":"USD","timestamp":1795424400,"note":"3.10","rates":{"AED":3.67250,"JPY":155.7894}}');
    expect(snapshot.rates.get('AED')).toBe('3.67250');
    expect(snapshot.asOf.toISOString()).toBe('2026-11-23T09:00:00.000Z');
  });

  it.each([
    ['truncated XML', () => parseEcbXml(rateFixture('eurofxref-malformed.xml'))],
    ['an HTML error page', () => parseEcbXml('<html><body>Maintenance</body></html>')],
    ['XML without a dated Cube', () => parseEcbXml('<Envelope><Cube><Cube/></Cube></Envelope>')],
    ['JSON without a base', () => parseJsonFeed('{"timestamp":1,"rates":{"AED":3.67}}')],
    ['not JSON', () => parseJsonFeed('<html>')],
  ])('refuse %s as malformed', (_name, parse) => {
    expect(parse).toThrow(MalformedFeed);
  });
});
