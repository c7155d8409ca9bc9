/**
 * npm run bench [-- --json] [-- --database-url postgres://…] [-- --rounds N] [-- --profile <dir>] [-- --only a,b]
 *
 * Measures the service against the stack's own limit on this machine, in one run:
 *   baseline      a bare Express 5 app (bench/baseline.ts) answering the estimate's envelope, and
 *                 the same app answering the read's whole answer (the same size)
 *   estimate-5    POST /v1/customers/payroll/estimate, 5 beneficiaries (every answer a fresh feeHash)
 *   read          GET /v1/customers/payroll/requests/:id of a request with 50 splits
 *   estimate-1k   one estimate of 1,000 beneficiaries, end to end (median of several)
 *   estimate-10k  one estimate of 10,000 beneficiaries (median of several)
 *   estimate-10k-csv  the same payroll as a CSV file naming beneficiaries by reference (median of several)
 *   read-1k       one read of a request with 1,000 splits (median of several)
 *   first-answer  a fresh `npm start` with every setting at its default (bench/firstAnswer.ts): seconds to its first answer
 *   payroll-1k    the main job whole (bench/payroll.ts): a 1,000-line payroll from its CSV estimate
 *                 to COMPLETED with an instant simulated bank, each phase timed
 *   payroll-10k   the same with 10,000 lines
 *   payroll-100k  the same with 100,000 lines (opt-in: --only payroll-100k; the world then holds
 *                 100,000 beneficiaries)
 *   slow-readers-100k  after payroll-100k (named alone, it runs it too): four clients read the finished
 *                 100,000-split request slowly at once while another customer GETs its small request;
 *                 node's peak RSS, the neighbour's p99 against idle (bench/slowReaders.ts; opt-in)
 *   seed-100k     the server started on an empty database with a 100,000-beneficiary world, then on the
 *                 seeded database: both RSS printed (bench/seeding.ts; opt-in: --only seed-100k)
 *   estimate5Observability  estimate-5 with metrics on, with tracing on and with neither (twice: the
 *                 control), the server's CPU per request and req/s, in rounds of their own
 *                 (bench/observability.ts; opt-in: --only estimate5Observability)
 *   camt-100k     the bank's statement of a 100,000-payout payroll day (camt.053, 100,000 DBIT entries)
 *                 read as the worker's inbox reads it, in a process of its own, and applied and reconciled
 *                 by the bank-books use case on a payroll day made in SQL (a new database on the
 *                 --database-url server, else a fresh embedded PostgreSQL): XSD validation, parse and
 *                 apply timed, its RSS printed (bench/camt.ts; opt-in: --only camt-100k; no service started)
 *   inbox-reports the bank inbox and the event loop: the longest stall while a 50 MB pain.002 is read,
 *                 RSS before, at the peak and after, and the drain rate of 200 small reports
 *                 (bench/inboxReports.ts; opt-in: --only inbox-reports; needs no server)
 * Scenario names are written either way: payroll-10k or payroll10k.
 * The load scenarios run in rounds (BENCH_ROUNDS or --rounds, default 3), each between two runs of
 * its baseline (bench/rounds.ts); figures are medians over the rounds. Each run lasts BENCH_DURATION
 * seconds (default 10) at 50 connections, after a warm-up in the first round. The server is the real
 * process (`node dist/server/src/main.js`, built as `npm start` builds it) with NODE_ENV=production
 * on a fresh data directory of the embedded PostgreSQL (as `npm start` runs it), or on a new
 * database at --database-url. Memory is the
 * server's RSS and the database's PSS, sampled together. Figures are printed, never asserted.
 * BENCH_KEEP=1 keeps the temporary directory (the server's log, one JSON line per request).
 */
import { randomBytes } from 'node:crypto';
import { chmod, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { signAccessToken } from '../src/http/tokens.js';
import { freePort } from '../src/store/embedded.js';
import { log, outcome, single, type Target } from './load.js';
import { builtServerEntry, children, databaseProcesses, kbOf, memorySampler, start, stop, tail, waitFor } from './processes.js';
import { type Figures, formatTable, mbOf } from './report.js';
import { camtScenario } from './camt.js';
import { firstAnswerScenario } from './firstAnswer.js';
import { inboxReportsScenario } from './inboxReports.js';
import { payrollLifecycle } from './payroll.js';
import { type LaunchVariant, measureObservability } from './observability.js';
import { runRounds } from './rounds.js';
import { measureSeeding, type SeedingFigures } from './seeding.js';
import { slowReaders } from './slowReaders.js';
import { BENEFICIARIES, benchIds, benchWorld, estimateBody, estimateCsvBody } from './world.js';

const SCENARIOS = [
  'baseline',
  'estimate5',
  'read',
  'estimate1k',
  'estimate10k',
  'estimate10kCsv',
  'read1k',
  'firstAnswer',
  'payroll1k',
  'payroll10k',
  'payroll100k',
  'estimate5Observability',
  'camt100k',
  'inboxReports',
  'slowReaders100k',
  'seed100k',
] as const;
type Scenario = (typeof SCENARIOS)[number];
/** Run only when named in --only. */
const OPT_IN: readonly Scenario[] = ['payroll100k', 'estimate5Observability', 'camt100k', 'inboxReports', 'slowReaders100k', 'seed100k'];

const { values: args } = parseArgs({
  options: {
    json: { type: 'boolean', default: false },
    'database-url': { type: 'string' },
    rounds: { type: 'string' },
    /** Writes the server's V8 CPU profile (.cpuprofile) into this directory (and each observability variant's, named after it). */
    profile: { type: 'string' },
    /** A comma-separated subset of the scenarios (skipped ones are null in the JSON; the baselines always run). */
    only: { type: 'string' },
  },
});
const seconds = Number(process.env.BENCH_DURATION || 10);
const rounds = Number(args.rounds ?? (process.env.BENCH_ROUNDS || 3));
if (!Number.isFinite(seconds) || seconds < 1 || !Number.isInteger(rounds) || rounds < 1) {
  console.error(`BENCH_DURATION must be a number of seconds ≥ 1 and the rounds a whole number ≥ 1, got "${process.env.BENCH_DURATION}", "${rounds}"`);
  process.exit(2);
}
const warmupSeconds = Math.min(3, Math.max(1, Math.round(seconds / 3)));
const camel = (name: string) => name.trim().replace(/-(\w)/g, (_, letter: string) => letter.toUpperCase());
const only = new Set((args.only ?? SCENARIOS.filter((name) => !OPT_IN.includes(name)).join(',')).split(',').map(camel));
for (const name of only) {
  if (!(SCENARIOS as readonly string[]).includes(name)) {
    console.error(`--only: unknown scenario "${name}" (one of ${SCENARIOS.join(', ')})`);
    process.exit(2);
  }
}
// The slow readers read the request payroll-100k made.
if (only.has('slowReaders100k')) only.add('payroll100k');
const wanted = (name: Scenario) => only.has(name);
/** The load scenarios run against their baselines; without them the baselines are skipped too. */
const loadWanted = wanted('estimate5') || wanted('read');
const PAYROLLS = [
  ['payroll1k', 1_000],
  ['payroll10k', 10_000],
  ['payroll100k', 100_000],
] as const;

/** A new database on the --database-url server, dropped at the end. */
async function externalDatabase(url: string): Promise<{ name: string; url: string; drop: () => Promise<void> }> {
  const name = `payroll_bench_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  const target = new URL(url);
  target.pathname = `/${name}`;
  log(`database ${name} created on ${target.host}`);
  return {
    name,
    url: target.toString(),
    drop: async () => {
      await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await admin.end();
    },
  };
}

function serverEnv(port: number, tmp: string, databaseUrl: string, worldFile: string, jwtSecret: string): NodeJS.ProcessEnv {
  return {
    ...process.env,
    NODE_ENV: 'production',
    PORT: String(port),
    DATABASE_URL: databaseUrl,
    DATA_DIR: path.join(tmp, 'data'),
    EMBEDDED_PG_PORT: '',
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
    // The payroll scenarios measure the service, not the simulated bank's delay.
    SIMULATED_SETTLEMENT_MS: '0',
    WORKER_IN_PROCESS: '',
    BODY_LIMIT: '',
    LOG_LEVEL: '',
  };
}

/** The real answer to `init` at `url`, written to `file` (the baseline answers with it). */
async function sampleAnswer(url: string, init: RequestInit, file: string): Promise<number> {
  const response = await fetch(url, init);
  const text = await response.text();
  if (response.status !== 200) throw new Error(`${url} answered ${response.status}: ${text.slice(0, 500)}`);
  await writeFile(file, text);
  return Buffer.byteLength(text);
}

interface Server {
  pid: number;
  base: string;
  jwtSecret: string;
  startSeconds: number;
  /** The server's peak RSS from its spawn to ready (the world seeded). */
  seedingRssKb: number;
  stop: () => Promise<void>;
}

/** The real service on the bench world: a fresh embedded data directory, or the new external database. */
async function launchServer(tmp: string, serverLog: string, external: { name: string; url: string } | undefined): Promise<Server> {
  const worldFile = path.join(tmp, 'world.json');
  const beneficiaries = wanted('payroll100k') ? 100_000 : BENEFICIARIES;
  await writeFile(worldFile, JSON.stringify(benchWorld(beneficiaries, { neighbour: wanted('slowReaders100k') })));
  const jwtSecret = randomBytes(32).toString('base64url');
  const port = await freePort();
  const serverArgs = [...(args.profile ? ['--cpu-prof', `--cpu-prof-dir=${path.resolve(args.profile)}`] : []), builtServerEntry()];
  log(
    `starting the server (${external ? `PostgreSQL, database ${external.name}` : 'embedded PostgreSQL, fresh data directory'}) on port ${port}; its log: ${serverLog}`,
  );
  const started = performance.now();
  const server = start(serverArgs, serverEnv(port, tmp, external?.url ?? '', worldFile, jwtSecret), serverLog);
  const base = `http://127.0.0.1:${port}`;
  await waitFor(server, async () => (await fetch(`${base}/readyz`)).status === 200, 'the server', serverLog);
  const startSeconds = Math.round((performance.now() - started) / 100) / 10;
  // The world is seeded in a process of the server's own: the server's peak so far is its start's.
  const seedingRssKb = kbOf(server.pid!, 'VmHWM');
  log(
    `server ready in ${startSeconds} s (world of ${beneficiaries} beneficiaries loaded), RSS ${mbOf(kbOf(server.pid!, 'VmRSS'))} MB, peak ${mbOf(seedingRssKb)} MB`,
  );
  return { pid: server.pid!, base, jwtSecret, startSeconds, seedingRssKb, stop: () => stop(server) };
}

/** Servers of the same build on the bench's database, the world already loaded (bench/observability.ts). */
function variantLauncher(tmp: string, external: { url: string } | undefined, jwtSecret: string): LaunchVariant {
  let entry: string | undefined;
  return async (name, env, nodeArgs) => {
    entry ??= builtServerEntry();
    const port = await freePort();
    const logFile = path.join(tmp, `server-${name}.log`);
    const profile = args.profile ? ['--cpu-prof', `--cpu-prof-dir=${path.resolve(args.profile)}`, `--cpu-prof-name=${name}.cpuprofile`] : [];
    const child = start([...profile, ...nodeArgs, entry], { ...serverEnv(port, tmp, external?.url ?? '', '', jwtSecret), ...env }, logFile);
    const base = `http://127.0.0.1:${port}`;
    await waitFor(child, async () => (await fetch(`${base}/readyz`)).status === 200, `the server with ${name}`, logFile);
    log(`server with ${name} ready on port ${port}; its log: ${logFile}`);
    return { pid: child.pid!, base, stop: () => stop(child) };
  };
}

type Request = { path: string; init: RequestInit };

/** The bare baseline, answering with the server's real answers to the estimate and to the read. */
async function launchBaseline(tmp: string, base: string, { estimate, read }: { estimate: Request; read: Request }) {
  const answerFile = path.join(tmp, 'answer.json');
  const readAnswerFile = path.join(tmp, 'read-answer.json');
  await sampleAnswer(`${base}${estimate.path}`, estimate.init, answerFile);
  const readAnswerBytes = await sampleAnswer(`${base}${read.path}`, read.init, readAnswerFile);
  const baselineLog = path.join(tmp, 'baseline.log');
  const baselinePort = await freePort();
  const bare = start(
    ['--import', 'tsx', 'bench/baseline.ts'],
    { ...process.env, PORT: String(baselinePort), BASELINE_ANSWER_FILE: answerFile, BASELINE_READ_ANSWER_FILE: readAnswerFile },
    baselineLog,
  );
  const bareBase = `http://127.0.0.1:${baselinePort}`;
  await waitFor(bare, async () => (await fetch(`${bareBase}${read.path}`)).status === 200, 'the baseline', baselineLog, 30_000);
  return { bare, bareBase, readAnswerBytes };
}

/** The load scenarios against the baselines, then the single large requests; memory sampled throughout. */
async function measure(
  tmp: string,
  server: Server,
  externalName: string | undefined,
  launchVariant: LaunchVariant,
): Promise<Omit<Figures, 'database' | 'startSeconds' | 'firstAnswer' | 'loadAverage' | 'seeding'>> {
  const { pid, base } = server;
  const memory = memorySampler(pid, externalName);
  const databasePids = () => databaseProcesses(pid, externalName);
  const token = await signAccessToken({ secret: server.jwtSecret, jwksUrl: undefined, issuer: undefined, audience: undefined }, benchIds.user, 6 * 3600);
  const auth = { authorization: `Bearer ${token}` };
  const post = { ...auth, 'content-type': 'application/json' };
  const estimatePath = '/v1/customers/payroll/estimate';
  const readPath = `/v1/customers/payroll/requests/${benchIds.request50}`;
  const body5 = estimateBody(5);
  const target = (name: string, targetPid: number, url: string, options: Pick<Target, 'method' | 'headers' | 'body'>): Target => ({
    name,
    pid: targetPid,
    url,
    ...options,
    ...(targetPid === pid && { databasePids }),
  });
  let readAnswerBytes: number | null = null;
  let loadFigures: Awaited<ReturnType<typeof runRounds>> = { baseline: null, baselineRead: null, estimate5: null, read: null };
  if (loadWanted) {
    const baseline = await launchBaseline(tmp, base, {
      estimate: { path: estimatePath, init: { method: 'POST', headers: post, body: body5 } },
      read: { path: readPath, init: { headers: auth } },
    });
    readAnswerBytes = baseline.readAnswerBytes;
    loadFigures = await runRounds({
      rounds,
      seconds,
      warmupSeconds,
      baseline: target('baseline', baseline.bare.pid!, `${baseline.bareBase}${estimatePath}`, { method: 'POST', headers: post, body: body5 }),
      baselineRead: target('baseline (read-sized)', baseline.bare.pid!, `${baseline.bareBase}${readPath}`, { method: 'GET', headers: auth }),
      estimate5: wanted('estimate5') ? target('estimate-5', pid, `${base}${estimatePath}`, { method: 'POST', headers: post, body: body5 }) : null,
      read: wanted('read') ? target('read', pid, `${base}${readPath}`, { method: 'GET', headers: auth }) : null,
    });
    await stop(baseline.bare);
  }
  const observability = wanted('estimate5Observability')
    ? await measureObservability({
        estimate: target('estimate-5', pid, `${base}${estimatePath}`, { method: 'POST', headers: post, body: body5 }),
        rounds,
        seconds,
        warmupSeconds,
        metricsPort: await freePort(),
        launch: launchVariant,
      })
    : null;
  const loadPeak = memory.peak();

  const isEstimate = (body: unknown) => typeof (body as { data?: { feeHash?: unknown } }).data?.feeHash === 'string';
  const hasSplits = (count: number) => (body: unknown) => (body as { data?: { amountSplitDetails?: unknown[] } }).data?.amountSplitDetails?.length === count;
  const estimate = (count: number) =>
    single(`estimate-${count / 1000}k`, `${base}${estimatePath}`, { method: 'POST', headers: post, body: estimateBody(count) }, isEstimate);
  const estimate1k = wanted('estimate1k') ? await estimate(1000) : null;
  const estimate10k = wanted('estimate10k') ? await estimate(10_000) : null;
  const estimate10kCsv = wanted('estimate10kCsv')
    ? await single(
        'estimate-10k-csv',
        `${base}${estimatePath}?sourceAccountCurrencyId=${benchIds.acUsd}&payrollAccountCurrencyId=${benchIds.acPartnerAed}`,
        { method: 'POST', headers: { ...auth, 'content-type': 'text/csv' }, body: estimateCsvBody(10_000) },
        isEstimate,
      )
    : null;
  const read1k = wanted('read1k')
    ? await single('read-1k', `${base}/v1/customers/payroll/requests/${benchIds.request1k}`, { headers: auth }, hasSplits(1000))
    : null;
  const peak = memory.peak();
  memory.stop();
  const payrolls: Figures['payrolls'] = {};
  const adminToken = await signAccessToken({ secret: server.jwtSecret, jwksUrl: undefined, issuer: undefined, audience: undefined }, benchIds.admin, 6 * 3600);
  // The payrolls read the peak phase by phase (it is reset at each): the start-up's is read before.
  let peakWithStartKb = kbOf(pid, 'VmHWM');
  for (const [name, lines] of PAYROLLS) {
    if (!wanted(name)) continue;
    const session = { base, pid, externalName, customerToken: token, adminToken, seedingRssKb: server.seedingRssKb };
    payrolls[name] = await payrollLifecycle(session, lines);
    peakWithStartKb = Math.max(peakWithStartKb, payrolls[name].nodeRssMb * 1024);
  }
  const finished = payrolls.payroll100k?.requestId;
  const slow =
    wanted('slowReaders100k') && finished
      ? await slowReaders({
          base,
          pid,
          externalName,
          bigPath: `/v1/customers/payroll/requests/${finished}`,
          bigToken: token,
          smallPath: `/v1/customers/payroll/requests/${benchIds.neighbour.request}`,
          smallToken: await signAccessToken(
            { secret: server.jwtSecret, jwksUrl: undefined, issuer: undefined, audience: undefined },
            benchIds.neighbour.user,
            3600,
          ),
        })
      : null;
  peakWithStartKb = Math.max(peakWithStartKb, kbOf(pid, 'VmHWM'));
  return {
    rounds,
    seconds,
    readAnswerBytes,
    ...loadFigures,
    observability,
    estimate1k,
    estimate10k,
    estimate10kCsv,
    read1k,
    payrolls,
    slowReaders: slow,
    memory: {
      nodeRssMb: mbOf(peak.nodeRssKb),
      databasePssMb: mbOf(peak.databasePssKb),
      totalMb: mbOf(peak.totalKb),
      loadScenarios: { nodeRssMb: mbOf(loadPeak.nodeRssKb), databasePssMb: mbOf(loadPeak.databasePssKb), totalMb: mbOf(loadPeak.totalKb) },
      nodePeakRssWithStartMb: mbOf(peakWithStartKb),
      databaseScope: externalName ? 'the backends serving the bench database only' : 'every process of the embedded server',
    },
    rssMb: mbOf(peakWithStartKb),
  };
}

/** seed-100k on a database of its own: a data directory of its own, or a second new database at --database-url. */
async function seedingScenario(tmp: string): Promise<SeedingFigures> {
  const external = args['database-url'] ? await externalDatabase(args['database-url']) : undefined;
  const dataDir = path.join(tmp, 'seed');
  const jwtSecret = randomBytes(32).toString('base64url');
  let starts = 0;
  try {
    return await measureSeeding(
      tmp,
      100_000,
      async (worldFile) => {
        const port = await freePort();
        const logFile = path.join(tmp, `seed-server-${++starts}.log`);
        const env = { ...serverEnv(port, dataDir, external?.url ?? '', worldFile, jwtSecret), DATA_DIR: path.join(dataDir, 'data') };
        const child = start([builtServerEntry()], env, logFile);
        await waitFor(child, async () => (await fetch(`http://127.0.0.1:${port}/readyz`)).status === 200, 'the server (seed-100k)', logFile, 900_000);
        return { pid: child.pid!, stop: () => stop(child), log: logFile };
      },
      (file) => tail(file, 200),
    );
  } finally {
    await external?.drop();
  }
}

const loadAverage = () => os.loadavg().map((value) => Math.round(value * 100) / 100);

async function main(): Promise<number> {
  const loadStart = loadAverage();
  log(`load average at the start: ${loadStart.join(' ')}`);
  if (wanted('camt100k')) {
    await camtScenario(100_000, args['database-url']);
    // The statement is read without the server: alone, it needs none started.
    if (only.size === 1) return 0;
  }
  if (wanted('inboxReports')) {
    inboxReportsScenario();
    if (only.size === 1 || (only.size === 2 && wanted('camt100k'))) return 0;
  }
  // Alone on the machine's share of the bench: before the bench's own server starts.
  const firstAnswer = wanted('firstAnswer') ? await firstAnswerScenario() : null;
  const tmp = await mkdtemp(path.join(os.tmpdir(), 'payroll-bench-'));
  await chmod(tmp, 0o711); // as root, the embedded PostgreSQL runs as "postgres" and must reach tmp/data
  const serverLog = path.join(tmp, 'server.log');
  const external = args['database-url'] ? await externalDatabase(args['database-url']) : undefined;
  try {
    const seeding = wanted('seed100k') ? await seedingScenario(tmp) : null;
    if (only.size === 1 && seeding) {
      console.log(JSON.stringify(seeding));
      return 0;
    }
    const server = await launchServer(tmp, serverLog, external);
    const measured = await measure(tmp, server, external?.name, variantLauncher(tmp, external, server.jwtSecret));
    await server.stop();
    const figures: Figures = {
      database: external ? 'postgres' : 'embedded',
      startSeconds: server.startSeconds,
      firstAnswer,
      ...measured,
      seeding,
      loadAverage: { start: loadStart, end: loadAverage() },
    };
    const table = formatTable(figures);
    if (args.json) {
      console.error(table);
      console.log(JSON.stringify(figures));
    } else {
      console.log(table);
    }
    return outcome.failed ? 1 : 0;
  } catch (error) {
    log((error as Error).message);
    log(`server log (last lines):\n${tail(serverLog)}`);
    return 1;
  } finally {
    await Promise.all([...children].map(stop));
    await external?.drop().catch((error: unknown) => log(`could not drop the bench database: ${(error as Error).message}`));
    if (process.env.BENCH_KEEP) log(`kept ${tmp} (server.log, world.json)`);
    else await rm(tmp, { recursive: true, force: true });
  }
}

process.on('SIGINT', () => {
  for (const child of children) child.kill('SIGTERM');
  process.exit(130);
});

process.exitCode = await main();
