/**
 * Every target of bench/targets.ts beside the run's figure: in the bench's table (the targets its
 * scenarios measured, with the load average) and, with --markdown, as one markdown table of every
 * target, run or not, under a caption with the run's load average and baseline. A figure means
 * little without the load the machine carried while it was measured.
 */
import os from 'node:os';
import type { Figures } from './report.js';
import { TARGETS, type TargetName } from './targets.js';

interface Measured {
  figure: string;
  met: boolean;
}

const T = Object.fromEntries(Object.entries(TARGETS).map(([name, { value }]) => [name, value])) as Record<TargetName, number>;
const s = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
const times = (value: number, digits = 2) => `${value.toFixed(digits)}×`;

/** Each target's figure in a run, or null when the scenario that measures it did not run. */
const FIGURES: Record<TargetName, (figures: Figures) => Measured | null> = {
  estimate5Ratio: ({ estimate5 }) => estimate5 && { figure: times(estimate5.ratio, 3), met: estimate5.ratio >= T.estimate5Ratio },
  estimate5P99VsBaseline: ({ estimate5 }) => estimate5 && { figure: times(estimate5.p99VsBaseline), met: estimate5.p99VsBaseline <= T.estimate5P99VsBaseline },
  readRatio: ({ read }) => read && { figure: times(read.ratio, 3), met: read.ratio >= T.readRatio },
  readRatioSmallBaseline: ({ read }) => read && { figure: times(read.ratioSmallBaseline, 3), met: read.ratioSmallBaseline >= T.readRatioSmallBaseline },
  servingMemoryMb: ({ estimate5, read, memory }) => {
    if (!estimate5 && !read) return null;
    const { nodeRssMb, databasePssMb, totalMb } = memory.loadScenarios;
    return { figure: `${totalMb} MB (${nodeRssMb} + ${databasePssMb})`, met: totalMb <= T.servingMemoryMb };
  },
  estimate10kMs: ({ estimate10k }) => estimate10k && { figure: `${estimate10k.ms} ms`, met: estimate10k.ms <= T.estimate10kMs },
  estimate10kVs1k: ({ estimate1k, estimate10k }) => {
    if (!estimate1k || !estimate10k) return null;
    const ratio = estimate10k.ms / estimate1k.ms;
    return { figure: times(ratio, 1), met: ratio <= T.estimate10kVs1k };
  },
  estimate10kCsvVsJson: ({ estimate10k, estimate10kCsv }) => {
    if (!estimate10k || !estimate10kCsv) return null;
    const ratio = estimate10kCsv.ms / estimate10k.ms;
    return { figure: `${times(ratio)} (${estimate10kCsv.ms} ms)`, met: ratio <= T.estimate10kCsvVsJson };
  },
  read1kMs: ({ read1k }) => read1k && { figure: `${read1k.ms} ms`, met: read1k.ms <= T.read1kMs },
  firstAnswerSeconds: ({ firstAnswer }) => firstAnswer && { figure: `${firstAnswer.seconds} s`, met: firstAnswer.seconds <= T.firstAnswerSeconds },
  payroll10kPayoutsSeconds: ({ payrolls: { payroll10k } }) =>
    payroll10k ? { figure: s(payroll10k.payoutsMs), met: payroll10k.payoutsMs <= T.payroll10kPayoutsSeconds * 1000 } : null,
  payroll10kGrowth: ({ payrolls: { payroll1k, payroll10k } }) => {
    if (!payroll1k || !payroll10k) return null;
    const ratio = payroll10k.fxToCompletedMs / payroll1k.fxToCompletedMs;
    return { figure: times(ratio, 1), met: ratio <= T.payroll10kGrowth };
  },
  payroll100kEstimateSeconds: ({ payrolls: { payroll100k: p } }) =>
    p ? { figure: s(p.estimateMs), met: p.estimateMs <= T.payroll100kEstimateSeconds * 1000 } : null,
  payroll100kCreateSeconds: ({ payrolls: { payroll100k: p } }) => (p ? { figure: s(p.createMs), met: p.createMs <= T.payroll100kCreateSeconds * 1000 } : null),
  payroll100kFxRecordSeconds: ({ payrolls: { payroll100k: p } }) =>
    p ? { figure: `${s(p.fxRecordMs)} (after ${p.fxAttempts - 1} refused retries)`, met: p.fxRecordMs <= T.payroll100kFxRecordSeconds * 1000 } : null,
  payroll100kPayoutsSeconds: ({ payrolls: { payroll100k: p } }) =>
    p ? { figure: s(p.payoutsMs), met: p.payoutsMs <= T.payroll100kPayoutsSeconds * 1000 } : null,
  payroll100kRssMb: ({ payrolls: { payroll100k: p } }) => {
    if (!p) return null;
    const peak = Math.max(...Object.values(p.nodeRssByPhaseMb), p.nodeRssMb);
    return { figure: `${peak} MB`, met: peak <= T.payroll100kRssMb };
  },
  slowReadersRssMb: ({ slowReaders }) => slowReaders && { figure: `${slowReaders.nodeRssMb} MB`, met: slowReaders.nodeRssMb < T.slowReadersRssMb },
  slowReadersP99VsIdle: ({ slowReaders }) => {
    if (!slowReaders) return null;
    const ratio = slowReaders.idle.p99Ms > 0 ? slowReaders.underReaders.p99Ms / slowReaders.idle.p99Ms : Number.POSITIVE_INFINITY;
    return {
      figure: `${times(ratio, 1)} (${slowReaders.underReaders.p99Ms} / ${slowReaders.idle.p99Ms} ms)`,
      met: ratio < T.slowReadersP99VsIdle && slowReaders.complete,
    };
  },
  seedingRssMb: ({ seeding }) => {
    if (!seeding) return null;
    const difference = seeding.afterSeeding.rssMb - seeding.onSeeded.rssMb;
    return { figure: `${difference} MB (${seeding.afterSeeding.rssMb} against ${seeding.onSeeded.rssMb})`, met: difference <= T.seedingRssMb };
  },
  bulkheadP99VsIdle: ({ bulkhead }) => {
    if (!bulkhead) return null;
    const ratio = bulkhead.idle.p99Ms > 0 ? bulkhead.locked.p99Ms / bulkhead.idle.p99Ms : Number.POSITIVE_INFINITY;
    return { figure: `${times(ratio)} (${bulkhead.locked.p99Ms} / ${bulkhead.idle.p99Ms} ms)`, met: ratio <= T.bulkheadP99VsIdle };
  },
  tracingCost: ({ observability }) => {
    if (!observability) return null;
    const { rpsRatio } = observability.tracing;
    const cost = 1 - rpsRatio.median;
    return {
      figure: `${(cost * 100).toFixed(1)} % (req/s ${times(rpsRatio.median, 3)}; control ${times(observability.control.rpsRatio.median, 3)})`,
      met: cost <= T.tracingCost,
    };
  },
  // camt-100k and inbox-reports run in processes of their own and print their figures there (bench/camt.ts, bench/inboxReports.ts).
  camt100kSeconds: () => null,
  camt100kRssMb: () => null,
  inboxStallMs: () => null,
  inboxFilesPerSecond: () => null,
};

interface Row {
  scenario: string;
  target: string;
  measured: Measured | null;
}

function rows(figures: Figures): Row[] {
  return (Object.keys(TARGETS) as TargetName[]).map((name) => ({
    scenario: TARGETS[name].scenario,
    target: TARGETS[name].says,
    measured: FIGURES[name](figures),
  }));
}

const loadAverage = (values: number[]) => values.map((value) => value.toFixed(2)).join(' ');
const cell = (text: string) => text.replace(/\|/g, '\\|');

/** The targets the run measured, each beside its figure and the run's load average (the bench's own table). */
export function targetLines(figures: Figures): string[] {
  const found = rows(figures).filter((row) => row.measured);
  if (found.length === 0) return [];
  const load = `${loadAverage(figures.loadAverage.start)} → ${loadAverage(figures.loadAverage.end)}`;
  const row = (cells: string[]) => `| ${cells.join(' | ')} |`;
  return [
    '',
    row(['scenario', 'target', 'figure', 'met', 'load average (start → end)']),
    row(['---', '---', '---:', '---', '---']),
    ...found.map(({ scenario, target, measured }) => row([scenario, target, measured!.figure, measured!.met ? 'yes' : 'no', load])),
  ];
}

/**
 * `npm run bench -- --markdown`: one markdown table of every target (those whose scenario did not
 * run say so), then a caption line with the run's load average, its baseline and its length.
 */
export function markdownTable(figures: Figures): string {
  const lines = [
    '| scenario | target | figure | met |',
    '| --- | --- | ---: | --- |',
    ...rows(figures).map(({ scenario, target, measured }) =>
      measured
        ? `| ${scenario} | ${cell(target)} | ${cell(measured.figure)} | ${measured.met ? 'met' : 'missed'} |`
        : `| ${scenario} | ${cell(target)} | — | not run |`,
    ),
  ];
  const baseline = figures.baseline ? `${figures.baseline.rps.toLocaleString('en-US')} req/s` : 'not run';
  const cpus = os.cpus();
  const short = figures.seconds < 10 || figures.rounds < 3 ? ' (a short run: the default is 10 s and 3 rounds)' : '';
  const caption =
    `Load average ${loadAverage(figures.loadAverage.start)} at the start, ${loadAverage(figures.loadAverage.end)} at the end; ` +
    `bare Express baseline ${baseline}; ${figures.seconds} s per load run, ${figures.rounds} round${figures.rounds === 1 ? '' : 's'}${short}; ` +
    `${figures.database === 'postgres' ? 'PostgreSQL at --database-url' : 'embedded PostgreSQL'}; ` +
    `${cpus[0]?.model.trim() ?? 'unknown CPU'} × ${cpus.length}, Node ${process.version}.`;
  return [...lines, '', caption].join('\n');
}
