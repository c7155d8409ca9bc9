// The console as the service serves it: its first load within the bundle budget (gzipped), its
// hashed assets cached for a year and index.html never, any address under /console/ answered with
// index.html (the console routes in the browser), none of it through the API's token check or
// validator; the development sign-in only on the development secret.
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../../src/config/config.js';
import { ensureConsole } from '../../support/build.js';
import { freshDatabase } from '../../support/database.js';
import { type Listening } from '../../support/http.js';
import { serveApp, testConfig } from '../../support/server.js';

/** The first load's budget: index.html and every script and style it loads, gzipped. */
const BUDGET_BYTES = 200 * 1024;

let dir: string;
let server: Listening;
let production: Listening;
let drop: () => Promise<void>;

beforeAll(async () => {
  dir = ensureConsole();
  const database = await freshDatabase();
  drop = database.drop;
  server = await serveApp({ ...testConfig, console: { ...testConfig.console, dir } }, database.db);
  const withSecret = loadConfig({ NODE_ENV: 'test', JWT_SECRET: 'a-real-secret-of-this-deployment-0123456789' });
  production = await serveApp({ ...withSecret, console: { ...withSecret.console, dir } }, database.db);
});
afterAll(async () => {
  await server?.close();
  await production?.close();
  await drop?.();
});

describe('the built console', () => {
  it('loads first in at most 200 KB gzipped, every asset content-hashed', () => {
    const html = readFileSync(join(dir, 'index.html'), 'utf8');
    const assets = [...html.matchAll(/(?:src|href)="\/console\/(assets\/[^"]+)"/g)].map((match) => match[1]!);
    expect(assets.length).toBeGreaterThanOrEqual(1);
    for (const asset of readdirSync(join(dir, 'assets'))) expect(asset).toMatch(/-[A-Za-z0-9_-]{8}\.(js|css|svg)$/);
    const bytes = [html, ...assets.map((asset) => readFileSync(join(dir, asset)))].reduce((sum, content) => sum + gzipSync(content).length, 0);
    console.log(`console first load: ${(bytes / 1024).toFixed(1)} KB gzipped (budget ${BUDGET_BYTES / 1024} KB)`);
    expect(bytes).toBeLessThanOrEqual(BUDGET_BYTES);
  });
});

describe('GET /console/…', () => {
  it('serves index.html, never cached, for the console and any address under it', async () => {
    for (const path of ['/console/', '/console', '/console/requests/7b1e0005-0000-4000-8000-000000000001', '/console/bank?x=1']) {
      const response = await fetch(server.url + path);
      expect(response.status, path).toBe(200);
      expect(response.headers.get('cache-control')).toBe('no-cache');
      expect(await response.text()).toContain('<div id="app">');
    }
  });

  it('serves the hashed assets cached for a year, and an unknown asset as the 404 envelope', async () => {
    const asset = readdirSync(join(dir, 'assets')).find((name) => name.endsWith('.js'))!;
    const response = await fetch(`${server.url}/console/assets/${asset}`);
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    const missing = await fetch(`${server.url}/console/assets/missing-00000000.js`);
    expect(missing.status).toBe(404);
    expect(((await missing.json()) as { error: { code: string } }).error.code).toBe('NOT_FOUND');
  });
});

describe('the development sign-in', () => {
  it('lists the users and signs a token the API accepts, on the development secret', async () => {
    const users = (await (await fetch(`${server.url}/console/dev/users`)).json()) as { data: { users: { id: string; role: string; name: string }[] } };
    const admin = users.data.users.find((user) => user.role === 'admin')!;
    const answer = await fetch(`${server.url}/console/dev/token`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ userId: admin.id }),
    });
    const { token } = ((await answer.json()) as { data: { token: string } }).data;
    const rates = await fetch(`${server.url}/v1/admin/rates`, { headers: { Authorization: `Bearer ${token}` } });
    expect(rates.status).toBe(200);
    const unknown = await fetch(`${server.url}/console/dev/token`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: '{"userId":"00000000-0000-4000-8000-000000000000"}',
    });
    expect(unknown.status).toBe(404);
    const session = await fetch(`${server.url}/console/session`, { headers: { Authorization: `Bearer ${token}` } });
    expect(session.headers.get('cache-control')).toBe('no-store');
    expect(((await session.json()) as { data: unknown }).data).toEqual({
      userId: admin.id,
      name: admin.name,
      role: 'admin',
      permissions: [],
      company: null,
    });
  });

  it('names the user of a token only when the API would accept it', async () => {
    const junk = await fetch(`${server.url}/console/session`, { headers: { Authorization: 'Bearer not-a-token' } });
    expect(junk.status).toBe(401);
    expect(((await junk.json()) as { error: { code: string; reason: string } }).error).toMatchObject({ code: 'UNAUTHORIZED', reason: 'TOKEN_INVALID' });
    const none = await fetch(`${server.url}/console/session`);
    expect(((await none.json()) as { error: { reason: string } }).error.reason).toBe('TOKEN_MISSING');
  });

  it('is refused with any other secret, and says it is off', async () => {
    const config = (await (await fetch(`${production.url}/console/config`)).json()) as { data: { developmentSignIn: boolean; oidc: unknown } };
    expect(config.data).toEqual({ developmentSignIn: false, oidc: null });
    expect((await fetch(`${production.url}/console/dev/users`)).status).toBe(404);
    const token = await fetch(`${production.url}/console/dev/token`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{}' });
    expect(token.status).toBe(404);
    expect(loadConfig({ NODE_ENV: 'development', DATABASE_URL: 'postgres://db/x' }).console.developmentSignIn).toBe(false);
    expect(loadConfig({ NODE_ENV: 'production' }).console.developmentSignIn).toBe(false);
  });
});

describe('the OpenID Connect settings', () => {
  const provider = { JWT_ISSUER: 'https://id.example.com/', JWT_JWKS_URL: 'https://id.example.com/jwks', JWT_AUDIENCE: 'https://payroll.example.com/api' };

  it('are served to the console: the issuer, the client, the scopes and the resource (the API as audience)', () => {
    expect(loadConfig({ ...provider, CONSOLE_OIDC_CLIENT_ID: 'console' }).console.oidc).toEqual({
      issuer: 'https://id.example.com/',
      clientId: 'console',
      scope: 'openid',
      resource: 'https://payroll.example.com/api',
    });
    expect(loadConfig(provider).console.oidc).toBeNull();
  });

  it('refuse a client without the provider the API verifies tokens with', () => {
    expect(() => loadConfig({ CONSOLE_OIDC_CLIENT_ID: 'console' })).toThrow(/JWT_ISSUER/);
    expect(() => loadConfig({ JWT_ISSUER: 'https://id.example.com/', CONSOLE_OIDC_CLIENT_ID: 'console' })).toThrow(/JWT_JWKS_URL/);
  });
});
