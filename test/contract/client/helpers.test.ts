// The client's helpers: constructEventAsync (Web Crypto, any runtime) with each reason for refusing a
// delivery, the Node entry point's synchronous checks (Node's crypto) agreeing with it, paginate over
// a real cursor list, and createWithRetry's key and retries on a scripted fetch.
import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  PayrollApiError,
  WebhookSignatureError,
  constructEvent,
  constructEventAsync,
  createPayrollClient,
  createWithRetry,
  paginate,
  verifyWebhookAsync,
} from '../../../packages/client/src/index.js';
import { constructEventSync, verifyWebhook } from '../../../packages/client/src/node.js';
import { signWebhook } from '../../../src/domain/webhooks/webhookSignature.js';
import { ids } from '../../fixtures/world.js';
import { type TestServer, startTestServer } from '../../support/server.js';

const SECRET = 'whsec_test_0123456789abcdef';
const EVENT = {
  id: '0450f9d4-b1f2-46a7-8380-efef18e71b69',
  type: 'payout.status_changed',
  sequence: 2,
  occurredAt: '2026-11-23T10:00:00.000Z',
  data: { status: 'COMPLETED' },
};
const BODY = JSON.stringify(EVENT);
const NOW = new Date('2026-11-23T10:00:05.000Z');

type Construct = (body: string, header: string | null, secret: string, options: { now: Date }) => unknown;

async function reasonWith(construct: Construct, body: string, header: string | null, secret: string, now: Date): Promise<string> {
  try {
    await construct(body, header, secret, { now });
    return 'accepted';
  } catch (error) {
    if (!(error instanceof WebhookSignatureError)) throw error;
    return error.reason;
  }
}

/** The reason constructEventAsync gives, checked to be the one the synchronous constructEventSync gives. */
async function reasonOf(body: string, header: string | null, secret = SECRET, now = NOW): Promise<string> {
  const reason = await reasonWith(constructEventAsync, body, header, secret, now);
  expect(await reasonWith(constructEventSync, body, header, secret, now)).toBe(reason);
  expect(await reasonWith(constructEvent, body, header, secret, now)).toBe(reason);
  return reason;
}

describe('constructEventAsync (constructEvent), and constructEventSync on Node', () => {
  it('returns the typed event of a delivery signed as the service signs it', async () => {
    const header = signWebhook(BODY, SECRET, new Date('2026-11-23T10:00:00Z'));
    const event = await constructEventAsync(BODY, header, SECRET, { now: NOW });
    expect(event).toEqual(EVENT);
    expect(constructEventSync(BODY, header, SECRET, { now: NOW })).toEqual(EVENT);
    expect(await constructEvent(BODY, header, SECRET, { now: NOW })).toEqual(EVENT);
    expect(event.type === 'payout.status_changed' && event.data.status).toBe('COMPLETED');
  });

  it('says why it refuses: BAD_SIGNATURE, TOO_OLD or MALFORMED', async () => {
    const header = signWebhook(BODY, SECRET, new Date('2026-11-23T10:00:00Z'));
    expect(await reasonOf(BODY.replace('COMPLETED', 'FAILED'), header)).toBe('BAD_SIGNATURE');
    expect(await reasonOf(BODY, header, 'whsec_other')).toBe('BAD_SIGNATURE');
    expect(await reasonOf(BODY, header, SECRET, new Date('2026-11-23T10:05:01Z'))).toBe('TOO_OLD');
    expect(await reasonOf(BODY, header, SECRET, new Date('2026-11-23T09:54:59Z'))).toBe('TOO_OLD');
    expect(await reasonOf(BODY, null)).toBe('MALFORMED');
    expect(await reasonOf(BODY, 'v1=abc')).toBe('MALFORMED');
    expect(await reasonOf(BODY, header.replace(/v1=.*/, 'v1=zz'))).toBe('MALFORMED');
    const notJson = 'not json';
    expect(await reasonOf(notJson, signWebhook(notJson, SECRET, new Date('2026-11-23T10:00:00Z')))).toBe('MALFORMED');
  });

  it('accepts any of several v1 signatures (a rotated secret)', async () => {
    const t = Math.floor(NOW.getTime() / 1000);
    const good = createHmac('sha256', SECRET).update(`${t}.${BODY}`).digest('hex');
    expect(await reasonOf(BODY, `t=${t},v1=${'0'.repeat(64)},v1=${good}`)).toBe('accepted');
  });
});

describe('verifyWebhookAsync, and verifyWebhook (deprecated) on Node', () => {
  const both = async (body: string, header: string, secret: string, tolerance: number, now: Date) => {
    const answer = await verifyWebhookAsync(body, header, secret, tolerance, now);
    expect(verifyWebhook(body, header, secret, tolerance, now)).toBe(answer);
    return answer;
  };

  it('answers true and false as verifyWebhook always has', async () => {
    const header = signWebhook(BODY, SECRET, new Date('2026-11-23T10:00:00Z'));
    expect(await both(BODY, header, SECRET, 300, NOW)).toBe(true);
    expect(await both(BODY + ' ', header, SECRET, 300, NOW)).toBe(false);
    expect(await both(BODY, header, SECRET, 1, NOW)).toBe(false);
    expect(await both(BODY, 'garbage', SECRET, 300, NOW)).toBe(false);
    // A signed body that is not an event still verifies: the boolean checks the signature only.
    expect(await both('not json', signWebhook('not json', SECRET, new Date('2026-11-23T10:00:00Z')), SECRET, 300, NOW)).toBe(true);
  });

  it('accepts what the service signs, for keys and messages of every length around the block size', async () => {
    for (const keyLength of [1, 63, 64, 65, 200]) {
      for (const messageLength of [0, 1, 55, 56, 63, 64, 65, 1000]) {
        const key = 'k'.repeat(keyLength);
        const message = 'é'.repeat(messageLength);
        expect(await both(message, signWebhook(message, key, NOW), key, 300, NOW), `${keyLength}/${messageLength}`).toBe(true);
      }
    }
  });
});

describe('an empty endpoint secret', () => {
  it('is refused as the receiver’s mistake, by every check alike', async () => {
    const header = signWebhook(BODY, SECRET, NOW);
    await expect(constructEventAsync(BODY, header, '', { now: NOW })).rejects.toThrow(TypeError);
    await expect(verifyWebhookAsync(BODY, header, '', 300, NOW)).rejects.toThrow(TypeError);
    expect(() => constructEventSync(BODY, header, '', { now: NOW })).toThrow(TypeError);
    expect(() => verifyWebhook(BODY, header, '', 300, NOW)).toThrow(TypeError);
  });
});

describe('paginate', () => {
  let server: TestServer;
  beforeAll(async () => (server = await startTestServer()));
  afterAll(() => server.close());

  it('yields every item of a cursor list, page after page, as one list call does', async () => {
    const api = createPayrollClient({ baseUrl: server.baseUrl, token: await server.token(ids.userA) });
    const pages: Array<string | undefined> = [];
    const all = [];
    for await (const beneficiary of paginate((cursor) => {
      pages.push(cursor);
      return api.GET('/v1/customers/beneficiaries', { params: { query: { cursor, limit: 2 } } });
    })) {
      all.push(beneficiary.id);
    }
    const whole = await api.GET('/v1/customers/beneficiaries', { params: { query: { limit: 100 } } });
    expect(all).toEqual(whole.data?.data.items.map((item) => item.id));
    expect(pages.length).toBeGreaterThan(2);
    expect(pages[0]).toBeUndefined();
  });
});

describe('createWithRetry', () => {
  /** A fetch answering each request with the next scripted answer, recording the Idempotency-Key sent. */
  function scripted(answers: Array<{ status: number; body: unknown; headers?: Record<string, string> } | Error>) {
    const keys: Array<string | null> = [];
    const fetch = async (request: Request) => {
      keys.push(request.headers.get('Idempotency-Key'));
      const next = answers.shift();
      if (!next) throw new Error('no more answers');
      if (next instanceof Error) throw next;
      return new Response(JSON.stringify(next.body), { status: next.status, headers: { 'Content-Type': 'application/json', ...next.headers } });
    };
    return { keys, api: createPayrollClient({ baseUrl: 'http://api.test', token: 't', fetch }) };
  }
  const error = (code: string) => ({ success: false, error: { code, message: code } });
  const created = { success: true, data: { id: 'x' } };
  const waits: number[] = [];
  const sleep = async (ms: number) => void waits.push(ms);
  const body = { exchangeRate: '3.67', expiresInSeconds: 60 };
  const quote = (api: ReturnType<typeof scripted>['api']) => (idempotencyKey: string) =>
    api.POST('/v1/admin/payroll/requests/{requestId}/quote', { params: { path: { requestId: 'r' } }, body, idempotencyKey });

  it('retries 409 IDEMPOTENCY_KEY_IN_PROGRESS, 429, 503 (its Retry-After) and a network error with the same key', async () => {
    waits.length = 0;
    const { keys, api } = scripted([
      { status: 409, body: error('IDEMPOTENCY_KEY_IN_PROGRESS') },
      { status: 429, body: error('RATE_LIMITED') },
      { status: 503, body: error('SERVICE_UNAVAILABLE'), headers: { 'Retry-After': '2' } },
      new TypeError('fetch failed'),
      { status: 200, body: created },
    ]);
    const data = await createWithRetry(quote(api), { sleep, attempts: 6 });
    expect(data).toEqual({ id: 'x' });
    expect(keys.length).toBe(5);
    expect(new Set(keys).size).toBe(1);
    expect(keys[0]).toMatch(/^[0-9a-f-]{36}$/);
    expect(waits[2]).toBe(2000);
    expect(waits.every((ms) => ms >= 0 && ms <= 30_000)).toBe(true);
  });

  it('does not retry an answer that a retry cannot change, and stops after its attempts', async () => {
    const refused = scripted([{ status: 409, body: error('INSUFFICIENT_FUNDS') }]);
    const thrown = await createWithRetry(quote(refused.api), { sleep }).catch((e: unknown) => e);
    expect(thrown).toBeInstanceOf(PayrollApiError);
    expect((thrown as PayrollApiError).code).toBe('INSUFFICIENT_FUNDS');
    expect(refused.keys.length).toBe(1);
    const down = scripted([500, 502, 503].map((status) => ({ status, body: error('INTERNAL_ERROR') })));
    const last = await createWithRetry(quote(down.api), { sleep, attempts: 3, idempotencyKey: 'my-key' }).catch((e: unknown) => e);
    expect((last as PayrollApiError).status).toBe(503);
    expect(down.keys).toEqual(['my-key', 'my-key', 'my-key']);
  });
});
