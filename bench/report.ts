/** The benchmark's figures (the --json output) and the table printed from them. */
import os from 'node:os';
import { CONNECTIONS, type LoadFigures, REPEAT } from './load.js';
import type { ObservabilityFigures, Ratios, VariantFigures } from './observability.js';
import type { PayrollFigures } from './payroll.js';
import type { RoundsResult } from './rounds.js';
import type { BulkheadFigures } from './bulkhead.js';
import type { FirstAnswerFigures } from './firstAnswer.js';
import { targetLines } from './targetTable.js';
import type { SeedingFigures } from './seeding.js';
import type { SlowReadersFigures } from './slowReaders.js';

export interface Figures extends RoundsResult {
  database: 'embedded' | 'postgres';
  rounds: number;
  seconds: number;
  /** Seconds from spawning the server to its first 200 on /readyz (initdb, migrations and the bench world included). */
  startSeconds: number;
  /** A fresh `npm start` at its defaults: seconds to its first answer (bench/firstAnswer.ts). */
  firstAnswer: FirstAnswerFigures | null;
  /** Bytes of the read's answer (50 splits): the same-size baseline answers with it. */
  readAnswerBytes: number | null;
  /** estimate-5 with metrics on and with tracing on, against a plain server (bench/observability.ts). */
  observability: ObservabilityFigures | null;
  estimate1k: { ms: number } | null;
  estimate10k: { ms: number } | null;
  estimate10kCsv: { ms: number } | null;
  /** The same request read again: its items as the one cached form keeps them (docs/performance.md#the-one-cached-form). */
  read1k: { ms: number } | null;
  /** Requests of the same size each read for the first time: every item read and written. */
  read1kFirst: { ms: number } | null;
  /** The payroll scenarios that ran: the whole life of one payroll each (bench/payroll.ts). */
  payrolls: Partial<Record<'payroll1k' | 'payroll10k' | 'payroll100k', PayrollFigures>>;
  /** Four slow GETs of the finished 100,000-split request and a neighbour's small GET (bench/slowReaders.ts). */
  slowReaders: SlowReadersFigures | null;
  /** Another customer's small GET idle and while one customer's account is locked under queued creations (bench/bulkhead.ts). */
  bulkhead: BulkheadFigures | null;
  /** The server's RSS after seeding a 100,000-beneficiary world and on the seeded database (bench/seeding.ts). */
  seeding: SeedingFigures | null;
  memory: {
    /** Peaks sampled once a second while the scenarios ran; totalMb is the peak of their sum at one moment. */
    nodeRssMb: number;
    databasePssMb: number;
    totalMb: number;
    /** The same peaks while only the load scenarios had run (before the 1k and 10k single requests). */
    loadScenarios: { nodeRssMb: number; databasePssMb: number; totalMb: number };
    /** The server's VmHWM: its peak RSS, start-up (loading the world) included. */
    nodePeakRssWithStartMb: number;
    /** What the database figure covers. */
    databaseScope: string;
  };
  loadAverage: { start: number[]; end: number[] };
  /** Kept from the earlier output: the server's peak RSS (VmHWM). */
  rssMb: number;
}

const MB = (kb: number) => Math.round(kb / 1024);
export const mbOf = MB;

export function formatTable(figures: Figures): string {
  const cpus = os.cpus();
  const machine = `${cpus[0]?.model ?? 'unknown CPU'} × ${cpus.length}, ${Math.round(os.totalmem() / 2 ** 30)} GB, Node ${process.version}, ${os.platform()} ${os.release()}`;
  const row = (cells: string[]) => `| ${cells.join(' | ')} |`;
  const fixed = (value: number | null | undefined, digits = 2) => (value === null || value === undefined ? '—' : value.toFixed(digits));
  const loadavg = (values: number[]) => values.map((value) => value.toFixed(2)).join(' ');
  const lines = [
    `Benchmark on ${figures.database === 'postgres' ? 'PostgreSQL (--database-url)' : 'the embedded PostgreSQL (a fresh DATA_DIR)'}: ${CONNECTIONS} connections, ` +
      `${figures.seconds} s per run, median of ${figures.rounds} round(s); server ready in ${figures.startSeconds} s`,
    `Machine: ${machine}; load average ${loadavg(figures.loadAverage.start)} at the start, ${loadavg(figures.loadAverage.end)} at the end`,
    '',
    row(['scenario', 'req/s', 'p50 ms', 'p99 ms', 'vs baseline', 'p99 vs baseline', 'server CPU ms/req', 'database CPU ms/req']),
    row(['---', '---:', '---:', '---:', '---:', '---:', '---:', '---:']),
  ];
  const load = (name: string, value: LoadFigures | null, ratio?: string, p99?: number) => {
    if (!value) return;
    lines.push(
      row([
        name,
        String(value.rps),
        String(value.p50Ms),
        String(value.p99Ms),
        ratio ?? '1.00',
        p99 === undefined ? '—' : `${p99.toFixed(1)}×`,
        fixed(value.cpuMsPerRequest),
        fixed(value.dbCpuMsPerRequest),
      ]),
    );
  };
  load('baseline (bare Express, estimate envelope)', figures.baseline);
  load(`baseline, read-sized answer (${Math.round((figures.readAnswerBytes ?? 0) / 1024)} KB)`, figures.baselineRead);
  load('estimate-5', figures.estimate5, fixed(figures.estimate5?.ratio), figures.estimate5?.p99VsBaseline);
  if (figures.read)
    load(
      'read (50 splits)',
      figures.read,
      `${fixed(figures.read.ratio)} (same size), ${fixed(figures.read.ratioSmallBaseline)} (small)`,
      figures.read.p99VsBaseline,
    );
  if (figures.observability) lines.push('', ...observabilityRows(figures.observability));
  lines.push('', row(['single request', `median of ${REPEAT} ms`]), row(['---', '---:']));
  const single = (name: string, value: { ms: number } | null) => value && lines.push(row([name, String(value.ms)]));
  single('estimate-1k', figures.estimate1k);
  single('estimate-10k', figures.estimate10k);
  single('read-1k (1,000 splits), read again', figures.read1k);
  single('read-1k, first read of each request', figures.read1kFirst);
  single('estimate-10k as CSV (by reference)', figures.estimate10kCsv);
  if (figures.estimate10k && figures.estimate10kCsv) lines.push(`estimate-10k CSV / JSON: ${(figures.estimate10kCsv.ms / figures.estimate10k.ms).toFixed(2)}×`);
  if (figures.estimate1k && figures.estimate10k) lines.push(`estimate-10k / estimate-1k: ${(figures.estimate10k.ms / figures.estimate1k.ms).toFixed(1)}×`);
  lines.push(...payrollLines(figures.payrolls), ...slowReaderLines(figures.slowReaders), ...bulkheadLines(figures.bulkhead), ...seedingLines(figures.seeding));
  lines.push(...targetLines(figures));
  const { memory } = figures;
  lines.push(
    '',
    `Memory while serving (peaks): node RSS ${memory.nodeRssMb} MB + database PSS ${memory.databasePssMb} MB (${memory.databaseScope}); ` +
      `together at most ${memory.totalMb} MB (${memory.loadScenarios.nodeRssMb} + ${memory.loadScenarios.databasePssMb}, together ${memory.loadScenarios.totalMb} MB, ` +
      `before the 1k and 10k single requests). Node's peak RSS with start-up: ${memory.nodePeakRssWithStartMb} MB.`,
  );
  return lines.join('\n');
}

/** The payroll scenarios: one row per payroll, its phases in seconds, and the growth from one size to the next. */
function payrollLines(payrolls: Figures['payrolls']): string[] {
  const ran = [payrolls.payroll1k, payrolls.payroll10k, payrolls.payroll100k].filter((value): value is PayrollFigures => !!value);
  if (ran.length === 0) return [];
  const s = (ms: number) => (ms / 1000).toFixed(2);
  const row = (cells: Array<string | number>) => `| ${cells.join(' | ')} |`;
  const lines = [
    '',
    row([
      'payroll',
      'CSV estimate s',
      'create s',
      'quote s',
      'accept s',
      'debit + move to bank s',
      'FX record s',
      'payouts → COMPLETED s',
      'FX record → COMPLETED s',
      'whole life s',
      'node RSS MB',
      'database PSS MB',
    ]),
    row(['---', '---:', '---:', '---:', '---:', '---:', '---:', '---:', '---:', '---:', '---:', '---:']),
  ];
  for (const p of ran) {
    lines.push(
      row([
        `payroll-${p.lines / 1000}k`,
        s(p.estimateMs),
        s(p.createMs),
        s(p.quoteMs),
        s(p.acceptMs),
        s(p.legsMs),
        s(p.fxRecordMs),
        s(p.payoutsMs),
        s(p.fxToCompletedMs),
        s(p.totalMs),
        p.nodeRssMb,
        p.databasePssMb,
      ]),
    );
  }
  lines.push(...rssByPhaseLines(ran), '');
  for (let n = 1; n < ran.length; n++) {
    const [small, big] = [ran[n - 1]!, ran[n]!];
    const growth = (pick: (p: PayrollFigures) => number) => `${(pick(big) / pick(small)).toFixed(1)}×`;
    lines.push(
      `growth payroll-${small.lines / 1000}k → payroll-${big.lines / 1000}k (${big.lines / small.lines}× the lines): FX record → COMPLETED ${growth((p) => p.fxToCompletedMs)}, ` +
        `create ${growth((p) => p.createMs)}, CSV estimate ${growth((p) => p.estimateMs)}, whole life ${growth((p) => p.totalMs)}`,
    );
  }
  return lines;
}

/** node's peak RSS in each phase of each payroll that ran (the targets table holds the figures against their targets). */
function rssByPhaseLines(ran: PayrollFigures[]): string[] {
  const phases = Object.keys(ran[0]!.nodeRssByPhaseMb) as Array<keyof PayrollFigures['nodeRssByPhaseMb']>;
  return [
    '',
    `| node RSS MB by phase (peak) | ${phases.join(' | ')} |`,
    `| --- | ${phases.map(() => '---:').join(' | ')} |`,
    ...ran.map((p) => `| payroll-${p.lines / 1000}k | ${phases.map((phase) => p.nodeRssByPhaseMb[phase]).join(' | ')} |`),
  ];
}

function slowReaderLines(slow: SlowReadersFigures | null): string[] {
  if (!slow) return [];
  const ratio = slow.idle.p99Ms > 0 ? (slow.underReaders.p99Ms / slow.idle.p99Ms).toFixed(1) : '—';
  return [
    '',
    `slow-readers-100k: ${slow.readers} GETs of the finished 100,000-split request at once (${Math.round(slow.answerBytes / 2 ** 20)} MB each, read in ${slow.readSeconds} s, ` +
      `${slow.complete ? 'every answer whole' : 'AN ANSWER SHORTER THAN ITS Content-Length'}): node RSS ${slow.nodeRssMb} MB; ` +
      `another customer's small GET p99 ${slow.underReaders.p99Ms} ms against ${slow.idle.p99Ms} ms idle = ${ratio}× ` +
      `(p50 ${slow.underReaders.p50Ms} / ${slow.idle.p50Ms} ms; ${slow.underReaders.count} and ${slow.idle.count} calls)`,
  ];
}

function bulkheadLines(figures: BulkheadFigures | null): string[] {
  if (!figures) return [];
  const { idle, locked } = figures;
  const creations = Object.entries(figures.creations)
    .map(([status, count]) => `${count} × ${status}`)
    .join(', ');
  return [
    '',
    `bulkhead: another customer's GET /v1/customers/accounts p50 ${locked.p50Ms} ms, p99 ${locked.p99Ms} ms (${locked.count} calls) ` +
      `while one customer's account row was held ${figures.lockHeldSeconds} s with ${figures.queued} of its creations queued on it, ` +
      `against p50 ${idle.p50Ms} ms, p99 ${idle.p99Ms} ms (${idle.count} calls) idle; the creations answered ${creations}, the slowest after ${figures.longestCreationSeconds} s`,
  ];
}

function seedingLines(seeding: SeedingFigures | null): string[] {
  if (!seeding) return [];
  const { afterSeeding: a, onSeeded: b } = seeding;
  return [
    '',
    `seed-100k: the server's RSS ${a.rssMb} MB (peak ${a.peakMb}) after seeding a world of ${seeding.beneficiaries} beneficiaries (${seeding.worldFileMb} MB, ready in ${seeding.seedingStartSeconds} s), ` +
      `${b.rssMb} MB (peak ${b.peakMb}) started on the seeded database (ready in ${seeding.seededStartSeconds} s): difference ${a.rssMb - b.rssMb} MB; ` +
      `the seeding process's own peak ${seeding.seedingProcessPeakMb ?? '?'} MB`,
  ];
}

/** estimate-5 with metrics and with tracing, and the control, each against the plain server's runs around it. */
function observabilityRows(figures: ObservabilityFigures): string[] {
  const row = (cells: string[]) => `| ${cells.join(' | ')} |`;
  const ratio = (value: Ratios | null) => (value === null ? '—' : `${value.median.toFixed(3)} (${value.lowest.toFixed(3)}–${value.highest.toFixed(3)})`);
  const cpu = (value: number | null) => (value === null ? '—' : value.toFixed(3));
  const variant = (name: string, value: VariantFigures) =>
    row([name, String(value.rps), String(value.p99Ms), cpu(value.cpuMsPerRequest), ratio(value.cpuRatio), ratio(value.rpsRatio)]);
  return [
    `estimate-5, fresh servers every round, each answering ${figures.requestsPerRound} requests a round in slices taken in turn (bench/observability.ts); ` +
      "ratios: median over the rounds of the variant's figure ÷ the plain server's of the same round (lowest–highest)",
    '',
    row(['estimate-5 (same run, same database)', 'req/s', 'p99 ms', 'server CPU ms/req', 'CPU/req vs plain', 'req/s vs plain']),
    row(['---', '---:', '---:', '---:', '---:', '---:']),
    row(['plain (metrics and tracing off)', String(figures.plain.rps), String(figures.plain.p99Ms), cpu(figures.plain.cpuMsPerRequest), '1', '1']),
    variant('plain again (control: the noise)', figures.control),
    variant(`metrics on (scraped ${figures.scrapes} times)`, figures.metrics),
    variant(`tracing on, default sampling (${figures.spansExported} spans exported)`, figures.tracing),
  ];
}
