// `npm run mock` as a client developer uses it: Prism on the bundled spec answers with the spec's
// examples and rejects requests that break the spec, here driven through the published client.
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PayrollApiError, createPayrollClient, unwrap } from '../../client/index.js';
import { bundledSpecCopy, inRepo } from '../support/build.js';
import { freePort } from '../support/processes.js';

type Examples = Record<string, unknown>;
interface BundledSpec {
  paths: Record<string, Record<string, { responses: Record<string, { content?: Record<string, { examples?: Examples }> }> }>>;
}

let prism: ChildProcess;
let baseUrl: string;
let spec: BundledSpec;
let output = '';
let scratch: string;

beforeAll(async () => {
  scratch = mkdtempSync(join(tmpdir(), 'payroll-mock-'));
  const bundled = bundledSpecCopy(scratch);
  spec = JSON.parse(bundled.json) as BundledSpec;
  const port = await freePort();
  baseUrl = `http://127.0.0.1:${port}`;
  // The command of `npm run mock` (on a copy of the bundle and a free port); its own process group, stopped in afterAll.
  prism = spawn(inRepo('node_modules', '.bin', 'prism'), ['mock', bundled.yamlCopy, '--host', '127.0.0.1', '--port', String(port)], {
    cwd: inRepo(),
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  prism.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  prism.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const deadline = Date.now() + 20_000;
  for (;;) {
    if (prism.exitCode !== null) throw new Error(`prism exited (${prism.exitCode}):\n${output}`);
    if (/Prism is listening/.test(output)) break;
    if (Date.now() > deadline) throw new Error(`prism did not start within 20 s:\n${output}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}, 60_000);

afterAll(async () => {
  if (prism?.pid && prism.exitCode === null) {
    const exited = new Promise((resolve) => prism.once('exit', resolve));
    process.kill(-prism.pid, 'SIGTERM');
    await exited;
  }
  if (scratch) rmSync(scratch, { recursive: true, force: true });
});

/** Follows a local `$ref` ("#/components/examples/…") of the bundled spec. */
const deref = (node: unknown): unknown => {
  const ref = (node as { $ref?: string }).$ref;
  if (!ref) return node;
  return deref(
    ref
      .slice(2)
      .split('/')
      .reduce<unknown>((at, key) => (at as Record<string, unknown>)[key.replace(/~1/g, '/').replace(/~0/g, '~')], spec),
  );
};

const exampleOf = (path: string, method: string, status: string) => {
  const examples = spec.paths[path]![method]!.responses[status]!.content!['application/json']!.examples!;
  return (deref(Object.values(examples)[0]) as { value: unknown }).value;
};

describe('npm run mock (Prism on dist/openapi.yaml)', () => {
  it('answers GET /healthz with the spec example', async () => {
    const response = await fetch(`${baseUrl}/healthz`);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual(exampleOf('/healthz', 'get', '200'));
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

  it('rejects what breaks the spec: no token → 401, a malformed id → 400, both as PayrollApiError', async () => {
    const anonymous = createPayrollClient({ baseUrl });
    const path = '/v1/customers/payroll/requests/{requestId}' as const;
    const missingToken = await anonymous.GET(path, { params: { path: { requestId: '7b1e0007-0000-4000-8000-000000000003' } } });
    expect(missingToken.response.status).toBe(401);
    const api = createPayrollClient({ baseUrl, token: 't' });
    const malformed = await api.GET(path, { params: { path: { requestId: 'not-a-uuid' } } });
    expect(malformed.response.status).toBe(400);
    expect(malformed.response.headers.get('sl-violations')).toMatch(/uuid/);
    expect(() => unwrap(malformed)).toThrow(PayrollApiError);
  });
});
