// Every guide's shell blocks (README.md, packages/client/README.md, docs/*.md), run as a reader runs
// them: bash, each block as written (its own `set -euo pipefail`), a guide's blocks one after the other
// in one shell, from a directory OUTSIDE the repository with PAYROLL_REPO naming it, against `npm
// start`'s entry point on a free port (API). A block is skipped only under a marker that says why:
// `<!-- guide-test: skip — <reason> -->` on the line before it (a server or simulator that runs until
// stopped, which the test starts itself; a benchmark of minutes; a database of your own). The
// walkthrough's lifecycle reaches a COMPLETED request of its own twice in a row; the bank files
// guide's lifecycle runs against the service on the ISO 20022 rail with the bank simulator beside it.
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inRepo } from '../support/build.js';
import { type Service, freePort, killLeftovers, startService, stop } from '../support/processes.js';
import { documents } from '../support/clientReadme.js';

const SKIP = /^<!-- guide-test: skip — (.+) -->$/;
const REPO_CHECK = 'run this in the payroll-fee-service repository, or set PAYROLL_REPO to it';

interface Block {
  file: string;
  line: number;
  source: string;
  skip?: string;
}

/** Every ```sh block of a markdown file (a path from the repository root), with its skip marker's reason. */
function blocksOf(file: string): Block[] {
  const lines = readFileSync(inRepo(file), 'utf8').split('\n');
  const blocks: Block[] = [];
  for (let i = 0; i < lines.length; i++) {
    if (lines[i] !== '```sh') continue;
    const end = lines.indexOf('```', i + 1);
    const skip = SKIP.exec(lines[i - 1] ?? '')?.[1];
    blocks.push({ file, line: i + 1, source: `${lines.slice(i + 1, end).join('\n')}\n`, ...(skip ? { skip } : {}) });
    i = end;
  }
  return blocks;
}

const files = () => documents().map((path) => relative(inRepo(), path));
const runnable = (file: string) => blocksOf(file).filter((block) => !block.skip);
/** Commands of a block: lines that are neither blank, comments, nor the continuation of the line before. */
const commands = (source: string) =>
  source.split('\n').filter((line, index, all) => line.trim() !== '' && !line.trim().startsWith('#') && !(all[index - 1] ?? '').endsWith('\\'));

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

let outside: string;
function runBash(script: string, env: NodeJS.ProcessEnv): Promise<Run> {
  return new Promise((resolve) => {
    execFile('bash', ['-c', script], { cwd: outside, env: { ...process.env, ...env }, timeout: 150_000 }, (error, stdout, stderr) =>
      resolve({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, stdout, stderr }),
    );
  });
}
/** A guide's runnable blocks, each as written, one after the other in one shell. */
const guideScript = (file: string) =>
  runnable(file)
    .map((block) => block.source)
    .join('\n');

let service: Service;
let api: string;
const env = () => ({ API: api, PAYROLL_REPO: inRepo(), NODE_ENV: 'development' });
const ok = (run: Run) => ({ code: run.code, stderr: run.code === 0 ? '' : run.stderr });

beforeAll(async () => {
  outside = mkdtempSync(join(tmpdir(), 'payroll-guides-'));
  const port = await freePort();
  api = `http://127.0.0.1:${port}`;
  service = startService(port, { DATA_DIR: 'memory://', SIMULATED_SETTLEMENT_MS: '200', WEBHOOK_ALLOW_LOOPBACK: 'true' });
  await service.listening;
}, 120_000);

afterAll(async () => {
  if (service) await stop(service.child);
  killLeftovers();
  rmSync(outside, { recursive: true, force: true });
});

describe('the guides as written', () => {
  it('start every multi-step block with set -euo pipefail, and say why of every block they skip', () => {
    const blocks = files().flatMap(blocksOf);
    expect(blocks.length).toBeGreaterThan(15);
    const unguarded = blocks.filter((block) => commands(block.source).length > 1 && commands(block.source)[0] !== 'set -euo pipefail');
    expect(unguarded.map((block) => `${block.file}:${block.line}`)).toEqual([]);
    for (const block of blocks.filter((b) => b.skip)) expect(block.skip!.length, `${block.file}:${block.line}`).toBeGreaterThan(30);
  });

  it('stop, saying so, outside the repository when PAYROLL_REPO is not set (npm run alone would fail without a word)', async () => {
    const tour = runnable('README.md')[0]!.source;
    const run = await runBash(tour, { API: api, PAYROLL_REPO: '' });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(REPO_CHECK);
  });

  it('the walkthrough reads API from the environment and starts from zero ids', () => {
    const lifecycle = runnable('docs/walkthrough.md')[0]!.source;
    expect(lifecycle).toMatch(/^API=\$\{API:-http:\/\/localhost:3000\}$/m);
    expect(lifecycle.replace(/^API=.*$/m, '')).not.toMatch(/localhost|127\.0\.0\.1|:3000/);
    expect(lifecycle).not.toMatch(/7b1e[0-9a-f]{4}-/);
    expect(lifecycle).toMatch(/^TOKEN=\$\(npm run -s token -- --email \S+@\S+\)/m);
  });
});

/** The statement lines of `request` in a run's CSV statement, and the balance check the lifecycle prints. */
function statementOf(stdout: string, request: string) {
  const csv = stdout.slice(stdout.indexOf('id,kind,amount,balanceAfter,'));
  const lines = csv.split(/\r?\n/).filter((line) => line.includes(request));
  const check = /^USD balance (\S+); the statement's newest balanceAfter (\S+)$/m.exec(stdout);
  return { lines: lines.map((line) => line.split(',').slice(1, 3)), newest: lines[0]?.split(',')[3], balance: check?.[1], after: check?.[2] };
}

describe('every guide run as pasted, from outside the repository', () => {
  let firstRequest = '';

  it('docs/walkthrough.md: every block in one shell; the lifecycle ends COMPLETED with its statement', async () => {
    const run = await runBash(guideScript('docs/walkthrough.md'), env());
    expect(ok(run)).toEqual({ code: 0, stderr: '' });
    const request = /^payroll request ([0-9a-f-]{36}): (\w+)$/m.exec(run.stdout);
    expect(request?.[2], run.stdout).toBe('COMPLETED');
    const statement = statementOf(run.stdout, request![1]!);
    // This request's debit and its adjustment (the refund of the better quote), newest first.
    expect(statement.lines).toEqual([
      ['PAYROLL_ADJUSTMENT', '2.37'],
      ['PAYROLL_DEBIT', '-1560.36'],
    ]);
    expect(statement.after).toBe(statement.balance);
    expect(run.stdout).toContain('"reference":"Wire 2026-11-23"');
    firstRequest = request![1]!;
  }, 150_000);

  it('docs/walkthrough.md: the lifecycle again, a request of its own, 1557.99 USD less', async () => {
    const run = await runBash(runnable('docs/walkthrough.md')[0]!.source, env());
    expect(ok(run)).toEqual({ code: 0, stderr: '' });
    const request = /^payroll request ([0-9a-f-]{36}): COMPLETED$/m.exec(run.stdout)![1]!;
    const statement = statementOf(run.stdout, request);
    expect(statement.newest).toBe(statement.balance);
    // Its own debit and adjustment, 1557.99 USD net, whatever the earlier blocks moved.
    expect(statement.lines).toEqual([
      ['PAYROLL_ADJUSTMENT', '2.37'],
      ['PAYROLL_DEBIT', '-1560.36'],
    ]);
    expect(firstRequest).not.toBe(request);
  }, 150_000);

  it('docs/walkthrough.md: an error answer stops the lifecycle (the check is not vacuous)', async () => {
    const lifecycle = runnable('docs/walkthrough.md')[0]!.source;
    const broken = lifecycle.replace('"amount":"1000.00"', '"amount":"-1"');
    expect(broken).not.toBe(lifecycle);
    const run = await runBash(broken, env());
    expect(run.code).not.toBe(0);
    expect(run.stdout + run.stderr).toContain('VALIDATION_ERROR');
    expect(run.stdout).not.toMatch(/payroll request .*: COMPLETED/);
  }, 150_000);

  it('docs/spreadsheet.md: the template as it comes plus a row, estimated and created; the refusal it quotes', async () => {
    const run = await runBash(guideScript('docs/spreadsheet.md'), env());
    expect(ok(run)).toEqual({ code: 0, stderr: '' });
    expect(run.stdout).toMatch(/^beneficiaryReference,beneficiaryId,amount,amountCurrencyType,purposeCode\nACME-EMP-1001,,1000\.00,SOURCE,SAL$/m);
    expect(run.stdout).toMatch(/"status":"PENDING"/);
    const refusal = JSON.parse(run.stdout.trim().split('\n').pop()!) as { error: { code: string; details: { message: string }[] } };
    expect(refusal.error.code).toBe('VALIDATION_ERROR');
    const guide = readFileSync(inRepo('docs', 'spreadsheet.md'), 'utf8');
    const quoted = [...guide.matchAll(/"message": "([^"]+)"/g)].map((match) => match[1]!.replace(/\s+/g, ' '));
    expect(quoted.length).toBe(2);
    expect(refusal.error.details.map((detail) => detail.message)).toEqual(expect.arrayContaining(quoted));
  }, 120_000);

  it('docs/webhooks.md: the registration shows the secret once', async () => {
    const run = await runBash(guideScript('docs/webhooks.md'), env());
    expect(ok(run)).toEqual({ code: 0, stderr: '' });
    expect((JSON.parse(run.stdout.trim().split('\n').pop()!) as { data: { secret: string } }).data.secret).toMatch(/^whsec_/);
  }, 120_000);

  it('README.md: the tour ends with a payout estimate, its amounts JSON numbers as the README says', async () => {
    const tour = runnable('README.md')[0]!.source;
    expect(commands(tour).length).toBeLessThanOrEqual(12);
    const run = await runBash(guideScript('README.md'), env());
    expect(ok(run)).toEqual({ code: 0, stderr: '' });
    const last = JSON.parse(run.stdout.trim().split('\n').pop()!) as { success: boolean; data: { feeHash: string; amount: number } };
    expect(last.success).toBe(true);
    expect(last.data.amount).toBe(1500);
    expect(readFileSync(inRepo('README.md'), 'utf8')).toMatch(/payout estimate[\s\S]{0,120}JSON numbers/);
  }, 120_000);

  it("docs/bank-files.md: a payroll on the ISO 20022 rail, Olena's payout rejected, Youssef's paid then returned", async () => {
    // The guide's skipped block starts these two; here on folders of the test's own, with shorter delays.
    const bank = join(outside, 'bank');
    const folders = { BANK_OUTBOX_DIR: join(bank, 'outbox'), BANK_INBOX_DIR: join(bank, 'inbox') };
    for (const folder of Object.values(folders)) mkdirSync(folder, { recursive: true });
    const port = await freePort();
    const rail = startService(port, { DATA_DIR: 'memory://', SIMULATED_SETTLEMENT_MS: '200', BANK_RAIL: 'iso20022', BANK_REPORT_SETTLE_MS: '0', ...folders });
    const simulatorArgs = [
      '--outbox',
      folders.BANK_OUTBOX_DIR,
      '--inbox',
      folders.BANK_INBOX_DIR,
      '--delay-ms',
      '300',
      '--poll-ms',
      '100',
      '--return-after-ms',
      '1000',
    ];
    const simulator: ChildProcess = spawn(process.execPath, ['--import', 'tsx', inRepo('scripts/bank-simulator.ts'), ...simulatorArgs], {
      cwd: inRepo(),
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let simulatorErrors = '';
    simulator.stderr!.on('data', (chunk: Buffer) => (simulatorErrors += chunk.toString()));
    try {
      await rail.listening;
      const run = await runBash(guideScript('docs/bank-files.md'), { ...env(), API: `http://127.0.0.1:${port}` });
      expect(ok(run), `${run.stdout}\nsimulator: ${simulatorErrors}\nservice: ${rail.stderr.join('')}`).toEqual({ code: 0, stderr: '' });
      const states = run.stdout.split('\n').filter((line) => line.startsWith('payroll request '));
      expect(states.at(-1), run.stdout).toMatch(/: FAILED: FAILED \(.+\), RETURNED \(AC04\)$/);
      // PARTIALLY_COMPLETED in between shows only when a poll falls between the settlement and the
      // return, which the simulator books at once; test/contract/bankBooks.test.ts asserts that step.
    } finally {
      simulator.kill('SIGTERM');
      await stop(rail.child);
    }
  }, 150_000);

  it('no other guide has a block left unrun and unmarked', () => {
    const covered = new Set(['docs/walkthrough.md', 'docs/spreadsheet.md', 'docs/webhooks.md', 'README.md', 'docs/bank-files.md']);
    const uncovered = files()
      .filter((file) => !covered.has(file))
      .flatMap(runnable)
      .map((block) => `${block.file}:${block.line}`);
    expect(uncovered).toEqual([]);
  });
});
