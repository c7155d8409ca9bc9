// OpenID Connect sign-in against a real OpenID provider: panva's oidc-provider, in this process on
// loopback, issuing JWT access tokens for the API (a resource indicator, RFC 8707) signed with a
// key the API reads from the provider's JWKS (JWT_JWKS_URL), with the issuer and audience the API
// checks. Chromium opens a console address, is sent to the provider, signs in on its development
// interaction pages as Dana (the login is her user id, the token's `sub`), comes back to the same
// address, and the console calls the API as her; no token is left in localStorage or sessionStorage.
import { once } from 'node:events';
import { type Server, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readFileSync } from 'node:fs';
import { exportJWK, generateKeyPair } from 'jose';
import Provider, { errors } from 'oidc-provider';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../../src/config/config.js';
import { ensureConsole, inRepo } from '../../support/build.js';
import { hasChromium, launchChromium, warnIfNoChromium } from '../../support/chromium.js';
import { TEST_ENV, type TestServer, startTestServer } from '../../support/server.js';

warnIfNoChromium('console OIDC sign-in test');

const CLIENT_ID = 'payroll-console';
/** The API as a resource: the access token's audience, JWT_AUDIENCE. */
const AUDIENCE = 'https://payroll.test/api';
const world = JSON.parse(readFileSync(inRepo('worlds', 'demo.json'), 'utf8')) as { users: { id: string; firstName: string; role: string }[] };
const DANA = world.users.find((user) => user.firstName === 'Dana')!;

let providerServer: Server;
let issuer: string;
let server: TestServer;
let browser: Browser;

/** The provider: one public client (PKCE, no secret) returning to the console, JWT access tokens for the API only. */
async function provider(consoleOrigin: string, keys: object[]): Promise<Provider> {
  return new Provider(issuer, {
    clients: [
      {
        client_id: CLIENT_ID,
        token_endpoint_auth_method: 'none',
        redirect_uris: [`${consoleOrigin}/console/oidc/callback`],
        grant_types: ['authorization_code'],
        response_types: ['code'],
      },
    ],
    jwks: { keys },
    cookies: { keys: ['oidc-test-cookie-key'] },
    ttl: { AccessToken: 600, AuthorizationCode: 60, IdToken: 600, Interaction: 600, Session: 600, Grant: 600 },
    scopes: ['openid', 'payroll'],
    // The console's page calls the token endpoint from its own origin.
    clientBasedCORS: (_ctx, origin) => origin === consoleOrigin,
    findAccount: (_ctx, id) => ({ accountId: id, claims: () => ({ sub: id }) }),
    features: {
      devInteractions: { enabled: true },
      resourceIndicators: {
        enabled: true,
        defaultResource: () => AUDIENCE,
        useGrantedResource: () => true,
        getResourceServerInfo: (_ctx, indicator) => {
          if (indicator !== AUDIENCE) throw new errors.InvalidTarget();
          return { scope: 'payroll', audience: AUDIENCE, accessTokenTTL: 600, accessTokenFormat: 'jwt', jwt: { sign: { alg: 'RS256' } } };
        },
      },
    },
  });
}

beforeAll(async () => {
  if (!hasChromium) return;
  providerServer = createServer();
  providerServer.listen(0, '127.0.0.1');
  await once(providerServer, 'listening');
  issuer = `http://127.0.0.1:${(providerServer.address() as AddressInfo).port}`;
  const config = loadConfig({
    ...TEST_ENV,
    JWT_ISSUER: issuer,
    JWT_JWKS_URL: `${issuer}/jwks`,
    JWT_AUDIENCE: AUDIENCE,
    CONSOLE_OIDC_CLIENT_ID: CLIENT_ID,
    CONSOLE_OIDC_SCOPE: 'openid payroll',
  });
  server = await startTestServer({ world, config: { ...config, console: { ...config.console, dir: ensureConsole() } } });
  const { privateKey } = await generateKeyPair('RS256', { extractable: true });
  const key = { ...(await exportJWK(privateKey)), kid: 'oidc-test', alg: 'RS256', use: 'sig' };
  providerServer.on('request', (await provider(server.baseUrl, [key])).callback());
  browser = await launchChromium();
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await server?.close();
  providerServer?.close();
});

describe.skipIf(!hasChromium)('OpenID Connect sign-in in Chromium', () => {
  it('signs Dana in at the provider, comes back to the address she opened, and calls the API with a token kept in memory only', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    // Nothing leaves loopback (the provider's development pages import a web font).
    await context.route(/^https?:\/\/(?!127\.0\.0\.1[:/])/, (route) => route.abort());
    const page = await context.newPage();
    const tokens: string[] = [];
    page.on('request', (request) => {
      const authorization = request.headers().authorization;
      if (request.url().includes('/v1/') && authorization) tokens.push(authorization.replace(/^Bearer /, ''));
    });
    await page.goto(`${server.baseUrl}/console/beneficiaries`);
    expect(await page.getByRole('button', { name: /^Sign in as / }).count()).toBe(0);
    await page.getByRole('button', { name: 'Sign in with your identity provider' }).click();

    await page.waitForURL((url) => url.origin !== server.baseUrl);
    await page.locator('input[name="login"]').fill(DANA.id);
    await page.locator('input[name="password"]').fill('any password: development interactions');
    await page.getByRole('button', { name: 'Sign-in' }).click();
    await page.getByRole('button', { name: 'Continue' }).click();

    await page.getByRole('button', { name: 'Sign out' }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/console/beneficiaries');
    await page.getByText(/Dana Haddad \(customer/).waitFor();
    const answer = page.waitForResponse((response) => response.url().includes('/v1/customers/accounts'));
    await page.getByRole('link', { name: 'Accounts' }).click();
    expect((await answer).status()).toBe(200);
    await page.getByRole('link', { name: 'Statement of USD' }).first().waitFor();

    expect(tokens.length).toBeGreaterThan(0);
    const [, payload] = tokens[0]!.split('.');
    const claims = JSON.parse(Buffer.from(payload!, 'base64url').toString()) as { sub: string; aud: string; iss: string };
    expect(claims).toMatchObject({ sub: DANA.id, aud: AUDIENCE, iss: issuer });
    const stored = await page.evaluate(() => JSON.stringify([{ ...window.localStorage }, { ...window.sessionStorage }]));
    // oidc-client-ts keeps the sign-in's transient state (PKCE verifier) in sessionStorage across the redirect, and removes it.
    expect(JSON.parse(stored)).toEqual([{}, {}]);
    for (const token of new Set(tokens)) expect(stored).not.toContain(token);
    expect(stored).not.toMatch(/access_token|eyJ/);
  });
});
