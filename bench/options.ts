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
  'screening100k',
] as const;
type Scenario = (typeof SCENARIOS)[number];
/** Run only when named in --only. */
const OPT_IN: readonly Scenario[] = ['estimate5Observability', 'camt100k', 'inboxReports', 'bulkhead', 'screening100k'];
/**
 * Run once the other scenarios are done, the payroll and its readers on a server of their own
 * started on a 100,000-beneficiary world: the request paths and the smaller payrolls keep the bench
 * world their targets were set on, and do not share the machine with a big world's seeding and its
 * aftermath in the database.
 */
export const BIG_WORLD: readonly Scenario[] = ['payroll100k', 'slowReaders100k', 'seed100k'];
/** Scenarios that start no bench server of their own (their own process, or a fresh `npm start`). */
const WITHOUT_BENCH_SERVER: readonly Scenario[] = ['camt100k', 'inboxReports', 'firstAnswer', 'screening100k'];

export const { values: args } = parseArgs({
  options: {
    json: { type: 'boolean', default: false },
    /** Prints one markdown table of every target (bench/targetTable.ts) on stdout; the usual table goes to stderr. */
    markdown: { type: 'boolean', default: false },
    'database-url': { type: 'string' },
    rounds: { type: 'string' },
    /** Writes the server's V8 CPU profile (.cpuprofile) into this directory (and each observability variant's, named after it). */
    profile: { type: 'string' },
    /** A comma-separated subset of the scenarios (skipped ones are null in the JSON; the baselines always run). */
    only: { type: 'string' },
  },
});
if (args.json && args.markdown) {
  console.error('--json and --markdown both write stdout: choose one');
  process.exit(2);
}
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
export const loadWanted = () => wanted('estimate5') || wanted('read');

/**
 * The scenarios asked for, in the phases they run in: those of the big world last, on a server of
 * their own, when anything else that needs the bench's server is asked for too.
 */
export function phases(): Set<string>[] {
  const big = new Set([...only].filter((name) => (BIG_WORLD as readonly string[]).includes(name)));
  const rest = new Set([...only].filter((name) => !big.has(name)));
  const restNeedsServer = [...rest].some((name) => !(WITHOUT_BENCH_SERVER as readonly string[]).includes(name));
  return big.size > 0 && restNeedsServer ? [rest, big] : [new Set(only)];
}

/** Runs `work` with `names` as the scenarios wanted (the server's world and every scenario read them), then restores them. */
export async function withScenarios<T>(names: Set<string>, work: () => Promise<T>): Promise<T> {
  const asked = [...only];
  only.clear();
  for (const name of names) only.add(name);
  try {
    return await work();
  } finally {
    only.clear();
    for (const name of asked) only.add(name);
  }
}
export const PAYROLLS = [
  ['payroll1k', 1_000],
  ['payroll10k', 10_000],
  ['payroll100k', 100_000],
] as const;
