// `npm run mock -- --release 2.0.0` as an integrator's CI pins it: the mock of a stored release
// (openapi/released/2.0.0/openapi.json, kept by `npm run release`) answers an operation with that
// release's own example, through the published client; an unknown release is refused, naming those there are.
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPayrollClient, unwrap } from '../../../packages/client/src/index.js';
import { inRepo } from '../../support/build.js';
import { pollUntil } from '../../support/polling.js';
import { freePort } from '../../support/processes.js';

type Json = Record<string, unknown>;
const RELEASE = '2.0.0';
const released = JSON.parse(readFileSync(inRepo('openapi', 'released', RELEASE, 'openapi.json'), 'utf8')) as Json;

/** A node of the release's bundle by its JSON Pointer ("#/components/…"). */
const at = (pointer: string): Json =>
  pointer
    .slice(2)
    .split('/')
    .reduce<Json>((node, key) => node[key.replace(/~1/g, '/').replace(/~0/g, '~')] as Json, released);

let mock: ChildProcess;
let baseUrl: string;
let output = '';

beforeAll(async () => {
  const port = await freePort();
  baseUrl = `http://127.0.0.1:${port}`;
  mock = spawn('npm', ['run', '-s', 'mock', '--', '--release', RELEASE, '--port', String(port)], {
    cwd: inRepo(),
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  mock.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  mock.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const listening = () => {
    if (/listening on http/.test(output)) return true;
    if (mock.exitCode !== null) throw new Error(`the mock of ${RELEASE} exited (${mock.exitCode}):\n${output}`);
    return false;
  };
  await pollUntil(`the mock of ${RELEASE} listening`, listening, { deadlineMs: 45_000, everyMs: 100, context: () => output });
}, 120_000);

afterAll(async () => {
  if (mock?.pid && mock.exitCode === null) {
    const exited = new Promise((resolve) => mock.once('exit', resolve));
    process.kill(-mock.pid, 'SIGTERM');
    await exited;
  }
});

describe(`npm run mock -- --release ${RELEASE}`, () => {
  it('serves the stored release, saying which', () => {
    expect(output).toContain(`openapi/released/${RELEASE}/openapi.json`);
  });

  it("answers getPayrollRequest with the release's own example, through the client", async () => {
    const operation = (released.paths as Record<string, Record<string, Json>>)['/v1/customers/payroll/requests/{requestId}']!.get!;
    const ok = (operation.responses as Json)['200'] as Json;
    const response = typeof ok.$ref === 'string' ? at(ok.$ref) : ok;
    const example = Object.values((response.content as Record<string, { examples: Record<string, { $ref: string }> }>)['application/json']!.examples)[0]!;
    const expected = (at(example.$ref).value as { data: { id: string } }).data;
    const api = createPayrollClient({ baseUrl, token: 'any-token' });
    const request = unwrap(await api.GET('/v1/customers/payroll/requests/{requestId}', { params: { path: { requestId: expected.id } } }));
    expect(request).toEqual(expected);
  });

  it('refuses a release that was never made, naming the ones there are', async () => {
    const run = await new Promise<{ code: number; stderr: string }>((resolve) =>
      execFile('npm', ['run', '-s', 'mock', '--', '--release', '9.9.9'], { cwd: inRepo(), timeout: 30_000 }, (error, _stdout, stderr) =>
        resolve({ code: error ? Number(error.code ?? 1) : 0, stderr }),
      ),
    );
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('--release 9.9.9: no such release (released: 1.0.0, 2.0.0)');
  }, 120_000);
});
