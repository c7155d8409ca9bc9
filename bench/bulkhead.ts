/**
 * One customer's locked account against another customer's reads (the per-customer bulkhead,
 * src/http/pipeline/customerBulkhead.ts): another customer's small GET /v1/customers/accounts, one call after
 * another, first with the server idle, then while a connection of the bench's own holds the bench
 * customer's USD account currency row (SELECT … FOR UPDATE, as a long transaction would) and 20 of
 * that customer's creations wait on it. Prints the neighbour's p50/p99 in both and the ratio of the
 * p99s (its target in bench/targets.ts), with what became of the creations. The server runs at its defaults
 * (DATABASE_POOL_SIZE, CUSTOMER_CONCURRENT_WRITES, DATABASE_LOCK_TIMEOUT_MS). Figures printed, not asserted.
 */
import pg from 'pg';
import { log } from './load.js';
import { benchIds, payrollCsvBody } from './world.js';

export interface Latencies {
  p50Ms: number;
  p99Ms: number;
  count: number;
}

export interface BulkheadFigures {
  /** The bench customer's creations started while its account was locked. */
  queued: number;
  /** How long the account row was held, seconds. */
  lockHeldSeconds: number;
  idle: Latencies;
  locked: Latencies;
  /** What the creations were answered, by status (201 once the row was free, 503 after a lock or bulkhead wait). */
  creations: Record<string, number>;
  /** The slowest creation's answer, seconds: how long they waited on the row. */
  longestCreationSeconds: number;
}

interface Setup {
  base: string;
  customerToken: string;
  neighbourToken: string;
  /** Runs `fn` with a connection string of the server's database. */
  withDatabase: <T>(fn: (url: string) => Promise<T>) => Promise<T>;
}

const QUEUED = 20;
const WARMUP_SECONDS = 1;
const IDLE_SECONDS = 5;
/** After the creations start, before the neighbour's calls are timed: they are all waiting by then. */
const SETTLE_MS = 1000;
/** The neighbour's calls while the row is held: within the server's default lock timeout (10 s). */
const LOCKED_SECONDS = 7;
const PAIR = `sourceAccountCurrencyId=${benchIds.acUsd}&payrollAccountCurrencyId=${benchIds.acPartnerAed}`;

const quantile = (sorted: number[], q: number): number => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;

/** The neighbour's GET, one call after another (20 ms apart) for `seconds`; its latencies. */
async function neighbourGets(setup: Setup, seconds: number): Promise<Latencies> {
  const latencies: number[] = [];
  const until = performance.now() + seconds * 1000;
  while (performance.now() < until) {
    const started = performance.now();
    const response = await fetch(`${setup.base}/v1/customers/accounts`, { headers: { authorization: `Bearer ${setup.neighbourToken}` } });
    await response.text();
    if (response.status !== 200) throw new Error(`the neighbour's GET /v1/customers/accounts: ${response.status}`);
    latencies.push(performance.now() - started);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  latencies.sort((a, b) => a - b);
  const round = (ms: number) => Math.round(ms * 10) / 10;
  return { p50Ms: round(quantile(latencies, 0.5)), p99Ms: round(quantile(latencies, 0.99)), count: latencies.length };
}

/** A one-line payroll's feeHash for each creation (estimated now, before anything is locked). */
async function feeHashes(setup: Setup, count: number): Promise<string[]> {
  const hashes: string[] = [];
  for (let n = 0; n < count; n++) {
    const response = await fetch(`${setup.base}/v1/customers/payroll/estimate?${PAIR}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${setup.customerToken}`, 'content-type': 'text/csv' },
      body: payrollCsvBody(1),
    });
    const text = await response.text();
    if (response.status !== 200) throw new Error(`bulkhead: the estimate answered ${response.status}: ${text.slice(0, 300)}`);
    hashes.push(/"feeHash":"([^"]+)"/.exec(text)![1]!);
  }
  return hashes;
}

async function create(setup: Setup, feeHash: string): Promise<{ status: number; ms: number }> {
  const started = performance.now();
  const response = await fetch(`${setup.base}/v1/customers/payroll/requests?${PAIR}&feeHash=${encodeURIComponent(feeHash)}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${setup.customerToken}`, 'content-type': 'text/csv' },
    body: payrollCsvBody(1),
  });
  await response.text();
  return { status: response.status, ms: performance.now() - started };
}

export async function bulkhead(setup: Setup): Promise<BulkheadFigures> {
  const hashes = await feeHashes(setup, QUEUED);
  await neighbourGets(setup, WARMUP_SECONDS); // the server's first answers to this GET are not its idle ones
  const idle = await neighbourGets(setup, IDLE_SECONDS);
  return setup.withDatabase(async (url) => {
    const holder = new pg.Client({ connectionString: url });
    await holder.connect();
    let creations: Promise<{ status: number; ms: number }[]> | undefined;
    let locked: Latencies;
    const heldAt = performance.now();
    let lockHeldSeconds: number;
    try {
      await holder.query('BEGIN');
      await holder.query('SELECT id FROM account_currencies WHERE id = $1 FOR UPDATE', [benchIds.acUsd]);
      creations = Promise.all(hashes.map((feeHash) => create(setup, feeHash)));
      await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
      locked = await neighbourGets(setup, LOCKED_SECONDS);
    } finally {
      await holder.query('ROLLBACK').catch(() => undefined);
      lockHeldSeconds = Math.round((performance.now() - heldAt) / 100) / 10;
      await holder.end();
    }
    const answers = await creations;
    const tally: Record<string, number> = {};
    for (const { status } of answers) tally[status] = (tally[status] ?? 0) + 1;
    const longestCreationSeconds = Math.round(Math.max(...answers.map(({ ms }) => ms)) / 100) / 10;
    const figures = { queued: QUEUED, lockHeldSeconds, idle, locked, creations: tally, longestCreationSeconds };
    log(`bulkhead: ${JSON.stringify(figures)}`);
    return figures;
  });
}
