/**
 * A payroll request of more than 1,000 splits, as its operations answer it and as its events carry it.
 * - Each answer (create, quote, accept, FX record) is written in the operation's transaction by the
 *   request's one writer, held compressed and sent under an exact Content-Length (response
 *   validation off, as in production); it is the request as its GET shows it.
 * - With an Idempotency-Key the answer stays with the key, compressed, and every repeat gets the same bytes.
 * - Its GET is streamed: read a page at a time inside one snapshot and written as it is read, the
 *   same bytes as an answer of the same state.
 * - Its payroll_request.status_changed events leave the splits and transfers out (`itemsOmitted`);
 *   a request of 1,000 splits still has them whole.
 */
import { request as httpRequest } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { components } from '../../packages/client/src/index.js';
import { testWorld, ids } from '../fixtures/world.js';
import type { Listening } from '../support/http.js';
import type { PayrollRequest } from '../support/payroll.js';
import { waitFor } from '../support/polling.js';
import { answerPayrollRequest } from '../../src/usecases/payroll/getPayrollRequest.js';
import { type TestServer, serveApp, startTestServer, testConfig } from '../support/server.js';
import { drain, workerFor } from '../support/worker.js';
import { type Api, apiAt, count, dataOf, estimate, extraBeneficiaries, quote } from '../reliability/api.js';

type Event = components['schemas']['WebhookEvent'];

const LARGE = 1_201;
const extra = extraBeneficiaries(ids.customerA, LARGE);
const entries = (n: number, cents = 0) =>
  extra.slice(0, n).map((b, i) => ({ beneficiaryId: b.id, amount: `${10 + (i % 40)}.${String((i + cents) % 100).padStart(2, '0')}` }));

let server: TestServer;
let production: Listening;
let api: Api;

beforeAll(async () => {
  server = await startTestServer({ world: { ...testWorld, beneficiaries: [...testWorld.beneficiaries, ...extra] } });
  production = await serveApp({ ...testConfig, validateResponses: false }, server.db, { now: server.clock.now });
  api = apiAt(production.url, (userId) => server.token(userId));
}, 120_000);
afterAll(async () => {
  await production?.close();
  await server?.close();
});

/** A POST to the production server, its body read as bytes: the answer as the wire carries it. */
async function post(path: string, userId: string, body?: unknown, headers: Record<string, string> = {}) {
  const response = await fetch(production.url + path, {
    method: 'POST',
    headers: { authorization: `Bearer ${await server.token(userId)}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const bytes = Buffer.from(await response.arrayBuffer());
  expect(Number(response.headers.get('content-length')), 'Content-Length').toBe(bytes.length);
  const text = bytes.toString('utf8');
  expect(response.status, text.slice(0, 500)).toBeLessThan(300);
  return { text, request: (JSON.parse(text) as { data: PayrollRequest }).data };
}

/** The request as its GET shows it, read through the validating server. */
const read = async (requestId: string) =>
  (await server.as(ids.userA).GET('/v1/customers/payroll/requests/{requestId}', { params: { path: { requestId } } })).data!.data;

/** Transactions of the app left open (a reader that went away must not hold one). */
const idleInTransaction = () =>
  count(server.db, "SELECT count(*) AS n FROM pg_stat_activity WHERE datname = current_database() AND state LIKE 'idle in transaction%'");

/**
 * The request's first payroll_request.status_changed event, through the validating server. An event
 * is listed once every older transaction has ended (listEvents): another file's may hold it back.
 */
async function firstEventOf(requestId: string): Promise<Event | undefined> {
  const find = async () => {
    let cursor: string | undefined;
    for (;;) {
      const { data } = await server.as(ids.userA).GET('/v1/customers/events', {
        params: { query: { limit: 100, type: ['payroll_request.status_changed'], ...(cursor && { cursor }) } },
      });
      const mine = data!.data.items.find((event) => event.data.id === requestId);
      if (mine) return mine;
      cursor = data!.data.nextCursor;
      if (!data!.data.hasMore) return undefined;
    }
  };
  return waitFor(`the first event of ${requestId}`, find, (event) => event !== undefined, { deadlineMs: 60_000, everyMs: 50 });
}

async function createLarge(headers: Record<string, string> = {}, cents = 0) {
  const { createBody } = await estimate(api, entries(LARGE, cents));
  return post('/v1/customers/payroll/requests', ids.userA, createBody, headers);
}

describe('a payroll request of more than 1,000 splits', () => {
  it('each answer is the request as its GET shows it', async () => {
    const created = await createLarge();
    expect(created.request.amountSplitDetails).toHaveLength(LARGE);
    expect(created.request).toEqual(await read(created.request.id));
    const id = created.request.id;
    const quoted = dataOf<PayrollRequest>(await quote(api, id, server.clock.now()));
    expect(quoted.amountSplitDetails).toHaveLength(LARGE);
    const accepted = await post(`/v1/customers/payroll/requests/${id}/accept`, ids.userA);
    expect(accepted.request.status).toBe('QUOTE_ACCEPTED');
    await drain(workerFor(server));
    const fx = await post(`/v1/admin/payroll/requests/${id}/fx-exchange`, ids.admin, { exchangeRate: '3.6520' });
    expect(fx.request.status).toBe('PAYOUT_INITIATED');
    expect(fx.request.transfers).toHaveLength(LARGE + 2);
    expect(fx.request).toEqual(await read(id));
  });

  it('its GET is streamed with the bytes of the answer of the same state; a reader that goes away ends the reading', async () => {
    const created = await createLarge({}, 5);
    const id = created.request.id;
    const path = `/v1/customers/payroll/requests/${id}`;
    const whole = await answerPayrollRequest({ db: server.db }, { userId: ids.userA, role: 'customer', customerId: ids.customerA }, id).text();
    expect(`{"success":true,"data":${whole}}`).toBe(created.text);
    const response = await fetch(production.url + path, { headers: { authorization: `Bearer ${await server.token(ids.userA)}` } });
    const bytes = Buffer.from(await response.arrayBuffer());
    expect(response.status).toBe(200);
    expect(bytes.toString('utf8')).toBe(created.text);
    expect(await read(id)).toEqual(JSON.parse(whole));

    const token = await server.token(ids.userA);
    await new Promise<void>((resolve, reject) => {
      const req = httpRequest(new URL(path, production.url), { headers: { authorization: `Bearer ${token}` } }, (res) => {
        res.once('data', () => {
          res.destroy();
          resolve();
        });
      });
      req.on('error', reject).end();
    });
    // One sample decides: another transaction of the app may be between two statements at any instant.
    await waitFor('no transaction idle in the database', idleInTransaction, (idle) => idle === 0, { everyMs: 50 });
  });

  it('its events leave the splits and transfers out, with itemsOmitted; at 1,000 splits they are whole', async () => {
    const created = await createLarge({}, 1);
    const event = await firstEventOf(created.request.id);
    expect(event?.type).toBe('payroll_request.status_changed');
    const { amountSplitDetails: _splits, transfers: _transfers, ...head } = created.request;
    expect(event!.data).toEqual({ ...head, itemsOmitted: true });

    const { createBody } = await estimate(api, entries(1_000, 2));
    const thousand = await post('/v1/customers/payroll/requests', ids.userA, createBody);
    const whole = await firstEventOf(thousand.request.id);
    expect(whole!.data).toEqual(thousand.request);
    // Its answer is the bytes of its GET.
    const got = await fetch(`${production.url}/v1/customers/payroll/requests/${thousand.request.id}`, {
      headers: { authorization: `Bearer ${await server.token(ids.userA)}` },
    });
    expect(await got.text()).toBe(thousand.text);
  });

  it('with an Idempotency-Key the answer stays with the key, compressed: every repeat gets the same bytes', async () => {
    const key = `large-${Date.now()}`;
    const { createBody } = await estimate(api, entries(LARGE, 3));
    const first = await post('/v1/customers/payroll/requests', ids.userA, createBody, { 'Idempotency-Key': key });
    const kept = await count(server.db, 'SELECT octet_length(response_data) AS n FROM idempotency_keys WHERE key = $1', [key]);
    expect(kept).toBeGreaterThan(0);
    expect(kept).toBeLessThan(Buffer.byteLength(first.text) / 3);
    const again = await post('/v1/customers/payroll/requests', ids.userA, createBody, { 'Idempotency-Key': key });
    expect(again.text).toBe(first.text);
    // The validating server reads the same kept answer whole.
    const validated = await server.as(ids.userA).POST('/v1/customers/payroll/requests', { body: createBody, idempotencyKey: key });
    expect(validated.response.status).toBe(201);
    expect(validated.data!.data).toEqual(first.request);
  });

  it('a small answer is sent as it was read, with a key or without: the bytes of its GET, and a repeat gets them again', async () => {
    const { createBody } = await estimate(api, entries(3, 6));
    const key = `small-${Date.now()}`;
    const first = await post('/v1/customers/payroll/requests', ids.userA, createBody, { 'Idempotency-Key': key });
    const again = await post('/v1/customers/payroll/requests', ids.userA, createBody, { 'Idempotency-Key': key });
    expect(again.text).toBe(first.text);
    const got = await fetch(`${production.url}/v1/customers/payroll/requests/${first.request.id}`, {
      headers: { authorization: `Bearer ${await server.token(ids.userA)}` },
    });
    expect(await got.text()).toBe(first.text);
  });

  it('a client that goes away during the answer leaves nothing held', async () => {
    const { createBody } = await estimate(api, entries(LARGE, 4));
    const body = JSON.stringify(createBody);
    const token = await server.token(ids.userA);
    await new Promise<void>((resolve, reject) => {
      const url = new URL('/v1/customers/payroll/requests', production.url);
      const req = httpRequest(url, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' } }, (res) => {
        expect(res.statusCode).toBe(201);
        res.once('data', () => {
          res.destroy();
          resolve();
        });
      });
      req.on('error', reject);
      req.end(body);
    });
    await waitFor('no transaction idle in the database', idleInTransaction, (idle) => idle === 0, { everyMs: 50 });
  });
});
