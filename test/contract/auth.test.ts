import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ids } from '../fixtures/world.js';
import { type TestServer, startTestServer, testConfig } from '../support/server.js';
import { hs256Token, unsignedToken } from '../support/tokens.js';

let server: TestServer;
beforeAll(async () => (server = await startTestServer()));
afterAll(() => server.close());

const path = '/v1/customers/payroll/requests/{requestId}' as const;
const params = { path: { requestId: ids.requestACompleted } };

async function withAuthorization(authorization: string | undefined) {
  return server.client.GET(path, { params, headers: authorization === undefined ? {} : { Authorization: authorization } });
}

describe('bearer authentication (section 5)', () => {
  it.each([
    ['missing', undefined, 'TOKEN_MISSING'],
    ['not a bearer scheme', 'Basic dXNlcjpwYXNz', 'TOKEN_MISSING'],
    ['malformed token', 'Bearer not.a.jwt', 'TOKEN_INVALID'],
    ['empty bearer', 'Bearer ', 'TOKEN_MISSING'],
  ])('401 UNAUTHORIZED for a %s Authorization header (%s)', async (_case, header, reason) => {
    const { error, response } = await withAuthorization(header);
    expect(response.status).toBe(401);
    expect(error).toEqual({ success: false, error: { code: 'UNAUTHORIZED', message: expect.any(String), reason } });
  });

  it('401 for an expired token, saying so', async () => {
    const past = Math.floor(Date.now() / 1000) - 7200;
    const token = await hs256Token({ iat: past, exp: past + 60 });
    const { error, response } = await withAuthorization(`Bearer ${token}`);
    expect(response.status).toBe(401);
    expect(error).toEqual({ success: false, error: { code: 'UNAUTHORIZED', message: expect.any(String), reason: 'TOKEN_EXPIRED' } });
  });

  it('401 for a token signed with another secret', async () => {
    const token = await hs256Token({}, new TextEncoder().encode('some-other-secret-of-enough-length-000'));
    const { error, response } = await withAuthorization(`Bearer ${token}`);
    expect(response.status).toBe(401);
    expect(error).toEqual({ success: false, error: { code: 'UNAUTHORIZED', message: expect.any(String), reason: 'TOKEN_INVALID' } });
  });

  it('401 for an unsigned (alg none) token and for a token naming no known user', async () => {
    expect((await withAuthorization(`Bearer ${unsignedToken()}`)).response.status).toBe(401);
    const stranger = await server.token('7b1e0000-0000-4000-8000-00000000dead');
    expect((await withAuthorization(`Bearer ${stranger}`)).error?.error.code).toBe('UNAUTHORIZED');
  });

  it('401 for a correctly signed token whose subject is not a user id (36 dashes, 36 f, a uuid in upper and lower case mixed with junk)', async () => {
    for (const sub of ['-'.repeat(36), 'f'.repeat(36), '7b1e0000-0000-4000-8000-00000000deadX', 'not-a-user']) {
      const { response, error } = await withAuthorization(`Bearer ${await hs256Token({ sub })}`);
      expect(response.status, sub).toBe(401);
      expect(error?.error.code).toBe('UNAUTHORIZED');
    }
  });

  it('200 with a valid token, and the token command signs tokens the server accepts', async () => {
    const token = await server.token(ids.userA, 60);
    expect((await withAuthorization(`Bearer ${token}`)).response.status).toBe(200);
  });

  it('403 FORBIDDEN for a customer on an admin operation; 403 for an admin on a customer-only operation', async () => {
    const asCustomer = await server.as(ids.userA).PUT('/v1/admin/rates/{fromCurrencyCode}/{toCurrencyCode}', {
      params: { path: { fromCurrencyCode: 'USD', toCurrencyCode: 'AED' } },
      body: { rate: '3.70' },
    });
    expect(asCustomer.response.status).toBe(403);
    expect(asCustomer.error?.error.code).toBe('FORBIDDEN');
    const asAdmin = await server.as(ids.admin).POST('/v1/customers/payroll/estimate', {
      body: {
        sourceAccountCurrencyId: ids.acAUsd,
        payrollAccountCurrencyId: ids.acPartnerAed,
        amountSplitDetails: [{ beneficiaryId: ids.beneficiaryA1, amount: '1' }],
      },
    });
    expect(asAdmin.response.status).toBe(403);
  });

  it('health and readiness need no token', async () => {
    expect((await server.client.GET('/healthz')).data).toEqual({ success: true, data: { status: 'ok' } });
    const ready = await server.client.GET('/readyz');
    expect(ready.data?.data.status).toBe('ready');
  });
});

/**
 * Token lifetime and scheme: a token needs `exp` (else it would never expire), a future `iat` is
 * refused, the scheme is case-insensitive (`bearer` too), and an empty Idempotency-Key is refused, not ignored.
 */
describe('token rules: exp required, no future iat or nbf beyond the skew, a maximum lifetime, any case of the scheme', () => {
  const secret = new TextEncoder().encode(testConfig.jwt.secret);
  const nowSeconds = () => Math.floor(Date.now() / 1000);
  /** An HS256 token for customer A with exactly these claims (none set by default). */
  const token = (claims: { iat?: number; nbf?: number; exp?: number }) => {
    let builder = new SignJWT({}).setProtectedHeader({ alg: 'HS256', typ: 'JWT' }).setSubject(ids.userA);
    if (claims.iat !== undefined) builder = builder.setIssuedAt(claims.iat);
    if (claims.nbf !== undefined) builder = builder.setNotBefore(claims.nbf);
    if (claims.exp !== undefined) builder = builder.setExpirationTime(claims.exp);
    return builder.sign(secret);
  };

  it.each([
    ['without exp', () => token({ iat: nowSeconds() }), 'TOKEN_INVALID'],
    ['issued 5 minutes in the future', () => token({ iat: nowSeconds() + 300, exp: nowSeconds() + 900 }), 'TOKEN_NOT_YET_VALID'],
    ['not valid before 5 minutes from now', () => token({ iat: nowSeconds(), nbf: nowSeconds() + 300, exp: nowSeconds() + 900 }), 'TOKEN_NOT_YET_VALID'],
    ['valid for 25 hours', () => token({ iat: nowSeconds(), exp: nowSeconds() + 25 * 3600 }), 'TOKEN_LIFETIME_TOO_LONG'],
    ['valid for 25 more hours, without iat', () => token({ exp: nowSeconds() + 25 * 3600 }), 'TOKEN_LIFETIME_TOO_LONG'],
    ['expired a second ago (no skew on exp)', () => token({ iat: nowSeconds() - 600, exp: nowSeconds() - 1 }), 'TOKEN_EXPIRED'],
  ])('401 for a token %s (%s)', async (_case, make, reason) => {
    const { error, response } = await withAuthorization(`Bearer ${await make()}`);
    expect(response.status).toBe(401);
    expect(error).toEqual({ success: false, error: { code: 'UNAUTHORIZED', message: expect.any(String), reason } });
  });

  it.each([
    ['issued 30 s in the future (within the 60 s skew)', () => token({ iat: nowSeconds() + 30, exp: nowSeconds() + 600 })],
    ['not valid before 30 s from now (within the skew)', () => token({ iat: nowSeconds(), nbf: nowSeconds() + 30, exp: nowSeconds() + 600 })],
    ['valid for exactly 24 hours', () => token({ iat: nowSeconds(), exp: nowSeconds() + 24 * 3600 })],
  ])('200 for a token %s', async (_case, make) => {
    expect((await withAuthorization(`Bearer ${await make()}`)).response.status).toBe(200);
  });

  it('matches the scheme case-insensitively (RFC 7235)', async () => {
    const valid = await server.token(ids.userA, 600);
    for (const scheme of ['Bearer', 'bearer', 'BEARER', 'bEaReR']) expect((await withAuthorization(`${scheme} ${valid}`)).response.status, scheme).toBe(200);
    expect((await withAuthorization(`Basic ${valid}`)).response.status).toBe(401);
  });

  it('400 VALIDATION_ERROR for an empty or blank Idempotency-Key, and nothing done', async () => {
    const before = await server.db.query<{ n: number }>('SELECT count(*)::int AS n FROM payroll_fee_estimates');
    const body = {
      sourceAccountCurrencyId: ids.acAUsd,
      payrollAccountCurrencyId: ids.acPartnerAed,
      amountSplitDetails: [{ beneficiaryId: ids.beneficiaryA1, amount: '1.00' }],
    };
    for (const key of ['', '   ', '\t']) {
      const response = await fetch(`${server.baseUrl}/v1/customers/payroll/estimate`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${await server.token(ids.userA)}`, 'Content-Type': 'application/json', 'Idempotency-Key': key },
        body: JSON.stringify(body),
      });
      expect(response.status, JSON.stringify(key)).toBe(400);
      expect(((await response.json()) as { error: { code: string } }).error.code).toBe('VALIDATION_ERROR');
    }
    expect(await server.db.query<{ n: number }>('SELECT count(*)::int AS n FROM payroll_fee_estimates')).toEqual(before);
  });
});
