import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type PayrollClient, createPayrollClient } from '../../packages/client/src/index.js';
import { buildApp } from '../../src/composition/app.js';
import { loadConfig } from '../../src/config/config.js';
import { signAccessToken } from '../../src/http/access/tokens.js';
import { createLogger } from '../../src/observability/logger.js';
import { listApiKeyAudit } from '../../src/store/access/apiKeys.js';
import type { UseCaseDeps } from '../../src/usecases/deps.js';
import { ids } from '../fixtures/world.js';
import { type FreshDatabase, freshDatabase } from '../support/database.js';
import { type Listening, listen } from '../support/http.js';
import { estimateAndCreate } from '../support/payroll.js';
import { TestClock, testConfig } from '../support/server.js';

/** Every line the app logs, at every level: what an operator's log pipeline would receive. */
const logged: string[] = [];
const capture = new Writable({
  write(chunk: Buffer, _encoding, done) {
    logged.push(chunk.toString());
    done();
  },
});

let database: FreshDatabase;
let listening: Listening;
let deps: UseCaseDeps;
const clock = new TestClock();

/** The app with a given per-minute budget, logging everything into `logged`. */
async function serve(perMinute?: number): Promise<{ listening: Listening; deps: UseCaseDeps }> {
  const config = perMinute === undefined ? testConfig : loadConfig({ NODE_ENV: 'test', VALIDATE_RESPONSES: 'true', RATE_LIMIT_PER_MINUTE: String(perMinute) });
  const built = buildApp(config, database.db, createLogger('trace', capture), clock.now);
  return { listening: await listen(built.app), deps: built.deps };
}

beforeAll(async () => {
  database = await freshDatabase();
  ({ listening, deps } = await serve());
});
afterAll(async () => {
  deps.apiKeyUsage?.stop();
  await listening.close();
  await database.drop();
});

const userClient = (userId: string = ids.userA, baseUrl = listening.url) =>
  createPayrollClient({ baseUrl, token: () => signAccessToken(testConfig.jwt, userId) });
const keyClient = (secret: string, baseUrl = listening.url): PayrollClient => createPayrollClient({ baseUrl, token: secret });

async function createKey(body: { name: string; expiresAt?: string } = { name: 'ERP nightly sync' }, baseUrl = listening.url) {
  const created = await userClient(ids.userA, baseUrl).POST('/v1/customers/api-keys', { body });
  expect(created.response.status, JSON.stringify(created.error)).toBe(201);
  return created.data!.data;
}

describe('POST /v1/customers/api-keys', () => {
  it('returns the secret once, with a visible prefix; the list never shows it again', async () => {
    const key = await createKey();
    expect(key.secret).toMatch(/^sk_test_[0-9a-f]{12}_[A-Za-z0-9_-]{43}$/);
    expect(key.secret.startsWith(`${key.prefix}_`)).toBe(true);
    const listed = await userClient().GET('/v1/customers/api-keys');
    expect(listed.response.status).toBe(200);
    const item = listed.data!.data.items.find((candidate) => candidate.id === key.id)!;
    expect(item).toEqual({
      id: key.id,
      name: 'ERP nightly sync',
      prefix: key.prefix,
      createdAt: key.createdAt,
      expiresAt: null,
      lastUsedAt: null,
      revokedAt: null,
    });
    expect(JSON.stringify(listed.data)).not.toContain(key.secret.slice(key.prefix.length));
    const stored = await database.db.query<{ row: string }>('SELECT row_to_json(k)::text AS row FROM api_keys k WHERE id = $1', [key.id]);
    expect(stored[0]!.row).not.toContain(key.secret.slice(key.prefix.length + 1));
  });

  it('refuses an expiry in the past, and another customer cannot see the key', async () => {
    const past = await userClient().POST('/v1/customers/api-keys', { body: { name: 'old', expiresAt: '2020-01-01T00:00:00.000Z' } });
    expect(past.response.status).toBe(400);
    expect(past.error!.error.field).toBe('/expiresAt');
    const key = await createKey();
    const other = await userClient(ids.userB).DELETE('/v1/customers/api-keys/{apiKeyId}', { params: { path: { apiKeyId: key.id } } });
    expect(other.response.status).toBe(404);
    const admin = await userClient(ids.admin).GET('/v1/customers/api-keys');
    expect(admin.response.status).toBe(403);
  });
});

describe('GET /v1/customers/api-keys', () => {
  it('takes limit and cursor as every list: pages read every key once, newest first, and a foreign cursor is refused', async () => {
    for (const name of ['page one', 'page two', 'page three']) await createKey({ name });
    const whole = await userClient().GET('/v1/customers/api-keys');
    expect(whole.data!.data.nextCursor).toBeNull();
    const all = whole.data!.data.items;
    expect(all.length).toBeGreaterThanOrEqual(3);
    const order = [...all].sort((a, b) => (a.createdAt === b.createdAt ? (a.id < b.id ? 1 : -1) : a.createdAt < b.createdAt ? 1 : -1));
    expect(all.map((key) => key.id)).toEqual(order.map((key) => key.id));
    const paged: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await userClient().GET('/v1/customers/api-keys', { params: { query: { limit: 2, cursor } } });
      expect(page.response.status).toBe(200);
      expect(page.data!.data.items.length).toBeLessThanOrEqual(2);
      paged.push(...page.data!.data.items.map((key) => key.id));
      cursor = page.data!.data.nextCursor ?? undefined;
    } while (cursor);
    expect(paged).toEqual(all.map((key) => key.id));
    // Another list's cursor (same keyset shape), a malformed one and a limit outside 1 to 100 are 400s naming the parameter.
    await userClient().POST('/v1/customers/webhook-endpoints', {
      body: { url: 'https://hooks.example.com/a', eventTypes: ['payroll_request.status_changed'] },
    });
    await userClient().POST('/v1/customers/webhook-endpoints', {
      body: { url: 'https://hooks.example.com/b', eventTypes: ['payroll_request.status_changed'] },
    });
    const endpoints = await userClient().GET('/v1/customers/webhook-endpoints', { params: { query: { limit: 1 } } });
    const foreign = endpoints.data!.data.nextCursor!;
    expect(foreign).toEqual(expect.any(String));
    for (const query of [{ cursor: foreign }, { cursor: 'bm90LWEtY3Vyc29y' }, { limit: 0 }, { limit: 101 }]) {
      const refused = await userClient().GET('/v1/customers/api-keys', { params: { query } });
      expect(refused.response.status, JSON.stringify(query)).toBe(400);
      expect(refused.error!.error.field).toBe(Object.keys(query)[0]);
    }
  });
});

describe('Authorization: Bearer <API key>', () => {
  it('estimates and creates a payroll as its customer, and reads it back', async () => {
    const key = await createKey();
    const api = keyClient(key.secret);
    const { created } = await estimateAndCreate(api, [{ beneficiaryId: ids.beneficiaryA1, amount: '100.00' }]);
    expect(created.response.status, JSON.stringify(created.error)).toBe(201);
    const read = await api.GET('/v1/customers/payroll/requests/{requestId}', { params: { path: { requestId: created.data!.data.id } } });
    expect(read.response.status).toBe(200);
    expect(read.data!.data.id).toBe(created.data!.data.id);
  });

  it('is refused on admin operations (403) and cannot manage keys (403 API_KEY_NOT_ALLOWED)', async () => {
    const api = keyClient((await createKey()).secret);
    const admin = await api.GET('/v1/admin/payroll/requests');
    expect(admin.response.status).toBe(403);
    expect(admin.error!.error.code).toBe('FORBIDDEN');
    const mint = await api.POST('/v1/customers/api-keys', { body: { name: 'another' } });
    expect(mint.response.status).toBe(403);
    expect(mint.error!.error.reason).toBe('API_KEY_NOT_ALLOWED');
    expect((await api.GET('/v1/customers/api-keys')).response.status).toBe(403);
  });

  it('is refused with 401 once revoked, expired or altered', async () => {
    const key = await createKey();
    const api = keyClient(key.secret);
    expect((await api.GET('/v1/customers/accounts')).response.status).toBe(200);
    const revoked = await userClient().DELETE('/v1/customers/api-keys/{apiKeyId}', { params: { path: { apiKeyId: key.id } } });
    expect(revoked.response.status).toBe(200);
    expect(revoked.data!.data.revokedAt).toBe(clock.now().toISOString());
    const after = await api.GET('/v1/customers/accounts');
    expect(after.response.status).toBe(401);
    expect(after.error).toMatchObject({ success: false, error: { code: 'UNAUTHORIZED', reason: 'API_KEY_REVOKED' } });
    expect(after.response.headers.get('x-request-id')).toBeTruthy();

    const altered = `${key.secret.slice(0, -1)}${key.secret.endsWith('A') ? 'B' : 'A'}`;
    expect((await keyClient(altered).GET('/v1/customers/accounts')).error!.error.reason).toBe('TOKEN_INVALID');

    const expiring = await createKey({ name: 'a minute', expiresAt: new Date(clock.now().getTime() + 60_000).toISOString() });
    expect((await keyClient(expiring.secret).GET('/v1/customers/accounts')).response.status).toBe(200);
    clock.advance(61);
    const expired = await keyClient(expiring.secret).GET('/v1/customers/accounts');
    expect(expired.response.status).toBe(401);
    expect(expired.error!.error.reason).toBe('TOKEN_EXPIRED');
  });

  it('is audited (created, every use, revoked) and shows lastUsedAt, without its secret in any log line', async () => {
    const key = await createKey();
    const api = keyClient(key.secret);
    await api.GET('/v1/customers/accounts');
    await api.GET('/v1/admin/payroll/requests');
    const listed = await userClient().GET('/v1/customers/api-keys');
    expect(listed.data!.data.items.find((item) => item.id === key.id)!.lastUsedAt).toBe(clock.now().toISOString());
    await userClient().DELETE('/v1/customers/api-keys/{apiKeyId}', { params: { path: { apiKeyId: key.id } } });
    const audit = await listApiKeyAudit(database.db, key.id);
    expect(audit.map((entry) => [entry.action, entry.method, entry.path, entry.statusCode])).toEqual([
      ['CREATED', null, null, null],
      ['USED', 'GET', '/v1/customers/accounts', 200],
      ['USED', 'GET', '/v1/admin/payroll/requests', 403],
      ['REVOKED', null, null, null],
    ]);
    expect(audit.filter((entry) => entry.action === 'USED').every((entry) => entry.requestId && entry.userId === ids.userA)).toBe(true);
    expect(logged.length).toBeGreaterThan(0);
    expect(logged.join('')).not.toContain(key.secret.slice(key.prefix.length + 1));
    // The second line of defence: a header logged by mistake is redacted.
    createLogger('info', capture).info({ headers: { authorization: `Bearer ${key.secret}` } }, 'by mistake');
    expect(logged.at(-1)).toContain('[redacted]');
    expect(logged.join('')).not.toContain(key.secret.slice(key.prefix.length + 1));
  });

  it('has a rate-limit budget of its own, apart from its user and other keys', async () => {
    const limited = await serve(4);
    try {
      const base = limited.listening.url;
      const first = await createKey({ name: 'first' }, base);
      const second = await createKey({ name: 'second' }, base);
      for (let i = 0; i < 4; i++) expect((await keyClient(first.secret, base).GET('/v1/customers/accounts')).response.status).toBe(200);
      const refused = await keyClient(first.secret, base).GET('/v1/customers/accounts');
      expect(refused.response.status).toBe(429);
      expect(refused.error!.error.code).toBe('RATE_LIMITED');
      expect((await keyClient(second.secret, base).GET('/v1/customers/accounts')).response.status).toBe(200);
      expect((await userClient(ids.userA, base).GET('/v1/customers/accounts')).response.status).toBe(200);
    } finally {
      limited.deps.apiKeyUsage?.stop();
      await limited.listening.close();
    }
  });
});
