// Query strings as HTTP clients write them: `URLSearchParams` and HTML forms (and Python's urlencode,
// Java's URLEncoder, curl --data-urlencode) send a space as `+`; Postman and hand-written URLs leave
// `:` raw in a timestamp. Every query parameter of the spec is `allowReserved`, and the server reads
// the query as form encoding, so each spelling of the same value gets the same answer.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { send } from '../reliability/spec.js';
import { DEMO_WORLD } from '../support/examples/examples.js';
import { type TestServer, startTestServer } from '../support/server.js';

const DANA = '7b1e0003-0000-4000-8000-000000000001';
const MOHAMMED = '7b1e0006-0000-4000-8000-000000000002';
const USD = '7b1e0005-0000-4000-8000-000000000001';

let server: TestServer;
let headers: Record<string, string>;

beforeAll(async () => {
  server = await startTestServer({ world: DEMO_WORLD });
  headers = { authorization: `Bearer ${await server.token(DANA)}` };
}, 120_000);

afterAll(async () => {
  await server?.close();
});

const get = async (pathAndQuery: string) => {
  const response = await send(`${server.baseUrl}${pathAndQuery}`, { headers });
  return { status: response.status, data: (response.json as { data?: { items?: Array<{ id: string }> } }).data, text: response.text };
};

describe('GET /v1/customers/beneficiaries?q=', () => {
  it('reads + as a space, as URLSearchParams and form encoding write it', async () => {
    const query = new URLSearchParams({ q: 'Al Mansoori', active: 'true' }).toString();
    expect(query).toContain('q=Al+Mansoori');
    const answer = await get(`/v1/customers/beneficiaries?${query}`);
    expect(answer.status, answer.text).toBe(200);
    expect(answer.data?.items?.map((item) => item.id)).toEqual([MOHAMMED]);
  });

  it('answers %20, + and encodeURIComponent alike', async () => {
    const spellings = ['Al%20Mansoori', 'Al+Mansoori', encodeURIComponent('Al Mansoori')];
    const answers = await Promise.all(spellings.map((q) => get(`/v1/customers/beneficiaries?q=${q}`)));
    expect(answers.map((answer) => [answer.status, answer.data?.items?.map((item) => item.id)])).toEqual(spellings.map(() => [200, [MOHAMMED]]));
  });

  it('takes a literal + as %2B', async () => {
    const answer = await get(`/v1/customers/beneficiaries?${new URLSearchParams({ q: 'Al+Mansoori' }).toString()}`);
    expect(answer.status, answer.text).toBe(200);
    expect(answer.data?.items).toEqual([]);
  });
});

describe('GET /v1/customers/account-currencies/{id}/transactions?from=&to=', () => {
  const from = '2026-01-01T00:00:00.000Z';
  const to = '2027-01-01T00:00:00.000Z';

  it('accepts a timestamp with raw colons, percent-encoded ones and form encoding alike', async () => {
    const path = `/v1/customers/account-currencies/${USD}/transactions`;
    const raw = await get(`${path}?from=${from}&to=${to}`);
    const encoded = await get(`${path}?from=${encodeURIComponent(from)}&to=${encodeURIComponent(to)}`);
    const form = await get(`${path}?${new URLSearchParams({ from, to }).toString()}`);
    expect([raw.status, encoded.status, form.status], raw.text).toEqual([200, 200, 200]);
    expect(raw.data?.items?.length).toBeGreaterThan(0);
    expect(encoded.data).toEqual(raw.data);
    expect(form.data).toEqual(raw.data);
  });

  it('still refuses a value that is not a date-time', async () => {
    const answer = await get(`/v1/customers/account-currencies/${USD}/transactions?from=yesterday`);
    expect(answer.status).toBe(400);
  });
});
