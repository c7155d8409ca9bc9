import type { AddressInfo } from 'node:net';
import express from 'express';
import helmet from 'helmet';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/config.js';
import { signAccessToken } from '../../src/http/access/tokens.js';
import { connectedSharedLimits } from '../support/redis.js';
import type { Database } from '../../src/store/database/db.js';
import { ids } from '../fixtures/world.js';
import { freshDatabase } from '../support/database.js';
import { redisAnswers } from '../support/redis.js';
import { serveApp } from '../support/server.js';

const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const hasRedis = await redisAnswers(REDIS_URL);
if (!hasRedis) console.log(`[rate limiting with Redis] skipped: no Redis answers at ${REDIS_URL} (set REDIS_URL)`);
const config = loadConfig({ NODE_ENV: 'test', RATE_LIMIT_PER_MINUTE: '5', CORS_ORIGINS: 'https://app.payroll.example' });

let db: Database;
let drop: () => Promise<void>;
beforeAll(async () => ({ db, drop } = await freshDatabase()));
afterAll(() => drop());

const readPath = `/v1/customers/payroll/requests/${ids.requestACompleted}`;

describe('rate limiting per token', () => {
  it('answers 429 RATE_LIMITED in the envelope with Retry-After and RateLimit-* headers, per token', async () => {
    const { url, close } = await serveApp(config, db);
    const [tokenA, tokenB] = [await signAccessToken(config.jwt, ids.userA), await signAccessToken(config.jwt, ids.userB)];
    const get = (token: string) => fetch(url + readPath, { headers: { Authorization: `Bearer ${token}` } });
    const first = await get(tokenA);
    expect(first.headers.get('ratelimit-limit')).toBe('5');
    expect(first.headers.get('ratelimit-remaining')).toBe('4');
    for (let n = 0; n < 4; n++) await get(tokenA);
    const limited = await get(tokenA);
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toBe('60');
    expect(limited.headers.get('ratelimit-reset')).toMatch(/^\d+$/);
    expect(await limited.json()).toEqual({ success: false, error: { code: 'RATE_LIMITED', message: expect.any(String) } });
    expect((await get(tokenB)).status).toBe(404); // another token has its own budget (and B cannot see A's request)
    await close();
  });

  it.skipIf(!hasRedis)('with Redis, two instances share one budget', async () => {
    const prefix = `payroll-rl-test-${Date.now()}:`;
    const [one, two] = [await connectedSharedLimits(REDIS_URL, prefix), await connectedSharedLimits(REDIS_URL, prefix)];
    const a = await serveApp(config, db, { sharedLimits: one });
    const b = await serveApp(config, db, { sharedLimits: two });
    const token = await signAccessToken(config.jwt, ids.userA);
    const statuses: number[] = [];
    for (let n = 0; n < 6; n++) {
      const target = n % 2 === 0 ? a.url : b.url;
      statuses.push((await fetch(target + readPath, { headers: { Authorization: `Bearer ${token}` } })).status);
    }
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429]);
    await a.close();
    await b.close();
    await one.close();
    await two.close();
  });
});

describe('security headers and CORS', () => {
  it("sends helmet's headers; CORS only for configured origins", async () => {
    const { url, close } = await serveApp(config, db);
    const allowed = await fetch(`${url}/healthz`, { headers: { Origin: 'https://app.payroll.example' } });
    expect(allowed.headers.get('x-content-type-options')).toBe('nosniff');
    expect(allowed.headers.get('strict-transport-security')).toContain('max-age=');
    expect(allowed.headers.get('access-control-allow-origin')).toBe('https://app.payroll.example');
    const other = await fetch(`${url}/healthz`, { headers: { Origin: 'https://evil.example' } });
    expect(other.headers.get('access-control-allow-origin')).toBeNull();
    await close();
    const withoutCors = await serveApp(loadConfig({ NODE_ENV: 'test' }), db);
    const none = await fetch(`${withoutCors.url}/healthz`, { headers: { Origin: 'https://app.payroll.example' } });
    expect(none.headers.get('access-control-allow-origin')).toBeNull();
    await withoutCors.close();
  });

  it('sends exactly the headers helmet itself sets, worked out once at start-up', async () => {
    const bare = express().use(helmet(), (_req, res) => void res.end());
    const listening = bare.listen(0, '127.0.0.1');
    await new Promise((ready) => listening.once('listening', ready));
    const helmets = await fetch(`http://127.0.0.1:${(listening.address() as AddressInfo).port}/healthz`);
    listening.close();
    const { url, close } = await serveApp(config, db);
    const ours = await fetch(`${url}/healthz`);
    await close();
    const named = [...helmets.headers.keys()].filter((name) => !['date', 'connection', 'keep-alive', 'content-length', 'transfer-encoding'].includes(name));
    expect(named.length).toBeGreaterThan(8);
    for (const name of named) expect([name, ours.headers.get(name)]).toEqual([name, helmets.headers.get(name)]);
  });
});
