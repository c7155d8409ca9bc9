/**
 * The request paths' targets, each printed next to its figure and the load average of the run:
 * a figure means little without the load the machine carried while it was measured.
 */
import type { Figures } from './report.js';

interface TargetRow {
  target: string;
  figure: string;
  met: boolean | null;
}

/** What the request paths must reach on this machine (docs/performance.md#targets). */
export const REQUEST_PATH_TARGETS = {
  estimate5Ratio: 0.25,
  estimate5P99VsBaseline: 4,
  read1kMs: 20,
  estimate10kMs: 100,
  firstAnswerSeconds: 5,
  /** Another customer's GET p99 with one customer's account locked, at most this many times its idle p99. */
  bulkheadP99VsIdle: 2,
  /** What tracing on (at its default sampling) may cost of estimate-5's req/s against tracing off. */
  tracingCost: 0.1,
} as const;

const T = REQUEST_PATH_TARGETS;

function rows(figures: Figures): TargetRow[] {
  const found: TargetRow[] = [];
  const { estimate5, read1k, estimate10k, firstAnswer, bulkhead, observability } = figures;
  if (estimate5) {
    found.push({
      target: `estimate-5 ≥ ${T.estimate5Ratio}× the baseline's req/s`,
      figure: `${estimate5.ratio.toFixed(3)}×`,
      met: estimate5.ratio >= T.estimate5Ratio,
    });
    found.push({
      target: `estimate-5 p99 ≤ ${T.estimate5P99VsBaseline}× the baseline's`,
      figure: `${estimate5.p99VsBaseline.toFixed(2)}×`,
      met: estimate5.p99VsBaseline <= T.estimate5P99VsBaseline,
    });
  }
  if (read1k) found.push({ target: `read-1k ≤ ${T.read1kMs} ms`, figure: `${read1k.ms} ms`, met: read1k.ms <= T.read1kMs });
  if (estimate10k) found.push({ target: `estimate-10k ≤ ${T.estimate10kMs} ms`, figure: `${estimate10k.ms} ms`, met: estimate10k.ms <= T.estimate10kMs });
  if (firstAnswer)
    found.push({
      target: `a fresh npm start answers within ${T.firstAnswerSeconds} s`,
      figure: `${firstAnswer.seconds} s`,
      met: firstAnswer.seconds <= T.firstAnswerSeconds,
    });
  if (observability) {
    const { rpsRatio, cpuRatio } = observability.tracing;
    const cost = 1 - rpsRatio.median;
    found.push({
      target: `tracing on (default sampling) vs off: estimate-5 req/s ≥ ${1 - T.tracingCost}× (a cost ≤ ${T.tracingCost * 100} %)`,
      figure:
        `${rpsRatio.median.toFixed(3)}× (cost ${(cost * 100).toFixed(1)} %; rounds ${rpsRatio.lowest.toFixed(3)}–${rpsRatio.highest.toFixed(3)}` +
        `${cpuRatio ? `; CPU/request ${cpuRatio.median.toFixed(3)}×` : ''}; control ${observability.control.rpsRatio.median.toFixed(3)}×)`,
      met: cost <= T.tracingCost,
    });
  }
  if (bulkhead) {
    const ratio = bulkhead.idle.p99Ms > 0 ? bulkhead.locked.p99Ms / bulkhead.idle.p99Ms : Number.POSITIVE_INFINITY;
    found.push({
      target: `another customer's GET p99 with one customer's account locked and ${bulkhead.queued} creations queued ≤ ${T.bulkheadP99VsIdle}× idle`,
      figure: `${ratio.toFixed(2)}× (${bulkhead.locked.p99Ms} / ${bulkhead.idle.p99Ms} ms)`,
      met: ratio <= T.bulkheadP99VsIdle,
    });
  }
  return found;
}

/** The targets table: target, figure, met, and the load average at the start and the end of the run. */
export function targetLines(figures: Figures): string[] {
  const found = rows(figures);
  if (found.length === 0) return [];
  const load = `${figures.loadAverage.start.map((value) => value.toFixed(2)).join(' ')} → ${figures.loadAverage.end.map((value) => value.toFixed(2)).join(' ')}`;
  const row = (cells: string[]) => `| ${cells.join(' | ')} |`;
  return [
    '',
    row(['request-path target', 'figure', 'met', 'load average (start → end)']),
    row(['---', '---:', '---', '---']),
    ...found.map(({ target, figure, met }) => row([target, figure, met === null ? '—' : met ? 'yes' : 'no', load])),
  ];
}
