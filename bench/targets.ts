/**
 * The benchmark's targets: the one place their numbers are written. The bench prints each beside
 * its figure (bench/targetTable.ts; `npm run bench -- --markdown` as one markdown table), and the
 * README's table of targets is written from here (`npm run -s docs:targets`; a unit test fails when
 * the README differs). Figures are printed against them, never asserted. This module imports
 * nothing, so the README's script and its test read it without the bench's dependencies.
 */

interface Target {
  /** The scenario that measures it, as the bench names it (`--only`). */
  scenario: string;
  value: number;
  /** What must hold, in words, with the value. */
  says: string;
}

const target = (scenario: string, value: number, says: (value: number) => string): Target => ({ scenario, value, says: says(value) });

/** Every target, in the order the tables print them. */
export const TARGETS = {
  estimate5Ratio: target('estimate-5', 0.25, (v) => `req/s ≥ ${v}× the bare Express baseline's`),
  estimate5P99VsBaseline: target('estimate-5', 4, (v) => `p99 ≤ ${v}× the baseline's`),
  readRatio: target('read', 0.33, (v) => `req/s ≥ ${v}× the same-size baseline's`),
  readRatioSmallBaseline: target('read', 0.12, (v) => `req/s ≥ ${v}× the small baseline's`),
  servingMemoryMb: target('estimate-5, read', 300, (v) => `node RSS + database PSS ≤ ${v} MB under their load`),
  estimate10kMs: target('estimate-10k', 100, (v) => `≤ ${v} ms`),
  estimate10kVs1k: target('estimate-10k', 12, (v) => `≤ ${v}× estimate-1k's time`),
  estimate10kCsvVsJson: target('estimate-10k-csv', 2, (v) => `≤ ${v}× estimate-10k's time (JSON)`),
  read1kMs: target('read-1k', 20, (v) => `≤ ${v} ms`),
  firstAnswerSeconds: target('first-answer', 5, (v) => `a fresh npm start answers within ${v} s`),
  payroll10kPayoutsSeconds: target('payroll-10k', 4, (v) => `10,000 payouts, FX record answered → COMPLETED, ≤ ${v} s`),
  payroll10kGrowth: target('payroll-10k', 12, (v) => `FX record → COMPLETED ≤ ${v}× payroll-1k's`),
  payroll100kEstimateSeconds: target('payroll-100k', 2, (v) => `CSV estimate ≤ ${v} s`),
  payroll100kCreateSeconds: target('payroll-100k', 8, (v) => `create ≤ ${v} s`),
  payroll100kFxRecordSeconds: target('payroll-100k', 8, (v) => `FX record ≤ ${v} s`),
  payroll100kPayoutsSeconds: target('payroll-100k', 40, (v) => `payouts → COMPLETED ≤ ${v} s`),
  payroll100kRssMb: target('payroll-100k', 400, (v) => `node RSS ≤ ${v} MB in every phase`),
  slowReadersRssMb: target('slow-readers-100k', 400, (v) => `node RSS < ${v} MB`),
  slowReadersP99VsIdle: target('slow-readers-100k', 4, (v) => `another customer's small GET p99 < ${v}× idle`),
  seedingRssMb: target('seed-100k', 30, (v) => `RSS after seeding within ${v} MB of a server started on the seeded database`),
  bulkheadP99VsIdle: target('bulkhead', 2, (v) => `another customer's GET p99, one customer's account locked, ≤ ${v}× idle`),
  tracingCost: target('estimate5Observability', 0.1, (v) => `tracing on (default sampling) costs ≤ ${v * 100} % of estimate-5's req/s`),
  camt100kSeconds: target('camt-100k', 30, (v) => `validated, parsed, applied and reconciled ≤ ${v} s`),
  camt100kRssMb: target('camt-100k', 400, (v) => `node RSS ≤ ${v} MB`),
  inboxStallMs: target('inbox-reports', 100, (v) => `the event loop's longest stall while a 50 MB report is read ≤ ${v} ms`),
  inboxFilesPerSecond: target('inbox-reports', 20, (v) => `≥ ${v} small reports drained a second`),
} as const satisfies Record<string, Target>;

export type TargetName = keyof typeof TARGETS;

/** What each scenario with a target measures (the README's middle column). */
const MEASURES: Record<string, string> = {
  'estimate-5': 'a 5-line estimate under load (50 connections), against a bare Express app answering its envelope in the same run',
  read: "a 50-split request's GET under load, against the bare app answering a body of the same size, and the small one",
  'estimate-5, read': "the server's and the database's memory while the two loads run",
  'estimate-10k': 'one estimate of 10,000 lines, end to end (median of 7)',
  'estimate-10k-csv': 'the same payroll as a CSV file naming beneficiaries by reference',
  'read-1k': 'one GET of a 1,000-split request (median of 7)',
  'first-answer': 'a fresh `npm start` at every default, from its spawn to its first answer',
  'payroll-10k': 'the whole life of a 10,000-line payroll, CSV estimate to `COMPLETED`, instant simulated bank',
  'payroll-100k': 'the same with 100,000 lines, on a server of its own with a 100,000-beneficiary world',
  'slow-readers-100k': 'four slow GETs of the finished 100,000-split request while another customer reads its own',
  'seed-100k': "the server's RSS after seeding a 100,000-beneficiary world",
  bulkhead: "another customer's GET while one customer's account row is held and 20 of its creations wait (`--only bulkhead`)",
  estimate5Observability: 'estimate-5 with tracing on against off, fresh servers each round (`--only estimate5Observability`)',
  'camt-100k': "the bank's statement of a 100,000-payout day (camt.053), in a process of its own (`--only camt-100k`)",
  'inbox-reports': 'the bank inbox reading a 50 MB report and a backlog of 200 small ones (`--only inbox-reports`)',
};

/** The scenarios with targets, in the tables' order, each with its targets joined. */
function byScenario(): Array<{ scenario: string; targets: string[] }> {
  const groups = new Map<string, string[]>();
  for (const { scenario, says } of Object.values(TARGETS)) groups.set(scenario, [...(groups.get(scenario) ?? []), says]);
  return [...groups].map(([scenario, targets]) => ({ scenario, targets }));
}

/** The README's table of targets (between its `targets` markers), written from TARGETS. */
export function readmeTargetsTable(): string {
  const name = (scenario: string) =>
    scenario
      .split(', ')
      .map((part) => `\`${part}\``)
      .join(', ');
  return [
    '| scenario | what it measures | target |',
    '| --- | --- | --- |',
    ...byScenario().map(({ scenario, targets }) => `| ${name(scenario)} | ${MEASURES[scenario] ?? ''} | ${targets.join('; ')} |`),
  ].join('\n');
}
