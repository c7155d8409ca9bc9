// `npm run mock` as a client developer uses it: started with `npm run -s mock -- --port N` (on a copy of
// the bundled spec), driven through the published client and plain fetch. A request that breaks the
// spec gets the service's own envelope, 400 VALIDATION_ERROR naming the field; any other request gets
// its operation's success example — checked here for every operation of the spec.
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PayrollApiError, createPayrollClient, unwrap } from '../../../packages/client/src/index.js';
import { bundledSpecCopy, inRepo } from '../../support/build.js';
import { pollUntil } from '../../support/polling.js';
import { freePort } from '../../support/processes.js';

interface Parameter {
  name: string;
  in: string;
  required?: boolean;
  example?: unknown;
  $ref?: string;
}
interface Media {
  examples?: Record<string, { $ref?: string; value?: unknown }>;
}
interface Operation {
  operationId: string;
  security?: unknown[];
  parameters?: Parameter[];
  requestBody?: { content: Record<string, Media> };
  responses: Record<string, { content?: Record<string, Media> }>;
}
type PathItem = Record<string, Operation> & { parameters?: Parameter[] };
interface BundledSpec {
  paths: Record<string, PathItem>;
}

let mock: ChildProcess;
let baseUrl: string;
let port: number;
let spec: BundledSpec;
let specCopy: string;
let output = '';
let scratch: string;

/** Waits until `child`'s output matches `pattern`; rejects with the output when it exits first. */
async function outputMatches(child: ChildProcess, read: () => string, pattern: RegExp, timeoutMs = 30_000): Promise<void> {
  const matched = () => {
    if (pattern.test(read())) return true;
    if (child.exitCode !== null) throw new Error(`the mock exited (${child.exitCode}):\n${read()}`);
    return false;
  };
  await pollUntil(`the mock's output to match ${pattern}`, matched, { deadlineMs: timeoutMs, everyMs: 100, context: read });
}

/** `npm run -s mock -- …args` in a process group of its own; its output collected in `sink`. */
function startMock(args: string[], sink: (text: string) => void): ChildProcess {
  const child = spawn('npm', ['run', '-s', 'mock', '--', ...args], { cwd: inRepo(), detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  child.stdout?.on('data', (chunk: Buffer) => sink(chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => sink(chunk.toString()));
  return child;
}

beforeAll(async () => {
  scratch = mkdtempSync(join(tmpdir(), 'payroll-mock-'));
  const bundled = bundledSpecCopy(scratch);
  spec = JSON.parse(bundled.json) as BundledSpec;
  specCopy = join(scratch, 'openapi.json');
  writeFileSync(specCopy, bundled.json);
  port = await freePort();
  baseUrl = `http://127.0.0.1:${port}`;
  mock = startMock(['--port', String(port), '--spec', specCopy], (text) => (output += text));
  await outputMatches(mock, () => output, /listening on http:\/\/127\.0\.0\.1:\d+/);
}, 120_000);

afterAll(async () => {
  if (mock?.pid && mock.exitCode === null) {
    const exited = new Promise((resolve) => mock.once('exit', resolve));
    process.kill(-mock.pid, 'SIGTERM');
    await exited;
  }
  if (scratch) rmSync(scratch, { recursive: true, force: true });
});

/** Follows a local `$ref` ("#/components/examples/…") of the bundled spec. */
const deref = <T>(node: T): T => {
  const ref = (node as { $ref?: string }).$ref;
  if (!ref) return node;
  return deref(
    ref
      .slice(2)
      .split('/')
      .reduce<unknown>((at, key) => (at as Record<string, unknown>)[key.replace(/~1/g, '/').replace(/~0/g, '~')], spec) as T,
  );
};

const firstExample = (media: Media | undefined) => deref(Object.values(media?.examples ?? {})[0]!).value;
const successOf = (op: Operation) => Object.entries(op.responses).find(([status]) => status.startsWith('2'))!;
const exampleOf = (path: string, method: string, status: string) =>
  firstExample(deref(spec.paths[path]![method]!.responses[status]!).content!['application/json']);
const METHODS = ['get', 'put', 'post', 'delete', 'patch'];

/** A request the spec allows, made of its examples: path parameters, required query parameters, the first request body example. */
function exampleRequest(path: string, item: PathItem, op: Operation): { url: string; init: RequestInit } {
  const parameters = [...(item.parameters ?? []), ...(op.parameters ?? [])].map(deref);
  let url = path;
  const query = new URLSearchParams();
  for (const parameter of parameters) {
    if (parameter.in === 'path') url = url.replace(`{${parameter.name}}`, encodeURIComponent(String(parameter.example)));
    if (parameter.in === 'query' && parameter.required) query.set(parameter.name, String(parameter.example));
  }
  const headers: Record<string, string> = op.security?.length === 0 ? {} : { Authorization: 'Bearer any-token' };
  const body = op.requestBody && firstExample(op.requestBody.content['application/json']);
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  return { url: `${baseUrl}${url}${query.size ? `?${query}` : ''}`, init: { headers, ...(body === undefined ? {} : { body: JSON.stringify(body) }) } };
}

/** A 400 VALIDATION_ERROR envelope with these facts, and a message for people. */
const refused = (facts: { field?: string; entryIndex?: number; reason?: string }) => ({
  success: false,
  error: { code: 'VALIDATION_ERROR', message: expect.any(String), ...facts },
});

describe('npm run mock -- --port N (the mock on the bundled spec)', () => {
  it('listens on the port it is given', () => {
    expect(output).toContain(`listening on http://127.0.0.1:${port}`);
  });

  it('refuses a port that is not one, with its usage', async () => {
    let text = '';
    const child = startMock(['--port', 'forty', '--spec', specCopy], (chunk) => (text += chunk));
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    expect(code).toBe(2);
    expect(text).toContain('--port must be a port number, not "forty"');
    expect(text).toContain('usage: npm run mock --');
  }, 120_000);

  it('answers GET /healthz with the spec example', async () => {
    const response = await fetch(`${baseUrl}/healthz`);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual(exampleOf('/healthz', 'get', '200'));
  });

  it('answers every operation of the spec, called with its examples, with its success status and example', async () => {
    const answers: string[] = [];
    const expected: string[] = [];
    for (const [path, item] of Object.entries(spec.paths)) {
      for (const method of METHODS.filter((name) => item[name])) {
        const op = item[method]!;
        const { url, init } = exampleRequest(path, item, op);
        const response = await fetch(url, { ...init, method: method.toUpperCase() });
        const [status, success] = successOf(op);
        // A file-only answer (the payroll CSV template) is its example's text; JSON comes first where both are offered.
        const csv = success.content?.['application/json'] ? undefined : success.content?.['text/csv'];
        answers.push(`${op.operationId} ${response.status} ${csv ? await response.text() : JSON.stringify(await response.json())}`);
        expected.push(`${op.operationId} ${status} ${csv ? String(firstExample(csv)) : JSON.stringify(firstExample(success.content?.['application/json']))}`);
      }
    }
    expect(answers.length).toBeGreaterThan(15);
    expect(answers).toEqual(expected);
  });

  it('answers the typed client with the examples, any bearer token accepted', async () => {
    const api = createPayrollClient({ baseUrl, token: 'any-token-works-on-the-mock' });
    const estimate = unwrap(
      await api.POST('/v1/customers/payroll/estimate', {
        body: {
          sourceAccountCurrencyId: '7b1e0005-0000-4000-8000-000000000001',
          payrollAccountCurrencyId: '7b1e0005-0000-4000-8000-000000000004',
          amountSplitDetails: [{ beneficiaryId: '7b1e0006-0000-4000-8000-000000000001', amount: '1000.00' }],
        },
      }),
    );
    expect(estimate).toEqual((exampleOf('/v1/customers/payroll/estimate', 'post', '200') as { data: unknown }).data);
  });

  it('rejects what breaks the spec: no token → 401, a malformed id → 400 naming the parameter, both as PayrollApiError', async () => {
    const anonymous = createPayrollClient({ baseUrl });
    const path = '/v1/customers/payroll/requests/{requestId}' as const;
    const missingToken = await anonymous.GET(path, { params: { path: { requestId: '7b1e0007-0000-4000-8000-000000000003' } } });
    expect(missingToken.response.status).toBe(401);
    expect(missingToken.error).toEqual({ success: false, error: { code: 'UNAUTHORIZED', message: expect.any(String), reason: 'TOKEN_MISSING' } });
    const api = createPayrollClient({ baseUrl, token: 't' });
    const malformed = await api.GET(path, { params: { path: { requestId: 'not-a-uuid' } } });
    expect(malformed.response.status).toBe(400);
    expect(malformed.error).toEqual({ success: false, error: { code: 'VALIDATION_ERROR', message: expect.any(String), field: 'requestId' } });
    expect(() => unwrap(malformed)).toThrow(PayrollApiError);
  });

  it('answers an invalid body with 400 VALIDATION_ERROR in the envelope, naming the field (never an example of another error)', async () => {
    const post = (body: unknown) =>
      fetch(`${baseUrl}/v1/customers/payroll/estimate`, {
        method: 'POST',
        headers: { Authorization: 'Bearer t', 'Content-Type': 'application/json' },
        body: JSON.stringify(body),
      });
    const bare = await post({ amountSplitDetails: [] });
    expect(bare.status).toBe(400);
    expect(await bare.json()).toEqual(refused({ field: '/sourceAccountCurrencyId' }));
    const accounts = { sourceAccountCurrencyId: '7b1e0005-0000-4000-8000-000000000001', payrollAccountCurrencyId: '7b1e0005-0000-4000-8000-000000000004' };
    const empty = await post({ ...accounts, amountSplitDetails: [] });
    expect(empty.status).toBe(400);
    expect(await empty.json()).toEqual(refused({ field: '/amountSplitDetails' }));
    const badId = await post({ ...accounts, amountSplitDetails: [{ beneficiaryId: 'nope', amount: '1.00' }] });
    expect(await badId.json()).toEqual(refused({ field: '/amountSplitDetails/0/beneficiaryId', entryIndex: 0 }));
  });

  it('answers a missing query parameter with 400 naming it, and an unknown route or method in the envelope', async () => {
    const headers = { Authorization: 'Bearer t' };
    const missing = await fetch(`${baseUrl}/v1/accounts/7b1e0004-0000-4000-8000-000000000001/payouts/estimate?amount=10.00&currency=USD`, { headers });
    expect(missing.status).toBe(400);
    expect(await missing.json()).toEqual(refused({ field: 'beneficiaryId' }));
    const unknown = await fetch(`${baseUrl}/v1/nothing-here`, { headers });
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toEqual({ success: false, error: { code: 'NOT_FOUND', message: expect.any(String) } });
    const wrongMethod = await fetch(`${baseUrl}/healthz`, { method: 'PATCH' });
    expect(wrongMethod.status).toBe(405);
  });

  it('picks another example with Prefer: code=<status> or example=<name>', async () => {
    const url = `${baseUrl}/v1/customers/payroll/requests/7b1e0007-0000-4000-8000-000000000003`;
    const notFound = await fetch(url, { headers: { Authorization: 'Bearer t', Prefer: 'code=404' } });
    expect(notFound.status).toBe(404);
    expect(await notFound.json()).toEqual(exampleOf('/v1/customers/payroll/requests/{requestId}', 'get', '404'));
    const payout = `${baseUrl}/v1/accounts/7b1e0004-0000-4000-8000-000000000001/payouts/estimate?amount=10.00&currency=USD&beneficiaryId=7b1e0006-0000-4000-8000-000000000001`;
    const unavailable = await fetch(payout, { headers: { Authorization: 'Bearer t', Prefer: 'example=EstimatePayoutFeesUnavailable' } });
    expect(unavailable.status).toBe(200);
    expect(((await unavailable.json()) as { data: { isEstimateAvailable: boolean } }).data.isEstimateAvailable).toBe(false);
  });

  it('answers a Prefer naming no example or status of the operation with 400 VALIDATION_ERROR listing the ones it has', async () => {
    const url = `${baseUrl}/v1/customers/payroll/requests/7b1e0007-0000-4000-8000-000000000003`;
    for (const prefer of ['example=nonexistent', 'code=418']) {
      const none = await fetch(url, { headers: { Authorization: 'Bearer t', Prefer: prefer } });
      expect(none.status, prefer).toBe(400);
      expect(await none.json()).toEqual(refused({ field: 'Prefer' }));
    }
  });

  it('refuses a CSV estimate or creation without its account-currency query parameters, and those parameters with a JSON body, as the service does', async () => {
    const headers = { Authorization: 'Bearer t', 'Content-Type': 'text/csv' };
    const csv = 'beneficiaryReference,amount\nACME-EMP-1001,10.00\n';
    const estimate = await fetch(`${baseUrl}/v1/customers/payroll/estimate`, { method: 'POST', headers, body: csv });
    expect(estimate.status).toBe(400);
    expect(await estimate.json()).toEqual(refused({ field: 'sourceAccountCurrencyId' }));
    const create = await fetch(`${baseUrl}/v1/customers/payroll/requests?sourceAccountCurrencyId=7b1e0005-0000-4000-8000-000000000001`, {
      method: 'POST',
      headers,
      body: csv,
    });
    expect(create.status).toBe(400);
    expect(await create.json()).toEqual(refused({ field: 'feeHash' }));
    const json = await fetch(`${baseUrl}/v1/customers/payroll/estimate?sourceAccountCurrencyId=7b1e0005-0000-4000-8000-000000000001`, {
      method: 'POST',
      headers: { Authorization: 'Bearer t', 'Content-Type': 'application/json' },
      body: JSON.stringify(firstExample(spec.paths['/v1/customers/payroll/estimate']!.post!.requestBody!.content['application/json'])),
    });
    expect(json.status).toBe(400);
    expect(await json.json()).toEqual(refused({ field: 'sourceAccountCurrencyId' }));
  });
});
