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
    // The body as a whole: no field to name.
    expect(result.body).toEqual(envelope('VALIDATION_ERROR'));
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
    expect(result.status).toBe(400);
    expect(result.body).toEqual({ success: false, error: { code: 'VALIDATION_ERROR', message: expect.any(String), field: '/payrollAccountCurrencyId' } });
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

type Problem = { code: string; message: string; reason?: string; field?: string; entryIndex?: number; details?: Problem[] };

/** A 400 VALIDATION_ERROR whose problem is at `place` (and, when given, refused by `reason`): the message only has to be there. */
function expectProblemAt(result: { status: number; body: unknown }, place: { field?: string; entryIndex?: number; reason?: string }): Problem {
  expect(result.status, JSON.stringify(result.body)).toBe(400);
  const { error } = result.body as { error: Problem };
  expect(error).toMatchObject({ code: 'VALIDATION_ERROR', ...place });
  expect(error.message.length).toBeGreaterThan(0);
  if (place.entryIndex === undefined) expect(error.entryIndex).toBeUndefined();
  return error;
}

const json = (body: unknown) => ({ body: JSON.stringify(body), contentType: 'application/json' });
const accounts = { sourceAccountCurrencyId: ids.acAUsd, payrollAccountCurrencyId: ids.acPartnerAed };
const csvQuery = new URLSearchParams(accounts).toString();

describe('every 400 whose problem has a field carries it (error.field, error.entryIndex)', () => {
  it('a body field the contract refuses: a JSON Pointer, with the entry', async () => {
    const body = {
      ...accounts,
      amountSplitDetails: [
        { beneficiaryId: ids.beneficiaryA1, amount: '1' },
        { beneficiaryId: 'not-a-uuid', amount: '1' },
      ],
    };
    expectProblemAt(await raw('POST', '/v1/customers/payroll/estimate', json(body)), { field: '/amountSplitDetails/1/beneficiaryId', entryIndex: 1 });
  });

  it('a body field a rule refuses: the pointer, the entry and the rule', async () => {
    const body = { ...accounts, amountSplitDetails: [{ beneficiaryId: ids.beneficiaryA1, amount: '0' }] };
    const error = expectProblemAt(await raw('POST', '/v1/customers/payroll/estimate', json(body)), {
      field: '/amountSplitDetails/0/amount',
      entryIndex: 0,
      reason: 'AMOUNT_NOT_POSITIVE',
    });
    expect(error.details).toBeUndefined();
  });

  it('several problems: the place of the first on the error, each in details with its own', async () => {
    const body = {
      ...accounts,
      amountSplitDetails: [
        { beneficiaryId: ids.beneficiaryA1, amount: '0' },
        { beneficiaryId: ids.beneficiaryA2, amount: '1.001' },
      ],
    };
    const error = expectProblemAt(await raw('POST', '/v1/customers/payroll/estimate', json(body)), { field: '/amountSplitDetails/0/amount', entryIndex: 0 });
    expect(error.details).toEqual([
      { reason: 'AMOUNT_NOT_POSITIVE', field: '/amountSplitDetails/0/amount', entryIndex: 0, message: expect.any(String) },
      { reason: 'TOO_MANY_DECIMALS', field: '/amountSplitDetails/1/amount', entryIndex: 1, message: expect.any(String) },
    ]);
  });

  it('a query parameter: its name', async () => {
    expectProblemAt(await raw('GET', '/v1/customers/payroll/requests?limit=0'), { field: 'limit' });
    expectProblemAt(await raw('GET', '/v1/customers/payroll/requests?verbose=1'), { field: 'verbose' });
    const payout = `/v1/accounts/${ids.accountAUsd}/payouts/estimate?amount=1.001&currency=USD&beneficiaryId=${ids.beneficiaryA1}`;
    expectProblemAt(await raw('GET', payout), { field: 'amount', reason: 'TOO_MANY_DECIMALS' });
  });

  it('a path parameter: its name', async () => {
    expectProblemAt(await raw('GET', '/v1/customers/payroll/requests/not-a-uuid'), { field: 'requestId' });
  });

  it('a header parameter: its name as the spec writes it', async () => {
    const result = await raw('POST', '/v1/customers/payroll/requests', { ...json({}), headers: { 'Idempotency-Key': ' ' } });
    expectProblemAt(result, { field: 'Idempotency-Key' });
  });

  it('a CSV row: its entry, on the error and on its detail', async () => {
    const file = ['beneficiaryId,amount', `${ids.beneficiaryA1},10.00`, '', `${ids.beneficiaryA2},1.2.3`].join('\n');
    const result = await raw('POST', `/v1/customers/payroll/estimate?${csvQuery}`, { body: file, contentType: 'text/csv' });
    const error = expectProblemAt(result, { entryIndex: 1 });
    expect(error.details).toEqual([{ row: 4, column: 'amount', entryIndex: 1, message: expect.any(String) }]);
  });

  it('a CSV row a rule refuses after the file checks: the pointer and the entry of the payroll the file became', async () => {
    const file = ['beneficiaryId,amount', `${ids.beneficiaryA1},10.00`, `${ids.beneficiaryA2},0.001`].join('\n');
    const query = new URLSearchParams({ ...accounts, sourceAccountCurrencyId: ids.acAUsdc }).toString();
    const result = await raw('POST', `/v1/customers/payroll/estimate?${query}`, { body: file, contentType: 'text/csv' });
    const error = expectProblemAt(result, { field: '/amountSplitDetails/1/amount', entryIndex: 1, reason: 'ZERO_PAYOUT' });
    expect(error.details).toEqual([{ row: 3, reason: 'ZERO_PAYOUT', field: '/amountSplitDetails/1/amount', entryIndex: 1, message: expect.any(String) }]);
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
