/**
 * A SIGKILL of the service leaves the embedded PostgreSQL it started running (an orphan holding
 * the data directory's lock file). The next start on the same DATA_DIR must stop that orphan and
 * serve again within seconds, with the data of the first life.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { isAlive } from '../../src/store/database/embeddedProcesses.js';
import { waitFor } from '../support/polling.js';
import { builtEntry } from '../support/processes.js';

const dirs: string[] = [];
const children: ChildProcess[] = [];
const postmasters: number[] = [];
afterAll(async () => {
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  for (const pid of postmasters) if (isAlive(pid)) process.kill(pid, 'SIGQUIT');
  for (const dir of dirs) await rm(dir, { recursive: true, force: true });
});

function startService(dataDir: string, port: number): { child: ChildProcess; logs: string[] } {
  const child = spawn(process.execPath, [builtEntry('src/main.ts')], {
    env: {
      ...process.env,
      PORT: String(port),
      DATA_DIR: dataDir,
      DATABASE_URL: '',
      REDIS_URL: '',
      EMBEDDED_PG_PORT: '',
      NODE_ENV: 'development',
      LOG_LEVEL: 'info',
      WORLD_FILE: 'worlds/demo.json',
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  children.push(child);
  const logs: string[] = [];
  child.stdout!.on('data', (chunk: Buffer) => logs.push(chunk.toString()));
  return { child, logs };
}

/** Milliseconds until /healthz answers 200; fails if the process exits first or after `timeoutMs`. */
async function healthy(child: ChildProcess, port: number, timeoutMs: number): Promise<number> {
  const started = Date.now();
  const status = () => {
    if (child.exitCode !== null) throw new Error(`the service exited with ${child.exitCode}`);
    return fetch(`http://127.0.0.1:${port}/healthz`).then(
      (response) => response.status,
      (error: Error) => (error.cause as { code?: string } | undefined)?.code ?? error.message,
    );
  };
  await waitFor('200 from /healthz', status, (answer) => answer === 200, { deadlineMs: timeoutMs, everyMs: 50 });
  return Date.now() - started;
}

const postmasterOf = async (dataDir: string): Promise<number> => Number((await readFile(join(dataDir, 'postgres', 'postmaster.pid'), 'utf8')).split('\n')[0]);

describe('restart after a SIGKILL (npm start on an embedded data directory)', () => {
  it('stops the orphaned postmaster and answers /healthz again within seconds', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'payroll-restart-'));
    dirs.push(dataDir);
    const port = 20_000 + Math.floor(Math.random() * 20_000);

    const { child: first, logs: firstLogs } = startService(dataDir, port);
    await healthy(first, port, 120_000); // the first life runs initdb and loads the demo world
    expect(firstLogs.join('')).toContain('world loaded');
    const orphan = await postmasterOf(dataDir);
    postmasters.push(orphan);
    first.kill('SIGKILL');
    await once(first, 'exit');
    expect(isAlive(orphan)).toBe(true); // the premise: the postmaster outlives its parent

    const { child: second, logs: secondLogs } = startService(dataDir, port);
    const restartMs = await healthy(second, port, 20_000);
    console.log(`[restart] /healthz answered ${restartMs} ms after the second start`);
    const successor = await postmasterOf(dataDir);
    postmasters.push(successor);
    expect(successor).not.toBe(orphan);
    expect(isAlive(orphan)).toBe(false);
    const ready = await fetch(`http://127.0.0.1:${port}/readyz`);
    expect(await ready.json()).toEqual({ success: true, data: { status: 'ready', database: 'embedded' } });
    expect(secondLogs.join('')).not.toContain('world loaded'); // the first life's data is still there

    second.kill('SIGTERM');
    const [code] = await once(second, 'exit');
    expect(code).toBe(0);
    expect(isAlive(successor)).toBe(false); // a clean stop takes its postmaster with it
  }, 120_000);
});
