/**
 * What an Idempotency-Key keeps is read by every release alike: a row written by the previous
 * release (its status and envelope as JSON text) replays byte for byte, and this release keeps its
 * own outcomes in that same form.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fingerprint } from '../../src/usecases/idempotency.js';
import { ids } from '../fixtures/world.js';
import { earlierRelease } from '../support/earlierReleases.js';
import { type TestServer, startTestServer } from '../support/server.js';

let server: TestServer;
let token: string;
beforeAll(async () => {
  server = await startTestServer();
  token = await server.token(ids.userA);
});
afterAll(() => server.close());

const PATH = '/v1/customers/beneficiaries';
const body = { type: 'INDIVIDUAL', firstName: 'Asha', lastName: 'Rao', nationality: 'IN', bankName: 'Emirates NBD', iban: 'AE070331234567890123456' };

async function post(key: string, sent: unknown = body) {
  const response = await fetch(server.baseUrl + PATH, {
    method: 'POST',
    headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json', 'Idempotency-Key': key },
    body: JSON.stringify(sent),
  });
  return { status: response.status, text: await response.text() };
}

/** A key completed as the previous release completed it: the answer's status and envelope text. */
async function keptByPreviousRelease(key: string, status: number, text: string): Promise<void> {
  const requestHash = fingerprint('POST', PATH, body, {});
  await earlierRelease.keptIdempotencyKey(server.db, { userId: ids.userA, key, requestHash, status, text, at: server.clock.now() });
}

async function keptRow(key: string) {
  const [row] = await server.db.query<{ status: number; text: string }>(
    'SELECT response_status AS status, response_body AS text FROM idempotency_keys WHERE user_id = $1 AND key = $2',
    [ids.userA, key],
  );
  return row!;
}

describe('POST with an Idempotency-Key kept by the previous release', () => {
  it('replays a refusal exactly as it was first sent, with no field it did not have', async () => {
    const text =
      '{"success":false,"error":{"code":"DUPLICATE_BENEFICIARY","message":"body.iban: beneficiary 7b1e0006-0000-4000-8000-000000000009 already has this bank account"}}';
    await keptByPreviousRelease('previous-release-refusal', 409, text);
    expect(await post('previous-release-refusal')).toEqual({ status: 409, text });
  });

  it('replays a refusal with its variant status (INSUFFICIENT_FUNDS at accept is 409) and its details', async () => {
    const text =
      '{"success":false,"error":{"code":"INSUFFICIENT_FUNDS","message":"Accepting needs a top-up of 2.13 USD; available is 1.00 USD, short by 1.13 USD","details":[{"row":2,"message":"a"}]}}';
    await keptByPreviousRelease('previous-release-shortfall', 409, text);
    expect(await post('previous-release-shortfall')).toEqual({ status: 409, text });
  });
});

describe('POST with an Idempotency-Key kept by this release', () => {
  it('keeps a success as the status and the envelope sent, and replays it', async () => {
    const first = await post('this-release-success');
    expect(first.status).toBe(201);
    expect(await keptRow('this-release-success')).toEqual({ status: 201, text: first.text });
    expect(await post('this-release-success')).toEqual(first);
  });

  it('keeps a refusal as the status and the envelope sent, its field included, and replays it', async () => {
    const blank = { ...body, firstName: ' ' };
    const first = await post('this-release-refusal', blank);
    expect(first.status).toBe(400);
    expect(JSON.parse(first.text)).toEqual({ success: false, error: { code: 'VALIDATION_ERROR', message: expect.any(String), field: '/firstName' } });
    expect(await keptRow('this-release-refusal')).toEqual({ status: 400, text: first.text });
    expect(await post('this-release-refusal', blank)).toEqual(first);
  });
});
