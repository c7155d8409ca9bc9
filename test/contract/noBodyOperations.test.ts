// An operation that takes no request body, called as clients of release 2.0.0 called it: with a
// JSON body of exactly `{}`, or an empty body however it is framed. Both are read as no body; any
// other body is still refused (415, as those operations document), before the operation runs.
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ids } from '../fixtures/world.js';
import { send } from '../reliability/spec.js';
import { type Listening, listen } from '../support/http.js';
import { estimateAndCreate, quote, readRequest } from '../support/payroll.js';
import { type TestServer, startTestServer } from '../support/server.js';

let server: TestServer;
let receiver: Listening;
let token: string;

beforeAll(async () => {
  server = await startTestServer();
  receiver = await listen((req, res) => {
    req.resume();
    req.on('end', () => res.writeHead(204).end());
  });
  token = await server.token(ids.userA);
}, 120_000);
afterAll(async () => {
  await receiver?.close();
  await server?.close();
});

const errorOf = (json: unknown) => (json as { error?: { code?: string; reason?: string; field?: string } }).error;

/** A request that must be quoted before it can be accepted. */
async function quotedRequest(): Promise<string> {
  const { created } = await estimateAndCreate(server.as(ids.userA), [{ beneficiaryId: ids.beneficiaryA1, amount: '100.00', purposeCode: 'SAL' }]);
  const requestId = created.data!.data.id;
  expect((await quote(server, requestId)).response.status).toBe(200);
  return requestId;
}

async function webhookEndpoint(): Promise<string> {
  const created = await server
    .as(ids.userA)
    .POST('/v1/customers/webhook-endpoints', { body: { url: `${receiver.url}/hook`, eventTypes: ['payout.status_changed'] } });
  expect(created.response.status, JSON.stringify(created.error)).toBe(201);
  return created.data!.data.id;
}

const post = (path: string, body: string | undefined, contentType = 'application/json') =>
  send(`${server.baseUrl}${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, ...(body !== undefined && { 'content-type': contentType }) },
    ...(body !== undefined && { body }),
  });

/** An empty body sent chunked: no Content-Length to say it is empty. */
const postChunkedEmpty = (path: string) =>
  new Promise<number>((resolve, reject) => {
    const url = new URL(path, server.baseUrl);
    const call = request(
      url,
      { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', 'transfer-encoding': 'chunked' } },
      (response) => {
        response.resume();
        response.on('end', () => resolve(response.statusCode ?? 0));
      },
    );
    call.on('error', reject);
    call.end();
  });

describe('POST /v1/customers/payroll/requests/{requestId}/accept', () => {
  it('accepts a body of exactly {} as no body', async () => {
    const requestId = await quotedRequest();
    const answer = await post(`/v1/customers/payroll/requests/${requestId}/accept`, '{}');
    expect(answer.status, answer.text).toBe(200);
    expect((await readRequest(server, requestId)).status).toBe('QUOTE_ACCEPTED');
  });

  it('accepts an empty body, with a Content-Length of 0 or chunked', async () => {
    const first = await quotedRequest();
    expect((await post(`/v1/customers/payroll/requests/${first}/accept`, '')).status).toBe(200);
    const second = await quotedRequest();
    expect(await postChunkedEmpty(`/v1/customers/payroll/requests/${second}/accept`)).toBe(200);
  });

  it.each([
    ['a JSON object with a member', '{"accept":true}', 'application/json'],
    ['a JSON array', '[]', 'application/json'],
    ['{} as text', '{}', 'text/plain'],
  ])('refuses %s (415), and the request stays quoted', async (_name, body, contentType) => {
    const requestId = await quotedRequest();
    const answer = await post(`/v1/customers/payroll/requests/${requestId}/accept`, body, contentType);
    expect(answer.status, answer.text).toBe(415);
    expect(errorOf(answer.json)).toMatchObject({ code: 'UNSUPPORTED_MEDIA_TYPE' });
    expect((await readRequest(server, requestId)).status).toBe('QUOTE_PROVIDED');
  });
});

describe('POST /v1/customers/webhook-endpoints/{endpointId}/test', () => {
  it('accepts a body of exactly {} as no body, and an empty one', async () => {
    const endpointId = await webhookEndpoint();
    const withObject = await post(`/v1/customers/webhook-endpoints/${endpointId}/test`, '{}');
    expect(withObject.status, withObject.text).toBe(202);
    expect((await post(`/v1/customers/webhook-endpoints/${endpointId}/test`, '')).status).toBe(202);
    expect(await postChunkedEmpty(`/v1/customers/webhook-endpoints/${endpointId}/test`)).toBe(202);
  });

  it('refuses a body with content (415)', async () => {
    const endpointId = await webhookEndpoint();
    const answer = await post(`/v1/customers/webhook-endpoints/${endpointId}/test`, '{"eventType":"ping"}');
    expect(answer.status, answer.text).toBe(415);
    expect(errorOf(answer.json)).toMatchObject({ code: 'UNSUPPORTED_MEDIA_TYPE' });
  });
});
