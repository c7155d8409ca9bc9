// What the validator lets through and the contract refuses: an integer query value written other
// than in decimal digits, a request line or headers beyond Node's 16 KB (answered by its HTTP
// parser before Express), and a body on an operation that takes none.
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { send } from '../reliability/spec.js';
import { DEMO_WORLD } from '../support/examples/examples.js';
import { type TestServer, startTestServer } from '../support/server.js';

const DANA = '7b1e0003-0000-4000-8000-000000000001';

let server: TestServer;
let headers: Record<string, string>;

beforeAll(async () => {
  server = await startTestServer({ world: DEMO_WORLD });
  headers = { authorization: `Bearer ${await server.token(DANA)}` };
}, 120_000);

afterAll(async () => {
  await server?.close();
});

const errorOf = (json: unknown) => (json as { success?: boolean; error?: { code?: string; field?: string } }).error;

describe('GET /v1/customers/payroll/requests?limit=', () => {
  it.each(['0x10', '1e1', '%2B5', '10.0', '%2010'])('refuses limit=%s: decimal digits only, the parameter named', async (limit) => {
    const answer = await send(`${server.baseUrl}/v1/customers/payroll/requests?limit=${limit}`, { headers });
    expect(answer.status, answer.text).toBe(400);
    expect(errorOf(answer.json)).toMatchObject({ code: 'VALIDATION_ERROR', field: 'limit' });
  });

  it('takes limit=10 and limit=010', async () => {
    for (const limit of ['10', '010']) {
      const answer = await send(`${server.baseUrl}/v1/customers/payroll/requests?limit=${limit}`, { headers });
      expect(answer.status, answer.text).toBe(200);
    }
  });
});

describe('a request line or headers over 16 KB', () => {
  // Raw node:http: fetch would refuse to send some of these itself.
  const raw = (path: string, extra: Record<string, string> = {}) =>
    new Promise<{ status: number; headers: Record<string, unknown>; body: string }>((resolve, reject) => {
      const url = new URL(server.baseUrl);
      const call = request({ host: url.hostname, port: url.port, path, headers: { ...headers, ...extra } }, (response) => {
        let body = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => (body += chunk));
        response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body }));
      });
      call.on('error', reject);
      call.end();
    });

  it.each([
    ['a long URL', `/v1/customers/beneficiaries?q=${'a'.repeat(17_000)}`, {}],
    ['a long header', '/v1/customers/beneficiaries', { 'x-padding': 'b'.repeat(17_000) }],
  ])('answers %s 431 with the envelope and an X-Request-Id', async (_name, path, extra) => {
    const answer = await raw(path, extra);
    expect(answer.status).toBe(431);
    expect(answer.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    expect(answer.headers['content-type']).toMatch(/^application\/json/);
    expect(JSON.parse(answer.body)).toMatchObject({ success: false, error: { code: 'PAYLOAD_TOO_LARGE' } });
  });
});

describe('DELETE /v1/customers/webhook-endpoints/{endpointId}', () => {
  it('answers a body 415, as documented, before looking for the endpoint', async () => {
    const answer = await send(`${server.baseUrl}/v1/customers/webhook-endpoints/7b1e0099-0000-4000-8000-000000000001`, {
      method: 'DELETE',
      headers: { ...headers, 'content-type': 'text/plain' },
      body: 'please delete',
    });
    expect(answer.status, answer.text).toBe(415);
    expect(errorOf(answer.json)).toMatchObject({ code: 'UNSUPPORTED_MEDIA_TYPE' });
    expect(answer.headers.get('x-request-id')).toBeTruthy();
  });

  it('answers without a body as before: 404 for an unknown endpoint', async () => {
    const answer = await send(`${server.baseUrl}/v1/customers/webhook-endpoints/7b1e0099-0000-4000-8000-000000000001`, { method: 'DELETE', headers });
    expect(answer.status, answer.text).toBe(404);
  });
});
