import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ids } from '../fixtures/world.js';
import { type TestServer, startTestServer } from '../support/server.js';

let server: TestServer;
let token: string;
beforeAll(async () => {
  server = await startTestServer();
  token = await server.token(ids.userA);
});
afterAll(() => server.close());

/** Raw fetch: these requests are ones the typed client cannot even express. */
async function raw(method: string, path: string, init: { body?: string; contentType?: string; auth?: boolean; headers?: Record<string, string> } = {}) {
  const headers: Record<string, string> = { ...init.headers };
  if (init.auth !== false) headers.Authorization = `Bearer ${token}`;
  if (init.contentType) headers['Content-Type'] = init.contentType;
  const response = await fetch(server.baseUrl + path, { method, headers, body: init.body });
  return { status: response.status, body: (await response.json()) as unknown, requestId: response.headers.get('x-request-id') };
}

const envelope = (code: string) => ({ success: false, error: { code, message: expect.any(String) } });

/** The answer is `status` with the error envelope of `code`. */
function expectRefused(result: { status: number; body: unknown }, status: number, code: string): void {
  expect(result.status).toBe(status);
  expect(result.body).toEqual(envelope(code));
}

describe('every error leaves as the envelope', () => {
  it('unknown route → 404 NOT_FOUND', async () => {
    expectRefused(await raw('GET', '/v1/nothing/here'), 404, 'NOT_FOUND');
  });

  it('malformed JSON → 400 VALIDATION_ERROR', async () => {
    const result = await raw('POST', '/v1/customers/payroll/estimate', { body: '{"sourceAccountCurrencyId": ', contentType: 'application/json' });
    expect(result.status).toBe(400);
    expect(result.body).toEqual({ success: false, error: { code: 'VALIDATION_ERROR', message: 'The request body is not valid JSON' } });
  });

  it('wrong method on a known path → 405 METHOD_NOT_ALLOWED', async () => {
    expectRefused(await raw('DELETE', '/v1/customers/payroll/estimate'), 405, 'METHOD_NOT_ALLOWED');
  });

  it('wrong content type → 415 UNSUPPORTED_MEDIA_TYPE', async () => {
    expectRefused(await raw('POST', '/v1/customers/payroll/estimate', { body: 'a=b', contentType: 'text/plain' }), 415, 'UNSUPPORTED_MEDIA_TYPE');
  });

  it('a body over the limit → 413 PAYLOAD_TOO_LARGE', async () => {
    const oversized = JSON.stringify({ pad: 'x'.repeat(13 * 1024 * 1024) }); // over BODY_LIMIT's 12 MB
    expectRefused(await raw('POST', '/v1/customers/payroll/estimate', { body: oversized, contentType: 'application/json' }), 413, 'PAYLOAD_TOO_LARGE');
  });

  it('a missing required field names it', async () => {
    const result = await raw('POST', '/v1/customers/payroll/estimate', {
      body: JSON.stringify({ sourceAccountCurrencyId: ids.acAUsd, amountSplitDetails: [] }),
      contentType: 'application/json',
    });
    expectRefused(result, 400, 'VALIDATION_ERROR');
    expect(JSON.stringify(result.body)).toContain('payrollAccountCurrencyId');
  });

  it('an unexpected failure → 500 INTERNAL_ERROR with no stack or SQL', async () => {
    await server.db.exec('ALTER TABLE beneficiaries RENAME TO beneficiaries_gone');
    try {
      const result = await raw('POST', '/v1/customers/payroll/estimate', {
        body: JSON.stringify({
          sourceAccountCurrencyId: ids.acAUsd,
          payrollAccountCurrencyId: ids.acPartnerAed,
          amountSplitDetails: [{ beneficiaryId: ids.beneficiaryA1, amount: '10' }],
        }),
        contentType: 'application/json',
      });
      expectRefused(result, 500, 'INTERNAL_ERROR');
      expect(JSON.stringify(result.body)).not.toMatch(/beneficiaries|SELECT|relation|at .*\.ts/);
    } finally {
      await server.db.exec('ALTER TABLE beneficiaries_gone RENAME TO beneficiaries');
    }
  });
});

describe('X-Request-Id', () => {
  it('is echoed when the client sends one', async () => {
    const result = await raw('GET', '/healthz', { auth: false, headers: { 'X-Request-Id': 'client-req-42' } });
    expect(result.requestId).toBe('client-req-42');
  });

  it('is generated when absent or unusable, on errors too', async () => {
    const generated = await raw('GET', '/v1/nothing', { auth: false });
    expect(generated.requestId).toMatch(/^[0-9a-f-]{36}$/);
    const unusable = await raw('GET', '/healthz', { auth: false, headers: { 'X-Request-Id': 'bad id with spaces' } });
    expect(unusable.requestId).toMatch(/^[0-9a-f-]{36}$/);
  });
});
