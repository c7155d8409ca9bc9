/** The bench's command line (bench/run.ts says what each scenario measures): the scenarios asked for, the rounds and their length. */
import { parseArgs } from 'node:util';

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
  'bulkhead',
] as const;
type Scenario = (typeof SCENARIOS)[number];
/** Run only when named in --only. */
const OPT_IN: readonly Scenario[] = ['payroll100k', 'estimate5Observability', 'camt100k', 'inboxReports', 'slowReaders100k', 'seed100k', 'bulkhead'];

export const { values: args } = parseArgs({
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
export const seconds = Number(process.env.BENCH_DURATION || 10);
export const rounds = Number(args.rounds ?? (process.env.BENCH_ROUNDS || 3));
if (!Number.isFinite(seconds) || seconds < 1 || !Number.isInteger(rounds) || rounds < 1) {
  console.error(`BENCH_DURATION must be a number of seconds ≥ 1 and the rounds a whole number ≥ 1, got "${process.env.BENCH_DURATION}", "${rounds}"`);
  process.exit(2);
}
export const warmupSeconds = Math.min(3, Math.max(1, Math.round(seconds / 3)));
const camel = (name: string) => name.trim().replace(/-(\w)/g, (_, letter: string) => letter.toUpperCase());
export const only = new Set((args.only ?? SCENARIOS.filter((name) => !OPT_IN.includes(name)).join(',')).split(',').map(camel));
for (const name of only) {
  if (!(SCENARIOS as readonly string[]).includes(name)) {
    console.error(`--only: unknown scenario "${name}" (one of ${SCENARIOS.join(', ')})`);
    process.exit(2);
  }
}
// The slow readers read the request payroll-100k made.
if (only.has('slowReaders100k')) only.add('payroll100k');
export const wanted = (name: Scenario) => only.has(name);
/** The load scenarios run against their baselines; without them the baselines are skipped too. */
export const loadWanted = wanted('estimate5') || wanted('read');
export const PAYROLLS = [
  ['payroll1k', 1_000],
  ['payroll10k', 10_000],
  ['payroll100k', 100_000],
] as const;
