// The published client (client/index.ts) against the real app: bearer auth, Idempotency-Key,
// unwrap and PayrollApiError, and type checks that a wrong call does not compile (tsc --noEmit).
import { afterAll, beforeAll, describe, expect, expectTypeOf, it } from 'vitest';
import { PayrollApiError, createPayrollClient, isFinalPayrollStatus, unwrap, type components } from '../../../packages/client/src/index.js';
import { ids } from '../../fixtures/world.js';
import { thrownBy } from '../../support/errors.js';
import { type TestServer, startTestServer } from '../../support/server.js';

let server: TestServer;
beforeAll(async () => (server = await startTestServer()));
afterAll(() => server.close());

/** A fetch that records the headers of every request it forwards. */
function recordingFetch() {
  const seen: Headers[] = [];
  const fetcher = (request: Request) => {
    seen.push(new Headers(request.headers));
    return fetch(request);
  };
  return { seen, fetcher };
}

const requestId = () => ids.requestACompleted;

describe('createPayrollClient', () => {
  it('sends the bearer token, from a string or from a function', async () => {
    const token = await server.token(ids.userA);
    const { seen, fetcher } = recordingFetch();
    const fixed = createPayrollClient({ baseUrl: server.baseUrl, token, fetch: fetcher });
    const lazy = createPayrollClient({ baseUrl: server.baseUrl, token: async () => token, fetch: fetcher });
    for (const api of [fixed, lazy]) {
      const request = unwrap(await api.GET('/v1/customers/payroll/requests/{requestId}', { params: { path: { requestId: requestId() } } }));
      expect(request.id).toBe(ids.requestACompleted);
    }
    expect(seen.map((headers) => headers.get('authorization'))).toEqual([`Bearer ${token}`, `Bearer ${token}`]);
  });

  it('leaves an Authorization header set by the call alone', async () => {
    const api = createPayrollClient({ baseUrl: server.baseUrl, token: 'not-used' });
    const { error, response } = await api.GET('/v1/customers/payroll/requests/{requestId}', {
      params: { path: { requestId: requestId() } },
      headers: { Authorization: 'Bearer wrong' },
    });
    expect(response.status).toBe(401);
    expect(error?.error.code).toBe('UNAUTHORIZED');
  });

  it('sends idempotencyKey as the Idempotency-Key header, and only when given', async () => {
    const { seen, fetcher } = recordingFetch();
    const api = createPayrollClient({ baseUrl: server.baseUrl, token: () => server.token(ids.userA), fetch: fetcher });
    await api.GET('/healthz', { idempotencyKey: 'key-1', headers: { 'X-Request-Id': 'req-1' } });
    await api.GET('/healthz');
    await api.GET('/healthz', { idempotencyKey: undefined });
    expect(seen[0]!.get('idempotency-key')).toBe('key-1');
    expect(seen[0]!.get('x-request-id')).toBe('req-1');
    expect(seen[1]!.has('idempotency-key')).toBe(false);
    expect(seen[2]!.has('idempotency-key')).toBe(false);
    // @ts-expect-error -- the key is a string
    expect(() => api.GET('/healthz', { idempotencyKey: 42 })).toThrow(TypeError);
  });
});

describe('unwrap', () => {
  it('returns the envelope data, typed by the operation', async () => {
    const health = unwrap(await server.client.GET('/healthz'));
    expect(health).toEqual({ status: 'ok' });
    const request = unwrap(await server.as(ids.userA).GET('/v1/customers/payroll/requests/{requestId}', { params: { path: { requestId: requestId() } } }));
    expectTypeOf(request).toEqualTypeOf<components['schemas']['PayrollRequest']>();
    expect(isFinalPayrollStatus(request.status)).toBe(true);
  });

  it('throws PayrollApiError with status, code, message and request id from the error envelope', async () => {
    const api = server.as(ids.userA);
    const result = await api.GET('/v1/customers/payroll/requests/{requestId}', {
      params: { path: { requestId: '7e570007-0000-4000-8000-0000000000ff' }, header: { 'X-Request-Id': 'trace-404' } },
    });
    const thrown = thrownBy(() => unwrap(result));
    expect(thrown).toBeInstanceOf(PayrollApiError);
    expect(thrown).toBeInstanceOf(Error);
    expect(thrown).toMatchObject({ name: 'PayrollApiError', status: 404, code: 'NOT_FOUND', requestId: 'trace-404', message: expect.any(String) });
  });

  it('carries the reason, field and entry of the envelope: nobody reads the message to decide', async () => {
    const result = await server.as(ids.userA).POST('/v1/customers/payroll/estimate', {
      body: {
        sourceAccountCurrencyId: ids.acAUsd,
        payrollAccountCurrencyId: ids.acPartnerAed,
        amountSplitDetails: [{ beneficiaryId: ids.beneficiaryA1, amount: '0' }],
      },
    });
    expect(thrownBy(() => unwrap(result))).toMatchObject({
      status: 400,
      code: 'VALIDATION_ERROR',
      reason: 'AMOUNT_NOT_POSITIVE',
      field: '/amountSplitDetails/0/amount',
      entryIndex: 0,
      details: undefined,
    });
  });

  it('throws UNEXPECTED_RESPONSE for an answer that is not an envelope (a proxy page)', async () => {
    const api = createPayrollClient({
      baseUrl: server.baseUrl,
      fetch: async () => new Response('<html>Bad gateway</html>', { status: 502, headers: { 'Content-Type': 'text/html' } }),
    });
    expect(() => unwrap({ response: new Response(null, { status: 204 }) })).toThrow(PayrollApiError);
    const result = await api.GET('/healthz');
    expect(() => unwrap(result)).toThrow(expect.objectContaining({ status: 502, code: 'UNEXPECTED_RESPONSE' }));
  });
});

describe('types (checked by tsc --noEmit)', () => {
  it('rejects calls the spec does not allow', () => {
    const api = createPayrollClient({ baseUrl: 'http://127.0.0.1:9', token: 't' });
    const never = () => {
      // @ts-expect-error -- unknown path
      void api.GET('/v1/nothing');
      // @ts-expect-error -- the estimate is a POST
      void api.GET('/v1/customers/payroll/estimate');
      // @ts-expect-error -- a body is required
      void api.POST('/v1/customers/payroll/estimate', {});
      // @ts-expect-error -- the path parameter is required
      void api.GET('/v1/customers/payroll/requests/{requestId}', { params: { path: {} } });
      void api.POST('/v1/customers/payroll/estimate', {
        // @ts-expect-error -- amounts are decimal strings, never numbers
        body: { sourceAccountCurrencyId: 'a', payrollAccountCurrencyId: 'b', amountSplitDetails: [{ beneficiaryId: 'c', amount: 1000 }] },
        idempotencyKey: 'k',
      });
    };
    expect(typeof never).toBe('function');
  });
});
