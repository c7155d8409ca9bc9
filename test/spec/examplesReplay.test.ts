// The spec's examples as an integrator replays them: every request example, as written, in the order
// of the document, against one fresh `npm start` (the demo world, the real clock, a real process),
// each sent once with nothing substituted — no Idempotency-Key (the spec gives none to copy), the
// parameters' examples (a named one when it goes with that request example: the CSV upload's query)
// and the body example. Each must answer 2xx, except the operations listed in NEEDS_STATE, whose
// example needs state that the examples before it cannot leave; each of those says which in its
// description ("## Replaying the example"), where a reader of the reference sees it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadSpec, send } from '../reliability/spec.js';
import { type Service, freePort, killLeftovers, startService, stop } from '../support/processes.js';
import { hs256Token } from '../support/tokens.js';
import { DEMO_WORLD, type ExampleCase, loadExampleSpec } from './examples.js';

/** Operations whose example cannot replay as-is in document order, and the state it needs. */
const NEEDS_STATE: Record<string, string> = {
  createPayrollRequest: 'a feeHash of estimatePayrollFee',
  approvePayrollRequest: 'a payroll request in AWAITING_APPROVAL',
  rejectPayrollRequest: 'a payroll request in AWAITING_APPROVAL',
  createPayout: 'a feeHash of estimatePayoutFees',
  getPayout: 'a payout',
  deleteWebhookEndpoint: 'a webhook endpoint',
  listWebhookDeliveries: 'a webhook endpoint',
  retryWebhookDelivery: 'a webhook endpoint and one of its deliveries',
  testWebhookEndpoint: 'a webhook endpoint',
  revokeApiKey: 'an API key',
  recordFxExchange: 'the example’s request accepted and its funds at the payroll bank',
  failPayrollRequest: 'a payroll request EXECUTING whose payouts have not been created',
  resolveBankException: 'an open bank exception, which only the bank’s books create',
};

const userWith = (role: string, permission?: string) =>
  DEMO_WORLD.users.find((user) => user.role === role && (permission ? user.permissions?.includes(permission) : !user.permissions))!.id;
const CUSTOMER = userWith('customer');
const ADMIN = userWith('admin');

type Operation = { operationId: string; description?: string; parameters?: Array<{ name: string; in: string; example?: unknown; examples?: object }> };

let service: Service;
let baseUrl: string;
let cases: ExampleCase[];
let operations: Operation[];
const answers: Array<{ example: ExampleCase; status: number; text: string }> = [];

beforeAll(async () => {
  const port = await freePort();
  baseUrl = `http://127.0.0.1:${port}`;
  service = startService(port, { DATA_DIR: 'memory://', SIMULATED_SETTLEMENT_MS: '200' });
  await service.listening;
  cases = (await loadExampleSpec()).cases;
  const raw = (await loadSpec()).raw as unknown as { paths: Record<string, Record<string, unknown>> };
  operations = Object.values(raw.paths).flatMap((item) =>
    ['get', 'post', 'put', 'patch', 'delete'].flatMap((method) => (item[method] ? [item[method] as Operation] : [])),
  );
  const tokens = { customer: await hs256Token({ sub: CUSTOMER }), admin: await hs256Token({ sub: ADMIN }) };
  for (const example of cases) {
    const response = await replay(example, tokens);
    answers.push({ example, status: response.status, text: response.text });
    // EXAMPLES_DUMP=1: each example's status, in the order replayed.
    if (process.env.EXAMPLES_DUMP) console.log(`${response.status} ${example.operationId} ${example.name}`);
  }
}, 180_000);

afterAll(async () => {
  if (service) await stop(service.child);
  killLeftovers();
});

/** The example as written: its path and query values, its body, the role's bearer token; nothing else. */
function replay(example: ExampleCase, tokens: { customer: string; admin: string }) {
  const url = new URL(baseUrl + example.path.replace(/\{([^}]+)\}/g, (_match, name: string) => encodeURIComponent(example.path_[name] ?? '')));
  for (const [name, value] of Object.entries(example.query)) {
    for (const item of Array.isArray(value) ? value : [value]) url.searchParams.append(name, item);
  }
  const headers: Record<string, string> = { accept: example.accept };
  if (example.role !== 'public') headers.authorization = `Bearer ${example.role === 'admin' ? tokens.admin : tokens.customer}`;
  let body: string | undefined;
  if (example.body) {
    headers['content-type'] = example.body.contentType;
    body = typeof example.body.value === 'string' ? example.body.value : JSON.stringify(example.body.value);
  }
  return send(url.toString(), { method: example.method.toUpperCase(), headers, ...(body === undefined ? {} : { body }) });
}

describe('the spec’s request examples replayed as written, in document order, on a fresh npm start', () => {
  it('answer 2xx, every one of every operation not listed as needing earlier state', () => {
    expect(answers.length).toBeGreaterThanOrEqual(operations.length);
    const failed = answers
      .filter(({ example, status }) => !(example.operationId in NEEDS_STATE) && (status < 200 || status >= 300))
      .map(({ example, status, text }) => `${example.operationId} ${example.name} → ${status} ${text.slice(0, 300)}`);
    expect(failed).toEqual([]);
  });

  it('lists only operations of the spec, and most operations replay', () => {
    const ids = operations.map((operation) => operation.operationId);
    expect(Object.keys(NEEDS_STATE).filter((id) => !ids.includes(id))).toEqual([]);
    expect(Object.keys(NEEDS_STATE).length).toBeLessThanOrEqual(ids.length / 3);
  });

  it.each(Object.entries(NEEDS_STATE))('%s: its description names the state its example needs (%s)', (operationId, state) => {
    const description = operations.find((operation) => operation.operationId === operationId)?.description ?? '';
    expect(description).toContain('## Replaying the example');
    const section = description.slice(description.indexOf('## Replaying the example'));
    for (const word of state.split(/\s+/).filter((w) => /^[A-Za-z_]{5,}$/.test(w) && !['which', 'example'].includes(w))) {
      expect(section, `${operationId}: "${word}"`).toContain(word.replace('example’s', 'example'));
    }
  });

  it('no other operation says its example needs earlier state', () => {
    const saying = operations.filter((operation) => operation.description?.includes('## Replaying the example')).map((operation) => operation.operationId);
    expect(saying.sort()).toEqual(Object.keys(NEEDS_STATE).sort());
  });

  it('gives no Idempotency-Key example to copy (one key shared by every POST would make all but the first 422)', () => {
    const keys = operations.flatMap((operation) =>
      (operation.parameters ?? []).filter((parameter) => parameter.in === 'header' && parameter.name === 'Idempotency-Key'),
    );
    expect(keys.length).toBeGreaterThan(0);
    expect(keys.filter((parameter) => parameter.example !== undefined || parameter.examples !== undefined)).toEqual([]);
  });

  it('sends the CSV upload’s query parameters with the CSV examples only', () => {
    const csvOnly = ['sourceAccountCurrencyId', 'payrollAccountCurrencyId', 'feeHash'];
    const uploads = cases.filter((example) => ['estimatePayrollFee', 'createPayrollRequest'].includes(example.operationId));
    for (const example of uploads) {
      const given = Object.keys(example.query).filter((name) => csvOnly.includes(name));
      if (example.body?.contentType === 'text/csv') expect(given.length, example.name).toBeGreaterThan(0);
      else expect(given, example.name).toEqual([]);
    }
  });
});
