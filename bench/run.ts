/**
 * npm run bench [-- --json] [-- --database-url postgres://…] [-- --profile <dir>] [-- --only a,b]
 *
 * Measures the service against the stack's own limit on this machine, in one run:
 *   baseline      a bare Express 5 app (bench/baseline.ts) answering the estimate's envelope
 *   estimate-5    POST /v1/customers/payroll/estimate, 5 beneficiaries (every answer a fresh feeHash)
 *   read          GET /v1/customers/payroll/requests/:id of a request with 50 splits
 *   estimate-1k   one estimate of 1,000 beneficiaries, end to end (median of several)
 *   estimate-10k  one estimate of 10,000 beneficiaries (median of several)
 *   read-1k       one read of a request with 1,000 splits (median of several)
 * Load scenarios: 50 connections, a warm-up, then BENCH_DURATION seconds (default 10). The server
 * is the real process (`node --import tsx src/main.ts`) with NODE_ENV=production, so response
 * validation is in its production setting; request validation and authentication always run.
 * Peak RSS is the server's VmHWM. Figures are printed, never asserted: compare ratios, not numbers.
 * BENCH_KEEP=1 keeps the temporary directory (the server's log, one JSON line per request).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { closeSync, openSync, readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import autocannon, { type Result } from 'autocannon';
import pg from 'pg';
import { signAccessToken } from '../src/http/tokens.js';
import { benchIds, benchWorld, estimateBody } from './world.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const SCENARIOS = ['baseline', 'estimate5', 'read', 'estimate1k', 'estimate10k', 'read1k'] as const;
type Scenario = (typeof SCENARIOS)[number];

const { values: args } = parseArgs({
  options: {
    json: { type: 'boolean', default: false },
    'database-url': { type: 'string' },
    /** Writes the server's V8 CPU profile (.cpuprofile) into this directory. */
    profile: { type: 'string' },
    /** A comma-separated subset of the scenarios (skipped ones are null in the JSON). */
    only: { type: 'string' },
  },
});
const duration = Number(process.env.BENCH_DURATION || 10);
if (!Number.isFinite(duration) || duration < 1) {
  console.error(`BENCH_DURATION must be a number of seconds ≥ 1, got "${process.env.BENCH_DURATION}"`);
  process.exit(2);
}
const warmup = Math.min(3, Math.max(1, Math.round(duration / 3)));
const CONNECTIONS = 50;
const REPEAT = 7;
const only = new Set((args.only ?? SCENARIOS.join(',')).split(',').map((name) => name.trim()));
for (const name of only) {
  if (!(SCENARIOS as readonly string[]).includes(name)) {
    console.error(`--only: unknown scenario "${name}" (one of ${SCENARIOS.join(', ')})`);
    process.exit(2);
  }
}
const wanted = (name: Scenario) => only.has(name);
const log = (...parts: unknown[]) => console.error('[bench]', ...parts);

interface LoadFigures {
  rps: number;
  p50Ms: number;
  p99Ms: number;
}

/** Server CPU time per answered request of each load scenario (table only): steadier than req/s on a shared machine. */
const cpuPerRequest = new Map<string, number>();

const children = new Set<ChildProcess>();
let failed = false;

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

function start(nodeArgs: string[], env: NodeJS.ProcessEnv, logFile: string): ChildProcess {
  const fd = openSync(logFile, 'a');
  const child = spawn(process.execPath, nodeArgs, { cwd: ROOT, env, stdio: ['ignore', fd, fd] });
  closeSync(fd);
  children.add(child);
  child.once('exit', () => children.delete(child));
  return child;
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
  await exited;
  clearTimeout(timer);
}

function tail(file: string, lines = 30): string {
  try {
    return readFileSync(file, 'utf8').trimEnd().split('\n').slice(-lines).join('\n');
  } catch {
    return '(no log)';
  }
}

/** Polls until `probe` answers true; fails early when the process exits. */
async function waitFor(child: ChildProcess, probe: () => Promise<boolean>, what: string, logFile: string, timeoutMs = 180_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`${what} exited with ${child.exitCode} before it was ready:\n${tail(logFile)}`);
    if (await probe().catch(() => false)) return;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`${what} was not ready after ${timeoutMs / 1000} s:\n${tail(logFile)}`);
}

function kbOf(pid: number, field: 'VmRSS' | 'VmHWM'): number {
  try {
    const match = new RegExp(`${field}:\\s+(\\d+) kB`).exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) : 0;
  } catch {
    return 0;
  }
}

/** utime + stime of a process, in ms (from /proc/<pid>/stat; clock ticks of 10 ms). */
function cpuMsOf(pid: number): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').replace(/^.*\) /, '').split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return 0;
  }
}

function cannon(options: { url: string; method: 'GET' | 'POST'; headers: Record<string, string>; body?: string; seconds: number }): Promise<Result> {
  return new Promise((resolve, reject) => {
    autocannon(
      {
        url: options.url,
        method: options.method,
        headers: options.headers,
        ...(options.body !== undefined && { body: options.body }),
        connections: CONNECTIONS,
        duration: options.seconds,
      },
      (error, result) => (error ? reject(error) : resolve(result)),
    );
  });
}

/** A warm-up at full load, then the measured run. */
async function load(
  name: string,
  pid: number,
  options: { url: string; method: 'GET' | 'POST'; headers: Record<string, string>; body?: string },
): Promise<LoadFigures> {
  log(`${name}: warm-up ${warmup} s, then ${duration} s at ${CONNECTIONS} connections`);
  await cannon({ ...options, seconds: warmup });
  const cpuBefore = cpuMsOf(pid);
  const result = await cannon({ ...options, seconds: duration });
  const completed = result['2xx'];
  if (completed > 0) cpuPerRequest.set(name, (cpuMsOf(pid) - cpuBefore) / completed);
  log(`${name}: ${completed} answers, latency p50 ${result.latency.p50} p99 ${result.latency.p99} max ${result.latency.max} ms`);
  if (result.non2xx > 0 || result.errors > 0 || result.timeouts > 0) {
    failed = true;
    log(`${name}: ${result.non2xx} non-2xx answers, ${result.errors} errors, ${result.timeouts} timeouts; status codes ${JSON.stringify(result.statusCodeStats)}`);
  }
  return { rps: round(completed / result.duration, 0), p50Ms: result.latency.p50, p99Ms: result.latency.p99 };
}

/** One request at a time: a warm-up, then the median of REPEAT timings (ms, whole answer read). */
async function single(name: string, url: string, init: RequestInit, check: (body: unknown) => boolean): Promise<{ ms: number }> {
  const times: number[] = [];
  for (let run = 0; run <= REPEAT; run++) {
    const started = performance.now();
    const response = await fetch(url, init);
    const text = await response.text();
    const elapsed = performance.now() - started;
    if (response.status !== 200 || !check(JSON.parse(text))) {
      failed = true;
      throw new Error(`${name}: unexpected answer ${response.status}: ${text.slice(0, 500)}`);
    }
    if (run > 0) times.push(elapsed);
  }
  times.sort((a, b) => a - b);
  const median = times[Math.floor(times.length / 2)]!;
  log(`${name}: median ${median.toFixed(1)} ms of ${REPEAT} (min ${times[0]!.toFixed(1)}, max ${times.at(-1)!.toFixed(1)})`);
  return { ms: round(median, 1) };
}

function round(value: number, digits: number): number {
  const factor = 10 ** digits;
  return Math.round(value * factor) / factor;
}

function ratio(value: LoadFigures | null, base: LoadFigures | null): number | null {
  return value && base && base.rps > 0 ? round(value.rps / base.rps, 2) : null;
}

async function main(): Promise<number> {
  const databaseUrl = args['database-url'];
  const tmp = await mkdtemp(path.join(os.tmpdir(), 'payroll-bench-'));
  const serverLog = path.join(tmp, 'server.log');
  const baselineLog = path.join(tmp, 'baseline.log');
  let dropDatabase: (() => Promise<void>) | undefined;
  try {
    const worldFile = path.join(tmp, 'world.json');
    await writeFile(worldFile, JSON.stringify(benchWorld()));

    let serverDatabaseUrl = '';
    if (databaseUrl) {
      const name = `payroll_bench_${randomBytes(6).toString('hex')}`;
      const admin = new pg.Client({ connectionString: databaseUrl });
      await admin.connect();
      await admin.query(`CREATE DATABASE ${name}`);
      dropDatabase = async () => {
        await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
        await admin.end();
      };
      const target = new URL(databaseUrl);
      target.pathname = `/${name}`;
      serverDatabaseUrl = target.toString();
      log(`database ${name} created on ${target.host}`);
    }

    const jwtSecret = randomBytes(32).toString('base64url');
    const port = await freePort();
    const serverArgs = ['--import', 'tsx', ...(args.profile ? ['--cpu-prof', `--cpu-prof-dir=${path.resolve(args.profile)}`] : []), 'src/main.ts'];
    log(`starting the server (${databaseUrl ? 'PostgreSQL' : 'embedded PGlite, memory://'}) on port ${port}; its log: ${serverLog}`);
    const started = performance.now();
    const server = start(
      serverArgs,
      {
        ...process.env,
        NODE_ENV: 'production',
        PORT: String(port),
        DATABASE_URL: serverDatabaseUrl,
        DATA_DIR: 'memory://',
        WORLD_FILE: worldFile,
        JWT_SECRET: jwtSecret,
        JWT_JWKS_URL: '',
        JWT_ISSUER: '',
        JWT_AUDIENCE: '',
        FEE_HASH_SECRET: randomBytes(32).toString('base64url'),
        // Production settings, except the per-token rate limit: one token drives the whole load.
        VALIDATE_RESPONSES: '',
        RATE_LIMIT_PER_MINUTE: '10000000',
        REDIS_URL: '',
        CORS_ORIGINS: '',
        BODY_LIMIT: '',
        LOG_LEVEL: '',
      },
      serverLog,
    );
    const pid = server.pid!;
    let peakRssKb = 0;
    const sampler = setInterval(() => (peakRssKb = Math.max(peakRssKb, kbOf(pid, 'VmRSS'))), 100);
    const base = `http://127.0.0.1:${port}`;
    await waitFor(server, async () => (await fetch(`${base}/readyz`)).status === 200, 'the server', serverLog);
    log(`server ready in ${((performance.now() - started) / 1000).toFixed(1)} s (world loaded), RSS ${Math.round(kbOf(pid, 'VmRSS') / 1024)} MB`);

    const token = await signAccessToken({ secret: jwtSecret, jwksUrl: undefined, issuer: undefined, audience: undefined }, benchIds.user, 6 * 3600);
    const auth = { authorization: `Bearer ${token}` };
    const post = { ...auth, 'content-type': 'application/json' };
    const estimateUrl = `${base}/v1/customers/payroll/estimate`;
    const body5 = estimateBody(5);

    // The real answer to the 5-entry estimate: the baseline answers with this envelope.
    const sample = await fetch(estimateUrl, { method: 'POST', headers: post, body: body5 });
    const answer = await sample.text();
    if (sample.status !== 200) throw new Error(`estimate-5 answered ${sample.status}: ${answer}`);
    const answerFile = path.join(tmp, 'answer.json');
    await writeFile(answerFile, answer);

    let baseline: LoadFigures | null = null;
    if (wanted('baseline')) {
      const baselinePort = await freePort();
      const bare = start(['--import', 'tsx', 'bench/baseline.ts'], { ...process.env, PORT: String(baselinePort), BASELINE_ANSWER_FILE: answerFile }, baselineLog);
      const baselineUrl = `http://127.0.0.1:${baselinePort}/v1/customers/payroll/estimate`;
      await waitFor(bare, async () => (await fetch(baselineUrl, { method: 'POST', headers: post, body: body5 })).status === 200, 'the baseline', baselineLog, 30_000);
      baseline = await load('baseline', bare.pid!, { url: baselineUrl, method: 'POST', headers: post, body: body5 });
      await stop(bare);
    }

    const estimate5 = wanted('estimate5') ? await load('estimate-5', pid, { url: estimateUrl, method: 'POST', headers: post, body: body5 }) : null;
    const rss = (after: string) => log(`server RSS after ${after}: ${Math.round(kbOf(pid, 'VmRSS') / 1024)} MB (peak so far ${Math.round(kbOf(pid, 'VmHWM') / 1024)} MB)`);
    rss('estimate-5');
    const read = wanted('read')
      ? await load('read', pid, { url: `${base}/v1/customers/payroll/requests/${benchIds.request50}`, method: 'GET', headers: auth })
      : null;

    const isEstimate = (count: number) => (body: unknown) => {
      const data = (body as { success?: boolean; data?: { feeHash?: string; estimatedReceivedAmount?: string } }).data;
      return typeof data?.feeHash === 'string' && count > 0;
    };
    const hasSplits = (count: number) => (body: unknown) =>
      (body as { data?: { amountSplitDetails?: unknown[] } }).data?.amountSplitDetails?.length === count;
    rss('read');
    const estimate1k = wanted('estimate1k')
      ? await single('estimate-1k', estimateUrl, { method: 'POST', headers: post, body: estimateBody(1000) }, isEstimate(1000))
      : null;
    const estimate10k = wanted('estimate10k')
      ? await single('estimate-10k', estimateUrl, { method: 'POST', headers: post, body: estimateBody(10_000) }, isEstimate(10_000))
      : null;
    rss('estimate-1k and estimate-10k');
    const read1k = wanted('read1k')
      ? await single('read-1k', `${base}/v1/customers/payroll/requests/${benchIds.request1k}`, { headers: auth }, hasSplits(1000))
      : null;

    rss('read-1k');
    clearInterval(sampler);
    const endRssKb = kbOf(pid, 'VmRSS');
    peakRssKb = Math.max(peakRssKb, kbOf(pid, 'VmHWM'));
    await stop(server);

    const figures = {
      database: databaseUrl ? ('postgres' as const) : ('embedded' as const),
      baseline,
      estimate5: estimate5 && { ...estimate5, ratio: ratio(estimate5, baseline) },
      read: read && { ...read, ratio: ratio(read, baseline) },
      estimate1k,
      estimate10k,
      read1k,
      rssMb: Math.round(peakRssKb / 1024),
    };
    const table = formatTable(figures, Math.round(endRssKb / 1024));
    if (args.json) {
      console.error(table);
      console.log(JSON.stringify(figures));
    } else {
      console.log(table);
    }
    return failed ? 1 : 0;
  } catch (error) {
    log((error as Error).message);
    log(`server log (last lines):\n${tail(serverLog)}`);
    return 1;
  } finally {
    await Promise.all([...children].map(stop));
    await dropDatabase?.().catch((error: unknown) => log(`could not drop the bench database: ${(error as Error).message}`));
    if (process.env.BENCH_KEEP) log(`kept ${tmp} (server.log, world.json)`);
    else await rm(tmp, { recursive: true, force: true });
  }
}

function formatTable(
  figures: {
    database: string;
    baseline: LoadFigures | null;
    estimate5: (LoadFigures & { ratio: number | null }) | null;
    read: (LoadFigures & { ratio: number | null }) | null;
    estimate1k: { ms: number } | null;
    estimate10k: { ms: number } | null;
    read1k: { ms: number } | null;
    rssMb: number;
  },
  endRssMb: number,
): string {
  const cpus = os.cpus();
  const machine = `${cpus[0]?.model ?? 'unknown CPU'} × ${cpus.length}, ${Math.round(os.totalmem() / 2 ** 30)} GB, Node ${process.version}, ${os.platform()} ${os.release()}`;
  const row = (cells: string[]) => `| ${cells.join(' | ')} |`;
  const lines = [
    `Benchmark on ${figures.database === 'postgres' ? 'PostgreSQL' : 'embedded PGlite (memory://)'}, ${CONNECTIONS} connections, ${duration} s per load scenario (${warmup} s warm-up)`,
    `Machine: ${machine}`,
    '',
    row(['scenario', 'req/s', 'p50 ms', 'p99 ms', 'vs baseline', 'server CPU ms/req']),
    row(['---', '---:', '---:', '---:', '---:', '---:']),
  ];
  const load = (name: string, key: string, value: (LoadFigures & { ratio?: number | null }) | null) => {
    if (!value) return;
    const vs = value.ratio === undefined ? '1.00' : value.ratio === null ? '—' : value.ratio.toFixed(2);
    const cpu = cpuPerRequest.get(key);
    lines.push(row([name, String(value.rps), String(value.p50Ms), String(value.p99Ms), vs, cpu === undefined ? '—' : cpu.toFixed(2)]));
  };
  load('baseline (bare Express)', 'baseline', figures.baseline);
  load('estimate-5', 'estimate-5', figures.estimate5);
  load('read (50 splits)', 'read', figures.read);
  lines.push('', row(['single request', `median of ${REPEAT} ms`]), row(['---', '---:']));
  const single = (name: string, value: { ms: number } | null) => value && lines.push(row([name, String(value.ms)]));
  single('estimate-1k', figures.estimate1k);
  single('estimate-10k', figures.estimate10k);
  single('read-1k (1,000 splits)', figures.read1k);
  if (figures.estimate1k && figures.estimate10k) lines.push(`estimate-10k / estimate-1k: ${(figures.estimate10k.ms / figures.estimate1k.ms).toFixed(1)}×`);
  lines.push('', `Server RSS: peak ${figures.rssMb} MB (VmHWM, start-up included), ${endRssMb} MB at the end`);
  return lines.join('\n');
}

process.on('SIGINT', () => {
  for (const child of children) child.kill('SIGTERM');
  process.exit(130);
});

process.exitCode = await main();
