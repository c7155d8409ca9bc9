import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import { BANK_EXCEPTION_KINDS, type UnansweredBatches, defineBankBatchGauges } from './bankBatchGauges.js';
import { type OpenScreeningHits, defineScreeningGauges } from './screeningGauges.js';
import { type RateAgeRow, defineRateGauges } from './rateGauges.js';
import type { Metrics } from './telemetry.js';

/** A pool's connections right now (pg.Pool's totalCount, idleCount, waitingCount). */
export interface PoolStats {
  total: number;
  idle: number;
  waiting: number;
}

/** Pending work of one kind, read from the database when scraped. */
export interface BacklogRow {
  kind: string;
  pending: number;
  /** Age of the oldest pending item, seconds; 0 when none. */
  oldestSeconds: number;
}

/** What a scrape reads live: the process's pools, and (where the worker runs) the database's backlog. */
export interface ScrapeSources {
  pools: Record<string, () => PoolStats | undefined>;
  /** Only in a process that runs the worker, so that two processes do not both report one database. */
  backlog?: () => Promise<{
    items: BacklogRow[];
    failingEndpoints: number;
    bankExceptions: BacklogRow[];
    rates?: RateAgeRow[];
    bankBatches?: UnansweredBatches;
    screeningHits?: OpenScreeningHits;
  }>;
}

/** Every kind of pending work, reported at 0 when there is none (a gauge that disappears cannot go back to zero). */
const BACKLOG_KINDS = ['PAYROLL_START', 'PROCESSOR_INTERNAL_DEBIT', 'PROCESSOR_TO_BANK', 'BANK_TO_BENEFICIARY', 'PAYOUT', 'WEBHOOK_DELIVERY'];

const PREFIX = 'payroll_';
const DURATION_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];
/** A bank's failure reasons are free text: at most this many distinct codes are labels, the rest are OTHER. */
const MAX_REASON_CODES = 50;

/** The metrics of one process on a registry of their own (docs/operations.md lists and explains them). */
export function createPrometheusMetrics(sources: ScrapeSources): { metrics: Metrics; registry: Registry } {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const http = httpMetrics(registry);
  const m = defineMetrics(registry);
  defineScrapeGauges(registry, sources);
  const reasons = new Map<string, string>();
  const metrics: Metrics = {
    enabled: true,
    ...http,
    payrollTransition: (from, to) => m.transitions.inc({ from, to }),
    movement: (kind, step, currency, amount, failureReason) => {
      if (step === 'INITIATED') return;
      const outcome = step === 'PROCESSING' ? 'submitted' : step === 'COMPLETED' ? 'completed' : 'failed';
      const labels = { kind, currency };
      if (outcome === 'submitted') m.submitted.inc(labels);
      else if (outcome === 'completed') m.completed.inc(labels);
      else m.failed.inc({ ...labels, reason: reasonCode(reasons, failureReason) });
      m.amount.inc({ ...labels, outcome }, approximate(amount));
    },
    batch: (kind, size) => m.batchSize.observe({ kind }, size),
    fxResult: (currency, amount) => {
      m.fxResult.inc({ currency }, approximate(amount));
      m.fxExchanges.inc({ currency });
    },
    webhookAttempt: (succeeded, retry) => {
      m.deliveries.inc({ outcome: succeeded ? 'succeeded' : 'failed' });
      if (retry) m.retries.inc();
    },
    transactionRetry: (sqlState) => m.transactionRetries.inc({ sqlstate: sqlState }),
    rateLimited: (scope) => m.rateLimited.inc({ scope }),
    heavyOperationRefused: () => m.heavyRefused.inc(),
    customerWriteRefused: () => m.customerWritesRefused.inc(),
    bankReportContradiction: () => m.bankReportContradictions.inc(),
    processFailure: (kind) => m.processFailures.inc({ kind }),
    rateFeedPolled: () => m.ratePolls.inc(),
    rateFeedFailure: (reason) => m.rateFailures.inc({ reason }),
    payrollDeadline: (deadline, kind) => m.deadlines.inc({ deadline, kind: kind.toLowerCase() }),
  };
  return { metrics, registry };
}

const STATUS_CLASSES = ['1xx', '1xx', '2xx', '3xx', '4xx', '5xx'];

/**
 * The two reports made on every request, kept cheap: requests in flight are a plain number read at
 * scrape time, and the duration histogram's label sets are bound once each (by operationId, method
 * and status class, all bounded), so that a request allocates no label object or string.
 */
function httpMetrics(registers: Registry): Pick<Metrics, 'httpStarted' | 'httpFinished'> {
  const duration = new Histogram({
    name: `${PREFIX}http_request_duration_seconds`,
    help: 'HTTP requests by spec operation (operationId; "none" when refused before routing), method and status class',
    labelNames: ['operationId', 'method', 'status_class'],
    buckets: DURATION_BUCKETS,
    registers: [registers],
  });
  let inFlight = 0;
  new Gauge({
    name: `${PREFIX}http_requests_in_flight`,
    help: 'HTTP requests being answered',
    registers: [registers],
    collect() {
      this.set(inFlight);
    },
  });
  type Bound = ReturnType<typeof duration.labels>;
  const bound = new Map<string, Map<string, Bound[]>>();
  const series = (operationId: string, method: string, status: number): Bound => {
    let byMethod = bound.get(operationId);
    if (!byMethod) bound.set(operationId, (byMethod = new Map()));
    let byClass = byMethod.get(method);
    if (!byClass) byMethod.set(method, (byClass = []));
    const statusClass = Math.min(5, Math.max(1, Math.floor(status / 100)));
    return (byClass[statusClass] ??= duration.labels(operationId, method, STATUS_CLASSES[statusClass]!));
  };
  return {
    httpStarted: () => void (inFlight += 1),
    httpFinished: (operationId, method, status, seconds) => {
      inFlight -= 1;
      series(operationId, method, status).observe(seconds);
    },
  };
}

function defineMetrics(registers: Registry) {
  const counter = (name: string, help: string, labelNames: string[] = []) => new Counter({ name: PREFIX + name, help, labelNames, registers: [registers] });
  const movementLabels = ['kind', 'currency'];
  return {
    transitions: counter('request_transitions_total', 'Payroll request status changes', ['from', 'to']),
    submitted: counter('payouts_submitted_total', 'Money movements accepted by the rails (processor or bank)', movementLabels),
    completed: counter('payouts_completed_total', 'Money movements the rails settled', movementLabels),
    failed: counter('payouts_failed_total', 'Money movements the rails failed, by reason code', [...movementLabels, 'reason']),
    amount: counter('payout_amount_total', 'Amounts of the money movements (major units of currency), by outcome', [...movementLabels, 'outcome']),
    batchSize: new Histogram({
      name: `${PREFIX}worker_batch_size`,
      help: 'Items claimed together by one worker pass',
      labelNames: ['kind'],
      buckets: [1, 2, 5, 10, 20, 50, 100, 500, 1000, 5000],
      registers: [registers],
    }),
    fxResult: new Gauge({
      name: `${PREFIX}fx_result`,
      help: "The platform's FX result (gain; negative: loss) of the exchanges recorded since start, per payroll currency (major units)",
      labelNames: ['currency'],
      registers: [registers],
    }),
    fxExchanges: counter('fx_exchanges_recorded_total', 'FX exchanges recorded, per payroll currency', ['currency']),
    deliveries: counter('webhook_deliveries_total', 'Webhook delivery attempts by outcome', ['outcome']),
    retries: counter('webhook_delivery_retries_total', 'Webhook delivery attempts after the first'),
    transactionRetries: counter('db_transaction_retries_total', 'Transactions run again after a deadlock or a serialization failure', ['sqlstate']),
    rateLimited: counter('http_rate_limited_total', 'Requests refused by the rate limiter (429)', ['scope']),
    heavyRefused: counter('heavy_operations_refused_total', 'Heavy requests refused by the per-customer cap on heavy operations (429)'),
    customerWritesRefused: counter(
      'customer_writes_refused_total',
      "A customer's operations refused (503) after waiting past CUSTOMER_WRITE_WAIT_MS for its bulkhead lane",
    ),
    bankReportContradictions: counter(
      'bank_report_contradictions_total',
      'Bank status reports rejecting a payout already reported settled (RJCT after ACSC); the payout is left as it was',
    ),
    processFailures: counter('process_failures_total', 'Exceptions nobody caught and rejections nobody handled; the process exits after each', ['kind']),
    ratePolls: counter('rate_feed_polls_total', 'Polls of the rate feed that read it'),
    rateFailures: counter('rate_feed_failures_total', 'Rate feed polls that failed and rates refused, by reason', ['reason']),
    deadlines: counter('deadline_notices_total', 'Deadlines of payrolls with a pay date noticed approaching or missed', ['deadline', 'kind']),
  };
}

/** Gauges read at scrape time: the pools' connections, and the worker's backlog from the database. */
function defineScrapeGauges(registry: Registry, sources: ScrapeSources): void {
  const pools = Object.entries(sources.pools);
  const poolGauge = (name: string, help: string, pick: (stats: PoolStats) => number) =>
    new Gauge({
      name: `${PREFIX}db_pool_${name}`,
      help,
      labelNames: ['pool'],
      registers: [registry],
      collect() {
        for (const [pool, stats] of pools) {
          const now = stats();
          if (now) this.set({ pool }, pick(now));
        }
      },
    });
  poolGauge('total', 'Connections open in the pool', (stats) => stats.total);
  poolGauge('idle', 'Connections open and idle in the pool', (stats) => stats.idle);
  poolGauge('waiting', 'Queries waiting for a connection of the pool', (stats) => stats.waiting);
  if (sources.backlog) defineBacklogGauges(registry, sources.backlog);
}

function defineBacklogGauges(registry: Registry, read: NonNullable<ScrapeSources['backlog']>): void {
  type Snapshot = Awaited<ReturnType<typeof read>>;
  // One read per scrape, shared by the gauges below (prom-client collects a registry's metrics together,
  // so they all ask while it runs); a failed read (the database away) leaves them as they were and says
  // so in backlog_read_ok, rather than failing the whole scrape.
  let pending: Promise<Snapshot | undefined> | undefined;
  const ok = new Gauge({
    name: `${PREFIX}backlog_read_ok`,
    help: 'Whether the last read of the backlog from the database succeeded (1) or not (0)',
    registers: [registry],
  });
  const current = () =>
    (pending ??= read()
      .then(
        (value) => (ok.set(1), value),
        () => (ok.set(0), undefined),
      )
      .finally(() => (pending = undefined)));
  const gauge = (name: string, help: string, labelNames: string[], fill: (g: Gauge, snapshot: Snapshot) => void) =>
    new Gauge({
      name: `${PREFIX}${name}`,
      help,
      labelNames,
      registers: [registry],
      async collect() {
        const snapshot = await current();
        if (snapshot) fill(this, snapshot);
      },
    });
  const byKind =
    (pick: (row: BacklogRow) => number) =>
    (g: Gauge, { items }: Snapshot) =>
      fillByKind(g, BACKLOG_KINDS, items, pick);
  defineBankExceptionGauges(gauge);
  defineRateGauges(gauge);
  defineBankBatchGauges(gauge);
  defineScreeningGauges(gauge);
  gauge(
    'worker_backlog_items',
    'Pending work items by kind (the worker has not finished them)',
    ['kind'],
    byKind((row) => row.pending),
  );
  gauge(
    'worker_backlog_oldest_seconds',
    'Age of the oldest pending work item by kind, seconds (0: none)',
    ['kind'],
    byKind((row) => row.oldestSeconds),
  );
  gauge('webhook_oldest_undelivered_seconds', 'Age of the oldest webhook delivery still to be made, seconds (0: none)', [], (g, { items }) =>
    g.set(items.find((row) => row.kind === 'WEBHOOK_DELIVERY')?.oldestSeconds ?? 0),
  );
  gauge('webhook_endpoints_failing', 'Webhook endpoints marked FAILING after consecutive failed deliveries', [], (g, { failingEndpoints }) =>
    g.set(failingEndpoints),
  );
}

export type GaugeSnapshot = { bankExceptions: BacklogRow[]; rates?: RateAgeRow[]; bankBatches?: UnansweredBatches; screeningHits?: OpenScreeningHits };
export type SnapshotGauge = (name: string, help: string, labelNames: string[], fill: (g: Gauge, snapshot: GaugeSnapshot) => void) => Gauge;

/** Every kind at 0, then the kinds the rows name. */
function fillByKind(g: Gauge, kinds: readonly string[], rows: readonly BacklogRow[], pick: (row: BacklogRow) => number): void {
  for (const kind of kinds) g.set({ kind }, 0);
  for (const row of rows) g.set({ kind: row.kind }, pick(row));
}

/** The bank's books: open exceptions by kind, and the age of the oldest of each (read with the backlog). */
function defineBankExceptionGauges(gauge: SnapshotGauge): void {
  gauge('bank_exceptions_open', "Open exceptions of the bank's books by kind (what the bank booked that does not match ours)", ['kind'], (g, snapshot) =>
    fillByKind(g, BANK_EXCEPTION_KINDS, snapshot.bankExceptions, (row) => row.pending),
  );
  gauge('bank_exception_oldest_open_seconds', 'Age of the oldest open bank exception by kind, seconds (0: none)', ['kind'], (g, snapshot) =>
    fillByKind(g, BANK_EXCEPTION_KINDS, snapshot.bankExceptions, (row) => row.oldestSeconds),
  );
}

/** A label for a failure reason: its words in upper snake case (Beneficiary account closed → BENEFICIARY_ACCOUNT_CLOSED). */
function reasonCode(codes: Map<string, string>, reason: string | undefined): string {
  if (!reason) return 'UNKNOWN';
  let code = codes.get(reason);
  if (code === undefined) {
    code =
      codes.size < MAX_REASON_CODES
        ? reason
            .toUpperCase()
            .replace(/[^A-Z0-9]+/g, '_')
            .replace(/^_|_$/g, '')
            .slice(0, 60) || 'UNKNOWN'
        : 'OTHER';
    codes.set(reason, code);
  }
  return code;
}

/**
 * A decimal amount as the float a metric holds. Metrics are approximate by nature (sums over time,
 * rates); the exact amounts stay in the ledger, and nothing computes money from these.
 */
function approximate(amount: string): number {
  return Number(amount);
}

/** The Prometheus text of `registry`, with its content type. */
export async function exposition(registry: Registry): Promise<{ contentType: string; body: string }> {
  return { contentType: registry.contentType, body: await registry.metrics() };
}
