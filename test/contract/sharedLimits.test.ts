/**
 * Redis is an optimisation for limits shared by several instances, never a dependency: the service
 * starts and serves while Redis is away, says so in /readyz (200, `redis: degraded`), limits each
 * instance in its own memory meanwhile, and shares the limits again once Redis returns. The
 * probes are never rate limited.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/config.js';
import { signAccessToken } from '../../src/http/access/tokens.js';
import type { Database } from '../../src/store/database/db.js';
import { ids } from '../fixtures/world.js';
import { freshDatabase } from '../support/database.js';
import { settlesWithin, waitFor } from '../support/polling.js';
import { connectedSharedLimits, redisAnswers, sharedLimits } from '../support/redis.js';
import { TcpRelay } from '../support/relay.js';
import { serveApp } from '../support/server.js';

const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const hasRedis = await redisAnswers(REDIS_URL);
if (!hasRedis) console.log(`[shared limits] the Redis round trips skipped: no Redis answers at ${REDIS_URL} (set REDIS_URL)`);
const config = loadConfig({ NODE_ENV: 'test', RATE_LIMIT_PER_MINUTE: '4', RATE_LIMIT_ANONYMOUS_PER_MINUTE: '2' });
const readPath = `/v1/customers/payroll/requests/${ids.requestACompleted}`;

let db: Database;
let drop: () => Promise<void>;
beforeAll(async () => ({ db, drop } = await freshDatabase()));
afterAll(() => drop());

const readyz = async (url: string) => (await (await fetch(`${url}/readyz`)).json()) as { data: { status: string; redis?: string } };

describe('probes', () => {
  it('/healthz and /readyz are never rate limited (30 probes from one address, anonymous budget 2)', async () => {
    const { url, close } = await serveApp(config, db);
    const statuses = await Promise.all(Array.from({ length: 30 }, (_unused, i) => fetch(`${url}/${i % 2 ? 'healthz' : 'readyz'}`).then((r) => r.status)));
    expect(statuses).toEqual(Array(30).fill(200));
    // The anonymous budget still holds for everything else.
    const others = [];
    for (let i = 0; i < 3; i++) others.push((await fetch(url + readPath)).status);
    expect(others).toEqual([401, 401, 429]);
    await close();
  });
});

describe('Redis away', () => {
  it('unreachable at start: the service serves, /readyz is 200 degraded, the limits hold in memory', async () => {
    const limits = sharedLimits('redis://127.0.0.1:1', `payroll-test-${Date.now()}:`);
    expect(limits.state()).toBe('degraded');
    const { url, close } = await serveApp(config, db, { sharedLimits: limits });
    expect(await readyz(url)).toEqual({ success: true, data: { status: 'ready', database: expect.any(String), redis: 'degraded' } });
    const token = await signAccessToken(config.jwt, ids.userA);
    const fiveReads = async () => {
      const statuses = [];
      for (let n = 0; n < 5; n++) statuses.push((await fetch(url + readPath, { headers: { Authorization: `Bearer ${token}` } })).status);
      return statuses;
    };
    // A hang bound: a request that waited for Redis would wait until it answers, here never.
    expect(await settlesWithin('five reads while Redis is away', fiveReads(), 10_000)).toEqual([200, 200, 200, 200, 429]);
    await close();
    await limits.close();
  });

  it.skipIf(!hasRedis)('lost and back: memory while it is away, Redis again once it returns', async () => {
    const { relay, url: relayUrl } = await TcpRelay.start(REDIS_URL, 6379);
    const prefix = `payroll-test-${Date.now()}:`;
    const [one, two] = [await connectedSharedLimits(relayUrl, prefix), await connectedSharedLimits(relayUrl, prefix)];
    const a = await serveApp(config, db, { sharedLimits: one });
    const b = await serveApp(config, db, { sharedLimits: two });
    const token = await signAccessToken(config.jwt, ids.userB);
    const read = (base: string) => fetch(base + readPath, { headers: { Authorization: `Bearer ${token}` } }).then((r) => r.status);
    const states = () => [one.state(), two.state()];
    // Each app's rate limiter gives its window when the app is made; its Redis store is made then (a script load), not at once.
    await waitFor('both instances on Redis', states, (now) => now.every((state) => state === 'connected'), { deadlineMs: 15_000 });
    expect((await readyz(a.url)).data.redis).toBe('connected');
    expect([await read(a.url), await read(b.url)]).toEqual([404, 404]); // two of the shared budget of 4

    relay.refuse();
    await waitFor('both instances degraded', states, (now) => now.every((state) => state === 'degraded'));
    // Each instance now counts alone, from zero: four more each before its own 429.
    const fiveReads = async () => {
      const away = [];
      for (let n = 0; n < 5; n++) away.push(await read(a.url));
      return away;
    };
    // A hang bound: a request that waited for Redis would wait until the relay is restored.
    expect(await settlesWithin('five reads while Redis is away', fiveReads(), 10_000)).toEqual([404, 404, 404, 404, 429]);
    expect((await readyz(a.url)).data).toMatchObject({ status: 'ready', redis: 'degraded' });

    relay.restore();
    await waitFor('both instances back on Redis', states, (now) => now.every((state) => state === 'connected'));
    // Back on the shared budget: the two earlier requests count, so two more pass between both instances.
    expect([await read(a.url), await read(b.url), await read(a.url)]).toEqual([404, 404, 429]);
    await a.close();
    await b.close();
    await one.close();
    await two.close();
    await relay.close();
  });
});
