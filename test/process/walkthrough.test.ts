// The README's lifecycle walkthrough ("### The whole lifecycle with curl", its ```sh block), run as a
// reader runs it: bash with `set -euo pipefail`, against `npm start`'s entry point on a free port (API),
// twice in a row on the same server. Both runs must finish without a failing command (curl
// --fail-with-body makes an error answer one), reach a COMPLETED payroll request of their own and show
// a statement whose newest balanceAfter is the balance. It starts from zero ids (as a new client would): every id
// comes from an answer, none of the demo world's is written in it.
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { Decimal } from 'decimal.js';
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

  it('starts from zero ids: no id of the demo world is written in it, users are named by email', () => {
    const script = walkthrough();
    expect(script).not.toMatch(/7b1e[0-9a-f]{4}-/);
    expect(script).toMatch(/^TOKEN=\$\(npm run -s token -- --email \S+@\S+\)/m);
    expect(script).toMatch(/^ADMIN=\$\(npm run -s token -- --email \S+@\S+\)/m);
  });

  it('runs twice in a row under set -euo pipefail, each run ending with a COMPLETED request of its own', async () => {
    const script = walkthrough();
    const env = { API: api, NODE_ENV: 'development' };
    const ids: string[] = [];
    const balances: string[] = [];
    for (const round of [1, 2]) {
      const run = await runBash(script, env);
      expect({ round, code: run.code, stderr: run.code === 0 ? '' : run.stderr }).toEqual({ round, code: 0, stderr: '' });
      const done = /^payroll request ([0-9a-f-]{36}): (\w+)$/m.exec(run.stdout);
      expect(done?.[2], run.stdout).toBe('COMPLETED');
      const request = done![1]!;
      ids.push(request);
      // The statement of the run, as CSV: this request's debit and its adjustment (the refund of the
      // better quote), newest first, each with the balance after it.
      const csv = run.stdout.slice(run.stdout.indexOf('id,kind,amount,balanceAfter,'));
      const lines = csv.split(/\r?\n/).filter((line) => line.includes(request));
      expect(lines.map((line) => line.split(',').slice(1, 3))).toEqual([
        ['PAYROLL_ADJUSTMENT', '2.37'],
        ['PAYROLL_DEBIT', '-1560.36'],
      ]);
      const check = /^USD balance (\S+); the statement's newest balanceAfter (\S+)$/m.exec(run.stdout);
      expect(check?.[2], run.stdout).toBe(check?.[1]);
      expect(lines[0]!.split(',')[3]).toBe(check![1]);
      balances.push(check![1]!);
    }
    expect(new Set(ids).size).toBe(2);
    // The second run paid the same payroll again: 1557.99 USD less.
    expect(new Decimal(balances[0]!).minus(balances[1]!).toFixed(2)).toBe('1557.99');
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
