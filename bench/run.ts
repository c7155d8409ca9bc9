/**
 * npm run bench [-- --json | --markdown] [-- --database-url postgres://…] [-- --rounds N] [-- --profile <dir>] [-- --only a,b]
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
 *   payroll-100k  the same with 100,000 lines, on a server of its own started on a world of 100,000
 *                 beneficiaries once the scenarios above are done (named without them, on the bench's
 *                 one server, its world then of 100,000)
 *   slow-readers-100k  after payroll-100k (named alone, it runs it too): four clients read the finished
 *                 100,000-split request slowly at once while another customer GETs its small request;
 *                 node's peak RSS, the neighbour's p99 against idle (bench/slowReaders.ts)
 *   seed-100k     the server started on an empty database with a 100,000-beneficiary world, then on the
 *                 seeded database: both RSS printed (bench/seeding.ts); with the big world's scenarios
 *   estimate5Observability  estimate-5 with metrics on, with tracing on (at its default sampling) and
 *                 with neither (twice: the control), the server's CPU per request and req/s, in rounds of
 *                 their own; tracing's cost against its target
 *                 (bench/observability.ts; opt-in: --only estimate5Observability)
 *   camt-100k     the bank's statement of a 100,000-payout payroll day (camt.053, 100,000 DBIT entries)
 *                 read as the worker's inbox reads it, in a process of its own, and applied and reconciled
 *                 by the bank-books use case on a payroll day made in SQL (a new database on the
 *                 --database-url server, else a fresh embedded PostgreSQL): XSD validation, parse and
 *                 apply timed, its RSS printed (bench/camt.ts; opt-in: --only camt-100k; no service started)
 *   inbox-reports the bank inbox and the event loop: the longest stall while a 50 MB pain.002 is read,
 *                 RSS before, at the peak and after, and the drain rate of 200 small reports
 *                 (bench/inboxReports.ts; opt-in: --only inbox-reports; needs no server)
 *   screening-100k  sanctions screening in memory: lists generated to the full SDN and UN lists' size,
 *                 100,000 beneficiaries screened, and a 10,000-payout payroll's check, per payout
 *                 (bench/screening.ts; opt-in: --only screening-100k; needs no server)
 *   bulkhead      another customer's small GET p50/p99 idle, then while the bench customer's account row is
 *                 held by a connection of the bench's own and 20 of its creations wait on it: the p99s'
 *                 ratio against its target (bench/bulkhead.ts; opt-in: --only bulkhead)
 * Scenario names are written either way: payroll-10k or payroll10k.
 * The load scenarios run in rounds (BENCH_ROUNDS or --rounds, default 3), each between two runs of
 * its baseline (bench/rounds.ts); figures are medians over the rounds. Each run lasts BENCH_DURATION
 * seconds (default 10) at 50 connections, after a warm-up in the first round. The server is the real
 * process (`node dist/server/src/main.js`, built as `npm start` builds it) with NODE_ENV=production
 * on a fresh data directory of the embedded PostgreSQL (as `npm start` runs it), or on a new
 * database at --database-url. Memory is the
 * server's RSS and the database's PSS, sampled together. Figures are printed, never asserted, each
 * target (bench/targets.ts) beside its figure. --json prints the figures as one JSON object on
 * stdout, --markdown one markdown table of every target with the run's load average and baseline
 * (the guides' table); either way the usual table goes to stderr.
 * BENCH_KEEP=1 keeps the temporary directory (the server's log, one JSON line per request).
 */
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { log, outcome } from './load.js';
import { camtScenario } from './camt.js';
import { firstAnswerScenario } from './firstAnswer.js';
import { inboxReportsScenario } from './inboxReports.js';
import { screeningScenario } from './screening.js';
import { measure } from './measure.js';
import { args, only, phases, wanted, withScenarios } from './options.js';
import { children, stop, tail } from './processes.js';
import { type Figures, formatTable } from './report.js';
import { markdownTable } from './targetTable.js';
import { externalDatabase, launchServer, seedingScenario, variantLauncher, withBenchDatabase } from './server.js';

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
  if (wanted('screening100k')) {
    screeningScenario();
    if (only.size === 1) return 0;
  }
  // Alone on the machine's share of the bench: before the bench's own server starts.
  const firstAnswer = wanted('firstAnswer') ? await firstAnswerScenario() : null;
  let measured: PhaseFigures | null = null;
  for (const phase of phases()) {
    const figures = await withScenarios(phase, runPhase);
    if (figures === 'seeding only') return 0;
    if (figures === 'failed') return 1;
    measured = measured ? mergePhases(measured, figures) : figures;
  }
  const figures: Figures = { ...measured!, firstAnswer, loadAverage: { start: loadStart, end: loadAverage() } };
  const table = formatTable(figures);
  if (args.json) {
    console.error(table);
    console.log(JSON.stringify(figures));
  } else if (args.markdown) {
    console.error(table);
    console.log(markdownTable(figures));
  } else {
    console.log(table);
  }
  return outcome.failed ? 1 : 0;
}

type PhaseFigures = Omit<Figures, 'firstAnswer' | 'loadAverage'>;

/** The scenarios of one phase on a server of their own: a fresh data directory (or a new database at --database-url), its world seeded. */
async function runPhase(): Promise<PhaseFigures | 'seeding only' | 'failed'> {
  const tmp = await mkdtemp(path.join(os.tmpdir(), 'payroll-bench-'));
  await chmod(tmp, 0o711); // as root, the embedded PostgreSQL runs as "postgres" and must reach tmp/data
  const serverLog = path.join(tmp, 'server.log');
  const external = args['database-url'] ? await externalDatabase(args['database-url']) : undefined;
  try {
    const seeding = wanted('seed100k') ? await seedingScenario(tmp) : null;
    if (only.size === 1 && seeding) {
      console.log(JSON.stringify(seeding));
      return 'seeding only';
    }
    const server = await launchServer(tmp, serverLog, external);
    const measured = await measure(tmp, server, external?.name, variantLauncher(tmp, external, server.jwtSecret), (fn) => withBenchDatabase(tmp, external, fn));
    await server.stop();
    return { database: external ? 'postgres' : 'embedded', startSeconds: server.startSeconds, ...measured, seeding };
  } catch (error) {
    log((error as Error).message);
    log(`server log (last lines):\n${tail(serverLog)}`);
    return 'failed';
  } finally {
    await Promise.all([...children].map(stop));
    await external?.drop().catch((error: unknown) => log(`could not drop the bench database: ${(error as Error).message}`));
    if (process.env.BENCH_KEEP) log(`kept ${tmp} (server.log, world.json)`);
    else await rm(tmp, { recursive: true, force: true });
  }
}

/**
 * The big world's phase added to the first: its payrolls, slow readers and seeding; the request
 * paths, the memory while serving and the server's start keep the first phase's figures.
 */
function mergePhases(first: PhaseFigures, big: PhaseFigures): PhaseFigures {
  return {
    ...first,
    payrolls: { ...first.payrolls, ...big.payrolls },
    slowReaders: big.slowReaders ?? first.slowReaders,
    seeding: big.seeding ?? first.seeding,
    rssMb: Math.max(first.rssMb, big.rssMb),
  };
}

process.on('SIGINT', () => {
  for (const child of children) child.kill('SIGTERM');
  process.exit(130);
});

process.exitCode = await main();
