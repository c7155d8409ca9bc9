// Metrics (METRICS_PORT): the Prometheus text after a whole payroll lifecycle driven through the real
// app and worker of this process, with the metrics installed as the entry points install them.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMetrics } from '../../../src/composition/observability.js';
import type { MetricsServer } from '../../../src/observability/metricsServer.js';
import { createPrometheusMetrics } from '../../../src/observability/prometheus.js';
import type { Database } from '../../../src/store/database/db.js';
import type { ExecutionDeps } from '../../../src/usecases/payroll/execution.js';
import { ids } from '../../fixtures/world.js';
import { inRepo } from '../../support/build.js';
import { accept, estimateAndCreate, quote, readRequest, recordFx } from '../../support/payroll.js';
import type { TestServer } from '../../support/server.js';
import { drain, startServerWithWorker } from '../../support/worker.js';

let server: TestServer;
let worker: ExecutionDeps;
let metricsServer: MetricsServer;

// The pools and the backlog are read through the test server's database, made after the metrics:
// the app measures requests only when metrics were installed before it was built, as in src/main.ts.
const lazyDb = new Proxy({} as Database, {
  get: (_target, property) => {
    const value = Reflect.get(server.db, property, server.db) as unknown;
    return typeof value === 'function' ? value.bind(server.db) : value;
  },
});

beforeAll(async () => {
  metricsServer = (await startMetrics({ port: 0, host: '127.0.0.1' }, { 'payroll-api': lazyDb }, lazyDb))!;
  ({ server, worker } = await startServerWithWorker());
});
afterAll(async () => {
  await metricsServer?.close();
  await server?.close();
});

const scrape = async (): Promise<string> => {
  const response = await fetch(`http://127.0.0.1:${metricsServer.port}/metrics`);
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
  return response.text();
};

/** The value of one sample, by its name and exact label set as prom-client prints them; undefined when absent. */
function sample(text: string, series: string): number | undefined {
  const line = text.split('\n').find((candidate) => candidate.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

describe('GET /metrics on METRICS_PORT', () => {
  it('after a lifecycle: the HTTP histogram by operationId, money moved, the backlog back to zero, the pools', async () => {
    const customer = server.as(ids.userA);
    const { created } = await estimateAndCreate(customer, [
      { beneficiaryId: ids.beneficiaryA1, amount: '1000.00', purposeCode: 'SAL' },
      { beneficiaryId: ids.beneficiaryA2, amount: '1000.00', amountCurrencyType: 'PAYROLL', purposeCode: 'PEN' },
    ]);
    const requestId = created.data!.data.id;
    expect((await quote(server, requestId)).response.status).toBe(200);
    expect((await accept(server, requestId)).response.status).toBe(200);
    const waiting = await scrape();
    expect(sample(waiting, 'payroll_worker_backlog_items{kind="PAYROLL_START"}')).toBe(1);
    expect(sample(waiting, 'payroll_worker_backlog_oldest_seconds{kind="PAYROLL_START"}')).toBeGreaterThanOrEqual(0);

    await drain(worker);
    expect((await recordFx(server, requestId)).response.status).toBe(200);
    await drain(worker);
    expect((await readRequest(server, requestId)).status).toBe('COMPLETED');

    const text = await scrape();
    expect(sample(text, 'payroll_http_request_duration_seconds_count{operationId="estimatePayrollFee",method="POST",status_class="2xx"}')).toBe(1);
    expect(sample(text, 'payroll_http_request_duration_seconds_count{operationId="createPayrollRequest",method="POST",status_class="2xx"}')).toBe(1);
    expect(text).toMatch(
      /^payroll_http_request_duration_seconds_bucket\{le="0\.005",operationId="estimatePayrollFee",method="POST",status_class="2xx"\} \d+$/m,
    );
    expect(sample(text, 'payroll_http_requests_in_flight')).toBe(0);
    expect(sample(text, 'payroll_payouts_submitted_total{kind="PROCESSOR_INTERNAL_DEBIT",currency="USD"}')).toBe(1);
    expect(sample(text, 'payroll_payouts_completed_total{kind="PROCESSOR_TO_BANK",currency="USD"}')).toBe(1);
    expect(sample(text, 'payroll_payouts_submitted_total{kind="BANK_TO_BENEFICIARY",currency="AED"}')).toBe(2);
    expect(sample(text, 'payroll_payouts_completed_total{kind="BANK_TO_BENEFICIARY",currency="AED"}')).toBe(2);
    // 3653.00 + 1000.00 AED paid to the two beneficiaries at the quote of 3.653.
    expect(sample(text, 'payroll_payout_amount_total{kind="BANK_TO_BENEFICIARY",currency="AED",outcome="completed"}')).toBeCloseTo(4653, 2);
    expect(sample(text, 'payroll_request_transitions_total{from="PAYOUT_INITIATED",to="COMPLETED"}')).toBe(1);
    expect(sample(text, 'payroll_fx_exchanges_recorded_total{currency="AED"}')).toBe(1);
    expect(sample(text, 'payroll_fx_result{currency="AED"}')).toBeDefined();
    expect(text).toMatch(/^payroll_worker_batch_size_count\{kind="transfers"\} [1-9]\d*$/m);
    for (const kind of ['PAYROLL_START', 'PROCESSOR_INTERNAL_DEBIT', 'PROCESSOR_TO_BANK', 'BANK_TO_BENEFICIARY', 'PAYOUT', 'WEBHOOK_DELIVERY']) {
      expect(sample(text, `payroll_worker_backlog_items{kind="${kind}"}`), kind).toBe(0);
      expect(sample(text, `payroll_worker_backlog_oldest_seconds{kind="${kind}"}`), kind).toBe(0);
    }
    expect(sample(text, 'payroll_backlog_read_ok')).toBe(1);
    expect(sample(text, 'payroll_webhook_endpoints_failing')).toBe(0);
    expect(sample(text, 'payroll_db_pool_total{pool="payroll-api"}')).toBeGreaterThan(0);
    expect(sample(text, 'payroll_db_pool_idle{pool="payroll-api"}')).toBeGreaterThanOrEqual(0);
    expect(sample(text, 'payroll_db_pool_waiting{pool="payroll-api"}')).toBe(0);
    // Node's runtime defaults (prom-client): event loop lag, heap, GC (its buckets appear after the first collection).
    for (const name of ['nodejs_eventloop_lag_seconds', 'nodejs_heap_size_used_bytes', 'process_resident_memory_bytes']) expect(text).toContain(`\n${name} `);
    expect(text).toContain('# TYPE nodejs_gc_duration_seconds histogram');
  });

  it('labels each request by its operation, refusals too, and one the spec does not know "none"', async () => {
    expect((await server.client.GET('/v1/customers/payroll/requests')).response.status).toBe(401);
    const invalid = await server.as(ids.userA).POST('/v1/customers/payroll/estimate', { body: {} as never });
    expect(invalid.response.status).toBe(400);
    expect((await fetch(`${server.baseUrl}/v1/no/such/path/${crypto.randomUUID()}`)).status).toBe(404);
    const text = await scrape();
    expect(sample(text, 'payroll_http_request_duration_seconds_count{operationId="listPayrollRequests",method="GET",status_class="4xx"}')).toBe(1);
    expect(sample(text, 'payroll_http_request_duration_seconds_count{operationId="estimatePayrollFee",method="POST",status_class="4xx"}')).toBe(1);
    // The raw path is never a label: any number of unknown paths is one series.
    expect(sample(text, 'payroll_http_request_duration_seconds_count{operationId="none",method="GET",status_class="4xx"}')).toBe(1);
  });

  it('is served nowhere else: 404 for /metrics on the API port and for any other path on the metrics port', async () => {
    const onApi = await fetch(`${server.baseUrl}/metrics`);
    expect(onApi.status).toBe(404);
    expect(await onApi.json()).toMatchObject({ success: false, error: { code: 'NOT_FOUND' } });
    expect((await fetch(`http://127.0.0.1:${metricsServer.port}/`)).status).toBe(404);
    expect((await fetch(`http://127.0.0.1:${metricsServer.port}/metrics`, { method: 'POST' })).status).toBe(404);
  });
});

describe('the Prometheus sink', () => {
  it('labels a failure by a reason code and keeps their number bounded', async () => {
    const { metrics, registry } = createPrometheusMetrics({ pools: {} });
    metrics.movement('PAYOUT', 'FAILED', 'EUR', '10.50', 'Beneficiary account closed');
    for (let n = 0; n < 80; n++) metrics.movement('PAYOUT', 'FAILED', 'EUR', '1', `reason ${n}`);
    metrics.transactionRetry('40P01');
    metrics.processFailure('unhandledRejection');
    const text = await registry.metrics();
    expect(sample(text, 'payroll_payouts_failed_total{kind="PAYOUT",currency="EUR",reason="BENEFICIARY_ACCOUNT_CLOSED"}')).toBe(1);
    expect(sample(text, 'payroll_payouts_failed_total{kind="PAYOUT",currency="EUR",reason="OTHER"}')).toBe(31);
    expect(sample(text, 'payroll_db_transaction_retries_total{sqlstate="40P01"}')).toBe(1);
    expect(sample(text, 'payroll_process_failures_total{kind="unhandledRejection"}')).toBe(1);
  });
});

describe('docs/operations.md and docs/grafana-dashboard.json', () => {
  it('name only metrics the service exports, and the guide lists every one of ours', async () => {
    const { registry } = createPrometheusMetrics({ pools: {}, backlog: async () => ({ items: [], failingEndpoints: 0, bankExceptions: [] }) });
    const exported = new Set([...(await registry.metrics()).matchAll(/^# HELP (\S+)/gm)].map((match) => match[1]!));
    const guide = readFileSync(inRepo('docs/operations.md'), 'utf8');
    const dashboard = readFileSync(inRepo('docs/grafana-dashboard.json'), 'utf8');
    const named = (text: string) =>
      new Set([...text.matchAll(/\b((?:payroll|nodejs|process)_[a-z0-9_]+)/g)].map((match) => match[1]!.replace(/_(bucket|count|sum)$/, '')));
    for (const name of [...named(guide), ...named(dashboard)].filter((candidate) => !candidate.startsWith('payroll_fee')))
      expect(exported, name).toContain(name);
    for (const name of [...exported].filter((candidate) => candidate.startsWith('payroll_'))) expect(guide, name).toContain(`\`${name}\``);
  });
});
