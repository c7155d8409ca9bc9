// The README's lifecycle walkthrough ("### The whole lifecycle with curl", its ```sh block), run as a
// reader runs it: bash with `set -euo pipefail`, against `npm start`'s entry point on a free port (API),
// twice in a row on the same server. Both runs must finish without a failing command (curl
// --fail-with-body makes an error answer one) and end with a COMPLETED payroll request of their own.
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inRepo } from '../support/build.js';
import { type Service, freePort, killLeftovers, startService, stop } from '../support/processes.js';

const HEADING = '### The whole lifecycle with curl';

/** The first ```sh block after the walkthrough's heading. */
function walkthrough(): string {
  const readme = readFileSync(inRepo('README.md'), 'utf8');
  const at = readme.indexOf(HEADING);
  if (at < 0) throw new Error(`README.md has no "${HEADING}" heading`);
  const block = /^```sh\n([\s\S]*?)^```$/m.exec(readme.slice(at));
  if (!block) throw new Error(`README.md: no \`\`\`sh block after "${HEADING}"`);
  return block[1]!;
}

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

function runBash(script: string, env: NodeJS.ProcessEnv): Promise<Run> {
  return new Promise((resolve) => {
    execFile('bash', ['-c', `set -euo pipefail\n${script}`], { cwd: inRepo(), env: { ...process.env, ...env }, timeout: 150_000 }, (error, stdout, stderr) =>
      resolve({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, stdout, stderr }),
    );
  });
}

let service: Service;
let api: string;

beforeAll(async () => {
  const port = await freePort();
  api = `http://127.0.0.1:${port}`;
  service = startService(port, { DATA_DIR: 'memory://', SIMULATED_SETTLEMENT_MS: '200' });
  await service.listening;
}, 60_000);

afterAll(async () => {
  if (service) await stop(service.child);
  killLeftovers();
});

describe('README: the lifecycle walkthrough', () => {
  it('reads API from the environment and hard-codes no port', () => {
    const script = walkthrough();
    expect(script).toMatch(/^API=\$\{API:-http:\/\/localhost:3000\}$/m);
    expect(script.replace(/^API=.*$/m, '')).not.toMatch(/localhost|127\.0\.0\.1|:3000/);
  });

  it('runs twice in a row under set -euo pipefail, each run ending with a COMPLETED request of its own', async () => {
    const script = walkthrough();
    const env = { API: api, NODE_ENV: 'development' };
    const ids: string[] = [];
    for (const round of [1, 2]) {
      const run = await runBash(script, env);
      expect({ round, code: run.code, stderr: run.code === 0 ? '' : run.stderr }).toEqual({ round, code: 0, stderr: '' });
      const last = /payroll request ([0-9a-f-]{36}): (\w+)\s*$/.exec(run.stdout);
      expect(last?.[2], run.stdout).toBe('COMPLETED');
      ids.push(last![1]!);
    }
    expect(new Set(ids).size).toBe(2);
  }, 300_000);

  it('stops at the first error answer (the check is not vacuous)', async () => {
    const broken = walkthrough().replace('"amount":"1000.00"', '"amount":"-1"');
    expect(broken).not.toBe(walkthrough());
    const run = await runBash(broken, { API: api, NODE_ENV: 'development' });
    expect(run.code).not.toBe(0);
    expect(run.stdout + run.stderr).toContain('VALIDATION_ERROR');
    expect(run.stdout).not.toMatch(/payroll request .*: COMPLETED/);
  }, 120_000);
});
