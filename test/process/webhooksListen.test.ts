// `npm run webhooks:listen` as a developer runs it: the script registers its endpoint through the
// API, prints each event, verifies it and forwards it to the developer's receiver; Ctrl-C (SIGTERM
// here) deletes the endpoint. Refused outside development.
import { type ChildProcessWithoutNullStreams, execFile, spawn } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { constructEvent } from '../../packages/client/src/webhooks.js';
import type { ExecutionDeps } from '../../src/usecases/payroll/execution.js';
import { ids } from '../fixtures/world.js';
import { inRepo } from '../support/build.js';
import { type Listening, listen } from '../support/http.js';
import type { TestServer } from '../support/server.js';
import { drain, startServerWithWorker } from '../support/worker.js';

const TSX = inRepo('node_modules/.bin/tsx');
const SCRIPT = inRepo('scripts/webhooks-listen.ts');

let server: TestServer;
let worker: ExecutionDeps;
let receiver: Listening;
const forwarded: Array<{ body: string; signature: string }> = [];

beforeAll(async () => {
  ({ server, worker } = await startServerWithWorker());
  receiver = await listen((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      forwarded.push({ body, signature: String(req.headers['payroll-signature']) });
      res.writeHead(200).end();
    });
  });
});
afterAll(async () => {
  await receiver.close();
  await server.close();
});

/** Resolves with the stdout so far once `pattern` appears in it (or rejects when the process ends first). */
function waitFor(child: ChildProcessWithoutNullStreams, output: { text: string }, pattern: RegExp): Promise<string> {
  return new Promise((resolve, reject) => {
    const check = () => {
      if (pattern.test(output.text)) {
        child.stdout.off('data', check);
        resolve(output.text);
      }
    };
    child.stdout.on('data', check);
    child.once('exit', (code) => reject(new Error(`webhooks:listen exited ${code}: ${output.text}`)));
    setTimeout(() => reject(new Error(`no ${pattern} in the output of webhooks:listen: ${output.text}`)), 40_000).unref();
    check();
  });
}

describe('npm run webhooks:listen', () => {
  it('registers an endpoint, prints a ping as it arrives and forwards it verifiable; stopping deletes the endpoint', async () => {
    // The listener checks signatures against its own clock: the service's must be the real one.
    server.clock.advance((Date.now() - server.clock.now().getTime()) / 1000);
    const token = await server.token(ids.userA);
    const child = spawn(TSX, [SCRIPT, '--forward-to', `${receiver.url}/local`, '--base-url', server.baseUrl, '--token', token], {
      cwd: inRepo(),
      env: { ...process.env, NODE_ENV: 'test', DATABASE_URL: '' },
    });
    const output = { text: '' };
    child.stdout.on('data', (chunk: Buffer) => (output.text += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output.text += chunk.toString()));
    try {
      const ready = await waitFor(child, output, /Signing secret[^\n]*: (whsec_\S+)/);
      const endpointId = /Ready: endpoint (\S+)/.exec(ready)![1]!;
      const secret = /Signing secret[^\n]*: (whsec_\S+)/.exec(ready)![1]!;
      const ping = await server.as(ids.userA).POST('/v1/customers/webhook-endpoints/{endpointId}/test', { params: { path: { endpointId } } });
      expect(ping.response.status).toBe(202);
      await drain(worker);
      await waitFor(child, output, /ping {2}\S+ {2}-> 200/);
      expect(forwarded).toHaveLength(1);
      const event = await constructEvent(forwarded[0]!.body, forwarded[0]!.signature, secret, { now: server.clock.now() });
      expect(event).toMatchObject({ id: ping.data!.data.eventId, type: 'ping', data: { endpointId } });

      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
      const endpoints = await server.as(ids.userA).GET('/v1/customers/webhook-endpoints', {});
      expect(endpoints.data!.data.items.map((item) => item.id)).not.toContain(endpointId);
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
    }
  }, 120_000);

  it('is refused outside development, as npm run token is', async () => {
    const ran = await new Promise<{ code: number; stderr: string }>((resolve) =>
      execFile(
        TSX,
        [SCRIPT, '--forward-to', 'http://127.0.0.1:9/'],
        { cwd: inRepo(), env: { ...process.env, NODE_ENV: 'test', JWT_JWKS_URL: 'https://idp.example/jwks' } },
        (error, _stdout, stderr) => resolve({ code: error ? Number((error as { code?: number }).code ?? 1) : 0, stderr }),
      ),
    );
    expect(ran.code).toBe(2);
    expect(ran.stderr).toContain('webhooks:listen is for development');
  }, 120_000);
});
