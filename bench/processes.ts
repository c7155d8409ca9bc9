/**
 * The benchmark's processes: starting and stopping them, waiting for them, and what /proc says
 * about them (memory, CPU time, the embedded PostgreSQL's processes).
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { closeSync, openSync, readdirSync, readFileSync, readlinkSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
export const children = new Set<ChildProcess>();

/** `npm start`'s entry point, built first as its prestart builds it (scripts/build-server.mjs). */
export function builtServerEntry(): string {
  execFileSync(process.execPath, ['scripts/build-server.mjs'], { cwd: ROOT, stdio: 'inherit' });
  return 'dist/server/src/main.js';
}

export function start(nodeArgs: string[], env: NodeJS.ProcessEnv, logFile: string): ChildProcess {
  const fd = openSync(logFile, 'a');
  const child = spawn(process.execPath, nodeArgs, { cwd: ROOT, env, stdio: ['ignore', fd, fd] });
  closeSync(fd);
  children.add(child);
  child.once('exit', () => children.delete(child));
  return child;
}

export async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
  await exited;
  clearTimeout(timer);
}

export function tail(file: string, lines = 30): string {
  try {
    return readFileSync(file, 'utf8').trimEnd().split('\n').slice(-lines).join('\n');
  } catch {
    return '(no log)';
  }
}

/** Polls until `probe` answers true; fails early when the process exits. */
export async function waitFor(child: ChildProcess, probe: () => Promise<boolean>, what: string, logFile: string, timeoutMs = 180_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`${what} exited with ${child.exitCode} before it was ready:\n${tail(logFile)}`);
    if (await probe().catch(() => false)) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`${what} was not ready after ${timeoutMs / 1000} s:\n${tail(logFile)}`);
}

const read = (file: string): string => {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return '';
  }
};

export function kbOf(pid: number, field: 'VmRSS' | 'VmHWM'): number {
  const match = new RegExp(`${field}:\\s+(\\d+) kB`).exec(read(`/proc/${pid}/status`));
  return match ? Number(match[1]) : 0;
}

/** Proportional set size: shared pages (PostgreSQL's shared buffers) divided among the processes that map them. */
function pssKbOf(pid: number): number {
  const match = /^Pss:\s+(\d+) kB/m.exec(read(`/proc/${pid}/smaps_rollup`));
  return match ? Number(match[1]) : 0;
}

/** utime + stime of a process, in ms (from /proc/<pid>/stat; clock ticks of 10 ms). */
export function cpuMsOf(pid: number): number {
  const fields = read(`/proc/${pid}/stat`)
    .replace(/^.*\) /, '')
    .split(' ');
  return fields.length > 12 ? (Number(fields[11]) + Number(fields[12])) * 10 : 0;
}

function processes(): Array<{ pid: number; ppid: number; cmdline: string }> {
  const all = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    const stat = read(`/proc/${name}/stat`);
    if (!stat) continue;
    const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
    all.push({ pid: Number(name), ppid, cmdline: read(`/proc/${name}/cmdline`).replaceAll('\0', ' ') });
  }
  return all;
}

const isPostgres = (pid: number): boolean => {
  try {
    return readlinkSync(`/proc/${pid}/exe`).endsWith('/postgres');
  } catch {
    return false;
  }
};

/**
 * The database's processes. Embedded: the postmaster the server started and all its children.
 * External: only the backends serving the bench database (the server's shared processes serve others too).
 */
export function databaseProcesses(serverPid: number, externalDatabase: string | undefined): number[] {
  const all = processes();
  if (externalDatabase) return all.filter((p) => p.cmdline.startsWith('postgres: ') && p.cmdline.includes(` ${externalDatabase} `)).map((p) => p.pid);
  const postmasters = all.filter((p) => p.ppid === serverPid && isPostgres(p.pid)).map((p) => p.pid);
  return [...postmasters, ...all.filter((p) => postmasters.includes(p.ppid)).map((p) => p.pid)];
}

const databasePssKb = (pids: number[]): number => pids.reduce((sum, pid) => sum + pssKbOf(pid), 0);

/** CPU time of each process, to subtract later: a backend that starts meanwhile counts whole. */
export const cpuSnapshot = (pids: number[]): Map<number, number> => new Map(pids.map((pid) => [pid, cpuMsOf(pid)]));
export const cpuSince = (before: Map<number, number>, pids: number[]): number =>
  pids.reduce((sum, pid) => sum + Math.max(0, cpuMsOf(pid) - (before.get(pid) ?? 0)), 0);

/**
 * Starts the kernel's peak RSS (VmHWM) of a process afresh; false when it may not be reset (not
 * our process, or no permission): the peak is then the start-up's.
 */
function resetPeakRss(pid: number): boolean {
  try {
    writeFileSync(`/proc/${pid}/clear_refs`, '5');
    return true;
  } catch {
    return false;
  }
}

/**
 * Samples the server's RSS and the database's PSS every second; peaks are of what ran at the same
 * moment. `phase()` gives the server's peak RSS since the previous phase: the kernel's high-water
 * mark, which a spike shorter than a second between two samples does not escape.
 */
export function memorySampler(serverPid: number, externalDatabase: string | undefined) {
  const peak = { nodeRssKb: 0, databasePssKb: 0, totalKb: 0 };
  const sample = () => {
    const node = kbOf(serverPid, 'VmRSS');
    const db = databasePssKb(databaseProcesses(serverPid, externalDatabase));
    peak.nodeRssKb = Math.max(peak.nodeRssKb, node);
    peak.databasePssKb = Math.max(peak.databasePssKb, db);
    peak.totalKb = Math.max(peak.totalKb, node + db);
  };
  const highWater = resetPeakRss(serverPid);
  let phasePeakKb = 0;
  const timer = setInterval(() => {
    sample();
    phasePeakKb = Math.max(phasePeakKb, kbOf(serverPid, 'VmRSS'));
  }, 1000);
  // A scenario that fails before it stops its sampler must not keep the bench from exiting.
  timer.unref();
  return {
    peak: () => (sample(), { ...peak }),
    phase: (): number => {
      const kb = highWater ? kbOf(serverPid, 'VmHWM') : Math.max(phasePeakKb, kbOf(serverPid, 'VmRSS'));
      phasePeakKb = 0;
      if (highWater) resetPeakRss(serverPid);
      peak.nodeRssKb = Math.max(peak.nodeRssKb, kb);
      return kb;
    },
    stop: () => clearInterval(timer),
  };
}
