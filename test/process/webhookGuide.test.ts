// The webhooks guide (docs/webhooks.md) as a reader follows it: the service started with
// WEBHOOK_ALLOW_LOOPBACK=true, the guide's registration block run in bash, the guide's TypeScript
// receiver run with the secret the registration showed (importing the client package as a consumer
// does), then the walkthrough's lifecycle: the receiver verifies every delivery with constructEvent
// and prints the payroll request's changes up to COMPLETED. A delivery with a wrong signature is
// answered 400 with the reason.
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inRepo, run, withBuildLock } from '../support/build.js';
import { waitFor } from '../support/polling.js';
import { type Service, freePort, killLeftovers, startService, stop } from '../support/processes.js';

const blocks = (file: string, language: string) =>
  [...readFileSync(inRepo(file), 'utf8').matchAll(new RegExp(`^\`\`\`${language}\\n([\\s\\S]*?)^\`\`\`$`, 'gm'))].map((match) => match[1]!);

function bash(script: string, env: NodeJS.ProcessEnv): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile('bash', ['-c', `set -euo pipefail\n${script}`], { cwd: inRepo(), env: { ...process.env, ...env }, timeout: 150_000 }, (error, stdout, stderr) =>
      resolve({ code: error ? 1 : 0, stdout, stderr }),
    );
  });
}

let service: Service;
let api: string;
let receiver: ChildProcess | undefined;
let receiverPort: number;
const printed: string[] = [];

beforeAll(async () => {
  withBuildLock(() => run('npm', ['run', '-s', 'build:client']));
  const port = await freePort();
  api = `http://127.0.0.1:${port}`;
  receiverPort = await freePort();
  service = startService(port, { DATA_DIR: 'memory://', SIMULATED_SETTLEMENT_MS: '200', WEBHOOK_ALLOW_LOOPBACK: 'true' });
  await service.listening;
}, 120_000);

afterAll(async () => {
  receiver?.kill('SIGTERM');
  if (service) await stop(service.child);
  killLeftovers();
});

describe('docs/webhooks.md, followed on a running service', () => {
  it('registers the endpoint, verifies every delivery with constructEvent and sees the payroll request COMPLETED', async () => {
    const registration = blocks('docs/webhooks.md', 'sh').find((block) => block.includes('webhook-endpoints'));
    expect(registration, 'the guide registers an endpoint in a sh block').toBeDefined();
    expect(registration).toContain('http://127.0.0.1:4000/hooks');
    const registered = await bash(registration!.replaceAll('127.0.0.1:4000', `127.0.0.1:${receiverPort}`), { API: api, NODE_ENV: 'development' });
    expect({ code: registered.code, stderr: registered.stderr }).toEqual({ code: 0, stderr: '' });
    const secret = (JSON.parse(registered.stdout.trim().split('\n').pop()!) as { data: { secret: string } }).data.secret;
    expect(secret).toMatch(/^whsec_/);

    const source = blocks('docs/webhooks.md', 'ts')[0]!;
    expect(source).toContain('.listen(4000)');
    // In the repository, so that `payroll-fee-service` resolves to the workspace package as a consumer's install would.
    mkdirSync(inRepo('dist', 'webhook-guide'), { recursive: true });
    writeFileSync(inRepo('dist', 'webhook-guide', 'receiver.ts'), source.replace('.listen(4000)', `.listen(${receiverPort})`));
    receiver = spawn(process.execPath, ['--import', 'tsx', inRepo('dist', 'webhook-guide', 'receiver.ts')], {
      cwd: inRepo(),
      env: { ...process.env, WEBHOOK_SECRET: secret },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    receiver.stdout!.on('data', (chunk: Buffer) => printed.push(...chunk.toString().split('\n').filter(Boolean)));
    receiver.stderr!.on('data', (chunk: Buffer) => printed.push(`stderr: ${chunk.toString()}`));

    const lifecycle = blocks('docs/walkthrough.md', 'sh')[0]!;
    const walked = await bash(lifecycle, { API: api, NODE_ENV: 'development' });
    expect({ code: walked.code, stderr: walked.code === 0 ? '' : walked.stderr }).toEqual({ code: 0, stderr: '' });
    const requestId = /^payroll request ([0-9a-f-]{36}): COMPLETED$/m.exec(walked.stdout)?.[1];
    expect(requestId).toBeDefined();

    const statuses = () => printed.filter((line) => line.includes(requestId!)).map((line) => line.split(' ')[2]);
    await waitFor('the receiver printing COMPLETED', statuses, (seen) => seen.includes('COMPLETED'), {
      deadlineMs: 60_000,
      everyMs: 250,
      context: () => printed.join('\n'),
    });
    expect(statuses(), printed.join('\n')).toEqual(expect.arrayContaining(['PENDING', 'QUOTE_PROVIDED', 'COMPLETED']));
    expect(printed.filter((line) => line.startsWith('stderr'))).toEqual([]);
  }, 240_000);

  it('answers a delivery whose signature does not match with 400 and the reason', async () => {
    const body = JSON.stringify({ id: 'e', type: 'payout.status_changed', sequence: 1, occurredAt: new Date().toISOString(), data: {} });
    const t = Math.floor(Date.now() / 1000);
    const response = await fetch(`http://127.0.0.1:${receiverPort}/hooks`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'Payroll-Signature': `t=${t},v1=${'0'.repeat(64)}` },
      body,
    });
    expect(response.status).toBe(400);
    expect(await response.text()).toBe('BAD_SIGNATURE');
  });
});
