/**
 * What already runs on an embedded data directory. A Node process killed with SIGKILL leaves its
 * postmaster running (an orphan); the next start must find it, stop it and start cleanly, because
 * PostgreSQL refuses a second postmaster on a directory ("lock file postmaster.pid already exists").
 * A postmaster whose parent is a live Node process belongs to another service or worker on the
 * same directory: that one is joined, never stopped. Process facts come from /proc (Linux); where
 * there is none, the lock file's PID alone decides.
 */
import { readFileSync } from 'node:fs';
import { readdir, readFile, readlink, realpath, rm } from 'node:fs/promises';
import { join } from 'node:path';

export type Occupant =
  | { state: 'free' }
  /** Started by a live Node process (another service or worker on this directory): join it. */
  | { state: 'owned'; pid: number; port: number }
  | { state: 'orphaned'; pid: number; port: number };

/** Reads postmaster.pid and decides who, if anyone, runs the directory; a stale lock file is removed. */
export async function inspectDataDirectory(pgdata: string): Promise<Occupant> {
  const lock = await readPostmasterLock(pgdata);
  if (lock && (await isPostgresOf(lock.pid, pgdata))) {
    return (await hasLiveNodeParent(lock.pid)) ? { state: 'owned', ...lock } : { state: 'orphaned', ...lock };
  }
  // Backends of a postmaster that was itself killed hold its shared memory: the next start would refuse it.
  await Promise.all((await postgresProcessesOf(pgdata)).map((pid) => terminate(pid, 'SIGKILL', 5_000)));
  // A lock file whose PID is now some other process would make PostgreSQL refuse to start.
  if (lock) await rm(join(pgdata, 'postmaster.pid'), { force: true });
  return { state: 'free' };
}

/** Fast shutdown of an orphaned postmaster (its sessions end, a checkpoint is written), harder if it hangs. */
export async function stopOrphan(pid: number, pgdata: string): Promise<void> {
  if (!(await terminate(pid, 'SIGINT', 15_000)) && !(await terminate(pid, 'SIGQUIT', 5_000))) await terminate(pid, 'SIGKILL', 5_000);
  await Promise.all((await postgresProcessesOf(pgdata)).map((backend) => terminate(backend, 'SIGKILL', 5_000)));
}

async function readPostmasterLock(pgdata: string): Promise<{ pid: number; port: number } | undefined> {
  const text = await readFile(join(pgdata, 'postmaster.pid'), 'utf8').catch(() => undefined);
  // Line 1: the postmaster's PID; line 4: its port.
  const [pid, , , port] = (text ?? '').split('\n').map((line) => Number.parseInt(line, 10));
  return pid && pid > 0 && port ? { pid, port } : undefined;
}

/**
 * A process that still runs. A zombie does not: an orphaned postmaster that has exited stays one
 * until init reaps it, which on some machines takes over a second.
 */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
  const stat = readProcStat(pid);
  return stat === undefined || stat.state !== 'Z';
}

/** Fields of /proc/<pid>/stat after the command name: the state (3rd field) and the parent (4th); undefined without /proc. */
function readProcStat(pid: number): { state: string; parent: number } | undefined {
  let text: string;
  try {
    text = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return undefined;
  }
  const [state = '', parent = ''] = text.slice(text.lastIndexOf(')') + 2).split(' ');
  return { state, parent: Number(parent) };
}

/** Signals `pid` and waits up to `timeoutMs` for it to exit; true when it did. */
async function terminate(pid: number, signal: NodeJS.Signals, timeoutMs: number): Promise<boolean> {
  try {
    process.kill(pid, signal);
  } catch {
    return !isAlive(pid);
  }
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (!isAlive(pid)) return true;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  return !isAlive(pid);
}

const hasProc = async (): Promise<boolean> => (await readlink('/proc/self/exe').catch(() => undefined)) !== undefined;

/** A postgres process working in `pgdata` (every postgres process's working directory is its data directory). */
async function isPostgresOf(pid: number, pgdata: string): Promise<boolean> {
  if (!(await hasProc())) return isAlive(pid);
  const [exe, cwd, dir] = await Promise.all([
    readlink(`/proc/${pid}/exe`).catch(() => ''),
    readlink(`/proc/${pid}/cwd`).catch(() => ''),
    realpath(pgdata).catch(() => pgdata),
  ]);
  return exe.endsWith('/postgres') && cwd === dir;
}

async function postgresProcessesOf(pgdata: string): Promise<number[]> {
  if (!(await hasProc())) return [];
  const pids = (await readdir('/proc')).filter((name) => /^\d+$/.test(name)).map(Number);
  const ours = await Promise.all(pids.map(async (pid) => (pid !== process.pid && (await isPostgresOf(pid, pgdata)) ? pid : 0)));
  return ours.filter((pid) => pid > 0);
}

/** The postmaster's parent is a live Node process: it still belongs to the service that started it. */
async function hasLiveNodeParent(pid: number): Promise<boolean> {
  if (!(await hasProc())) return false;
  const parent = readProcStat(pid)?.parent ?? 0;
  if (!(parent > 1)) return false;
  const [parentExe, nodeExe] = await Promise.all([readlink(`/proc/${parent}/exe`).catch(() => ''), realpath(process.execPath).catch(() => process.execPath)]);
  return parentExe === nodeExe;
}
