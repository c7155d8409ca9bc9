// The walkthrough guide (docs/walkthrough.md) and the README's tour, run as a reader runs them: bash
// with `set -euo pipefail` (so an unset variable fails too), against `npm start`'s entry point on a
// free port (API). The lifecycle block ("## The whole lifecycle with curl") runs twice in a row on the
// same server, then the guide's blocks one after the other in one shell, then the README's tour. Each
// run must finish without a failing command (curl --fail-with-body makes an error answer one); the
// lifecycle reaches a COMPLETED payroll request of its own and shows a statement whose newest
// balanceAfter is the balance. It starts from zero ids: every id comes from an answer, none of the
// demo world's is written in it.
import { execFile } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import { Decimal } from 'decimal.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inRepo } from '../support/build.js';
import { type Service, freePort, killLeftovers, startService, stop } from '../support/processes.js';

const GUIDE = 'docs/walkthrough.md';
const HEADING = '## The whole lifecycle with curl';
const TOUR_MARKER = '<!-- tour: run by test/process/walkthrough.test.ts -->';

/** The first ```sh block after `marker` in `file`. */
function blockAfter(file: string, marker: string): string {
  const text = readFileSync(inRepo(file), 'utf8');
  const at = text.indexOf(marker);
  if (at < 0) throw new Error(`${file} has no "${marker}"`);
  const block = /^```sh\n([\s\S]*?)^```$/m.exec(text.slice(at));
  if (!block) throw new Error(`${file}: no \`\`\`sh block after "${marker}"`);
  return block[1]!;
}

const walkthrough = () => blockAfter(GUIDE, HEADING);
/** Every ```sh block of the guide, in order, as one script. */
const wholeGuide = () => [...readFileSync(inRepo(GUIDE), 'utf8').matchAll(/^```sh\n([\s\S]*?)^```$/gm)].map((match) => match[1]!).join('\n');

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

describe('docs/walkthrough.md and the README tour', () => {
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

  it('runs every block of the guide in one shell, in order, with no unset variable and no failing command', async () => {
    const script = wholeGuide();
    expect(script).not.toMatch(/uuidgen/);
    const run = await runBash(script, { API: api, NODE_ENV: 'development' });
    expect({ code: run.code, stderr: run.code === 0 ? '' : run.stderr }).toEqual({ code: 0, stderr: '' });
    expect(run.stdout).toMatch(/^payroll request [0-9a-f-]{36}: COMPLETED$/m);
    expect(run.stdout).toContain('"reference":"Wire 2026-11-23"');
  }, 300_000);

  it('the spreadsheet guide runs on its own: the template, and a CSV estimate and creation', async () => {
    const script = [...readFileSync(inRepo('docs/spreadsheet.md'), 'utf8').matchAll(/^```sh\n([\s\S]*?)^```$/gm)].map((match) => match[1]!).join('\n');
    // As a reader runs it, in the repository (payroll.csv lands there, and is removed after).
    const run = await runBash(script, { API: api, NODE_ENV: 'development' }).finally(() => rmSync(inRepo('payroll.csv'), { force: true }));
    expect({ code: run.code, stderr: run.code === 0 ? '' : run.stderr }).toEqual({ code: 0, stderr: '' });
    expect(run.stdout).toMatch(/"status":"PENDING"/);
  }, 120_000);

  it('the README tour runs as written and ends with a payout estimate', async () => {
    const script = blockAfter('README.md', TOUR_MARKER);
    expect(script.split('\n').filter((line) => line.trim() !== '').length).toBeLessThanOrEqual(12);
    const run = await runBash(script, { API: api, NODE_ENV: 'development' });
    expect({ code: run.code, stderr: run.code === 0 ? '' : run.stderr }).toEqual({ code: 0, stderr: '' });
    const last = JSON.parse(run.stdout.trim().split('\n').pop()!) as { success: boolean; data: { feeHash: string; amount: number } };
    expect(last.success).toBe(true);
    expect(last.data.amount).toBe(1500);
    expect(last.data.feeHash).toMatch(/:/);
  }, 120_000);

  it('stops at the first error answer (the check is not vacuous)', async () => {
    const broken = walkthrough().replace('"amount":"1000.00"', '"amount":"-1"');
    expect(broken).not.toBe(walkthrough());
    const run = await runBash(broken, { API: api, NODE_ENV: 'development' });
    expect(run.code).not.toBe(0);
    expect(run.stdout + run.stderr).toContain('VALIDATION_ERROR');
    expect(run.stdout).not.toMatch(/payroll request .*: COMPLETED/);
  }, 120_000);
});
