import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ids } from '../fixtures/world.js';
import { type TestServer, startTestServer } from '../support/server.js';
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
    ['missing', undefined],
    ['not a bearer scheme', 'Basic dXNlcjpwYXNz'],
    ['malformed token', 'Bearer not.a.jwt'],
    ['empty bearer', 'Bearer '],
  ])('401 UNAUTHORIZED for a %s Authorization header', async (_case, header) => {
    const { error, response } = await withAuthorization(header);
    expect(response.status).toBe(401);
    expect(error?.success).toBe(false);
    expect(error?.error.code).toBe('UNAUTHORIZED');
  });

  it('401 for an expired token, saying so', async () => {
    const past = Math.floor(Date.now() / 1000) - 7200;
    const token = await hs256Token({ iat: past, exp: past + 60 });
    const { error, response } = await withAuthorization(`Bearer ${token}`);
    expect(response.status).toBe(401);
    expect(error).toEqual({ success: false, error: { code: 'UNAUTHORIZED', message: 'The access token has expired' } });
  });

  it('401 for a token signed with another secret', async () => {
    const token = await hs256Token({}, new TextEncoder().encode('some-other-secret-of-enough-length-000'));
    const { error, response } = await withAuthorization(`Bearer ${token}`);
    expect(response.status).toBe(401);
    expect(error).toEqual({ success: false, error: { code: 'UNAUTHORIZED', message: 'The access token is invalid' } });
  });

  it('401 for an unsigned (alg none) token and for a token naming no known user', async () => {
    expect((await withAuthorization(`Bearer ${unsignedToken()}`)).response.status).toBe(401);
    const stranger = await server.token('7b1e0000-0000-4000-8000-00000000dead');
    expect((await withAuthorization(`Bearer ${stranger}`)).error?.error.code).toBe('UNAUTHORIZED');
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
      body: { sourceAccountCurrencyId: ids.acAUsd, payrollAccountCurrencyId: ids.acPartnerAed, amountSplitDetails: [{ beneficiaryId: ids.beneficiaryA1, amount: '1' }] },
    });
    expect(asAdmin.response.status).toBe(403);
  });

  it('health and readiness need no token', async () => {
    expect((await server.client.GET('/healthz')).data).toEqual({ success: true, data: { status: 'ok' } });
    const ready = await server.client.GET('/readyz');
    expect(ready.data?.data.status).toBe('ready');
  });
});
