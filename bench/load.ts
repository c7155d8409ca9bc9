/**
 * Load and timing primitives of the benchmark: autocannon runs, single-request timings, medians.
 */
import autocannon, { type Result } from 'autocannon';
import { cpuMsOf, cpuSince, cpuSnapshot } from './processes.js';

export const CONNECTIONS = 50;
export const REPEAT = 7;
export const log = (...parts: unknown[]): void => console.error('[bench]', ...parts);

export interface LoadFigures {
  rps: number;
  p50Ms: number;
  p99Ms: number;
  /** The answering process's CPU per answered request (ms): steadier than req/s on a shared machine. */
  cpuMsPerRequest: number | null;
  /** The database's CPU per answered request (ms), when its processes are known. */
  dbCpuMsPerRequest: number | null;
}

export interface Target {
  name: string;
  /** The process answering (its CPU time is read before and after). */
  pid: number;
  /** The database's processes, read at the time of the run (backends come and go). */
  databasePids?: () => number[];
  url: string;
  method: 'GET' | 'POST';
  headers: Record<string, string>;
  body?: string;
}

/** Set when any answer was not 2xx: the harness then exits non-zero. */
export const outcome = { failed: false };

/** A run lasts `seconds`, or until `requests` are answered. */
type Extent = { seconds: number } | { requests: number };

/** `onAnswer` hears every answer: its status and its latency (ms). */
function cannon(target: Target, extent: Extent, onAnswer?: (status: number, ms: number) => void): Promise<Result> {
  return new Promise((resolve, reject) => {
    const instance = autocannon(
      {
        url: target.url,
        method: target.method,
        headers: target.headers,
        ...(target.body !== undefined && { body: target.body }),
        connections: CONNECTIONS,
        ...('seconds' in extent ? { duration: extent.seconds } : { amount: extent.requests }),
      },
      (error, result) => (error ? reject(error) : resolve(result)),
    );
    if (onAnswer) instance.on('response', (_client, status, _bytes, ms) => onAnswer(status, ms));
  });
}

/** One measured run at full load (after a warm-up of `warmupSeconds`, when given). */
export async function load(target: Target, seconds: number, warmupSeconds = 0): Promise<LoadFigures> {
  if (warmupSeconds > 0) await cannon(target, { seconds: warmupSeconds });
  const [cpuBefore, dbBefore] = [cpuMsOf(target.pid), target.databasePids && cpuSnapshot(target.databasePids())];
  const result = await cannon(target, { seconds });
  const completed = result['2xx'];
  const perRequest = (ms: number) => (completed > 0 ? round(ms / completed, 4) : null);
  return figures(target, result, {
    rps: completed / result.duration,
    cpuMsPerRequest: perRequest(cpuMsOf(target.pid) - cpuBefore),
    dbCpuMsPerRequest: target.databasePids && dbBefore ? perRequest(cpuSince(dbBefore, target.databasePids())) : null,
  });
}

/** A warm-up of `seconds` at full load; its req/s. */
export async function warmUp(target: Target, seconds: number): Promise<number> {
  const result = await cannon(target, { seconds });
  return result['2xx'] / result.duration;
}

/**
 * One measured run at full load that ends at its `requests`-th answer: the same work for every
 * server compared. Its time, the server's CPU and the latencies are read from the answers as they
 * come, so that the next run can start at once: autocannon itself ends such a run only at its next
 * whole second (its connections, idle by then, close in the background). The answers' statuses are
 * checked like any run's.
 */
export function loadRequests(target: Target, requests: number): Promise<LoadFigures> {
  const [cpuBefore, started] = [cpuMsOf(target.pid), performance.now()];
  const latencies: number[] = [];
  let refused = 0;
  return new Promise((resolve, reject) => {
    const run = cannon(target, { requests }, (status, ms) => {
      latencies.push(ms);
      if (status < 200 || status > 299) refused += 1;
      if (latencies.length !== requests) return;
      const [cpuMs, elapsedMs] = [cpuMsOf(target.pid) - cpuBefore, performance.now() - started];
      if (refused > 0) {
        outcome.failed = true;
        log(`${target.name}: ${refused} answers of ${requests} not 2xx`);
      }
      latencies.sort((a, b) => a - b);
      resolve({
        rps: round((requests * 1000) / elapsedMs, 0),
        p50Ms: latencies[Math.floor(requests * 0.5)]!,
        p99Ms: latencies[Math.floor(requests * 0.99)]!,
        cpuMsPerRequest: round(cpuMs / requests, 4),
        dbCpuMsPerRequest: null,
      });
    });
    // Errors and timeouts leave a run short of its answers: it ends with autocannon's figures, failed.
    run.then((result) => {
      if (latencies.length >= requests) return;
      resolve(figures(target, result, { rps: result['2xx'] / result.duration, cpuMsPerRequest: null, dbCpuMsPerRequest: null }));
    }, reject);
  });
}

function figures(target: Target, result: Result, measured: { rps: number } & Pick<LoadFigures, 'cpuMsPerRequest' | 'dbCpuMsPerRequest'>): LoadFigures {
  log(
    `${target.name}: ${result['2xx']} answers at ${measured.rps.toFixed(0)} req/s, latency p50 ${result.latency.p50} p99 ${result.latency.p99} max ${result.latency.max} ms, ` +
      `server CPU ${measured.cpuMsPerRequest} ms per answer`,
  );
  if (result.non2xx > 0 || result.errors > 0 || result.timeouts > 0) {
    outcome.failed = true;
    log(
      `${target.name}: ${result.non2xx} non-2xx answers, ${result.errors} errors, ${result.timeouts} timeouts; status codes ${JSON.stringify(result.statusCodeStats)}`,
    );
  }
  return { ...measured, rps: round(measured.rps, 0), p50Ms: result.latency.p50, p99Ms: result.latency.p99 };
}

/** One request at a time: a warm-up, then the median of REPEAT timings (ms, whole answer read). */
export async function single(name: string, url: string, init: RequestInit, check: (body: unknown) => boolean): Promise<{ ms: number }> {
  const times: number[] = [];
  for (let run = 0; run <= REPEAT; run++) {
    const started = performance.now();
    const response = await fetch(url, init);
    const text = await response.text();
    const elapsed = performance.now() - started;
    if (response.status !== 200 || !check(JSON.parse(text))) {
      outcome.failed = true;
      throw new Error(`${name}: unexpected answer ${response.status}: ${text.slice(0, 500)}`);
    }
    if (run > 0) times.push(elapsed);
  }
  const ms = median(times);
  log(`${name}: median ${ms.toFixed(1)} ms of ${REPEAT} (min ${Math.min(...times).toFixed(1)}, max ${Math.max(...times).toFixed(1)})`);
  return { ms: round(ms, 1) };
}

/** Each URL read once, one at a time (ms, whole answer read): the median of their timings. */
export async function firstReads(name: string, urls: readonly string[], init: RequestInit, check: (body: unknown) => boolean): Promise<{ ms: number }> {
  const times: number[] = [];
  for (const url of urls) {
    const started = performance.now();
    const response = await fetch(url, init);
    const text = await response.text();
    times.push(performance.now() - started);
    if (response.status !== 200 || !check(JSON.parse(text))) {
      outcome.failed = true;
      throw new Error(`${name}: unexpected answer ${response.status}: ${text.slice(0, 500)}`);
    }
  }
  const ms = median(times);
  log(`${name}: median ${ms.toFixed(1)} ms of ${urls.length} (min ${Math.min(...times).toFixed(1)}, max ${Math.max(...times).toFixed(1)})`);
  return { ms: round(ms, 1) };
}

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

export function round(value: number, digits: number): number {
  const factor = 10 ** digits;
  return Math.round(value * factor) / factor;
}

/** The mean of the baseline runs just before and just after a scenario's run. */
export function meanOf(before: LoadFigures, after: LoadFigures): LoadFigures {
  const mean = (a: number | null, b: number | null) => (a === null || b === null ? null : round((a + b) / 2, 3));
  return {
    rps: round((before.rps + after.rps) / 2, 0),
    p50Ms: (before.p50Ms + after.p50Ms) / 2,
    p99Ms: (before.p99Ms + after.p99Ms) / 2,
    cpuMsPerRequest: mean(before.cpuMsPerRequest, after.cpuMsPerRequest),
    dbCpuMsPerRequest: null,
  };
}

/** Field by field, the median over rounds. */
export function medianFigures(rounds: LoadFigures[]): LoadFigures {
  const of = (pick: (figures: LoadFigures) => number | null) => {
    const values = rounds.map(pick).filter((value): value is number => value !== null);
    return values.length > 0 ? median(values) : null;
  };
  return {
    rps: of((f) => f.rps)!,
    p50Ms: of((f) => f.p50Ms)!,
    p99Ms: of((f) => f.p99Ms)!,
    cpuMsPerRequest: of((f) => f.cpuMsPerRequest),
    dbCpuMsPerRequest: of((f) => f.dbCpuMsPerRequest),
  };
}
