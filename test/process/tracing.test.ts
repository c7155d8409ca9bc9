// Traces (OTEL_EXPORTER_OTLP_ENDPOINT) from the real service started as `npm start` starts it (the
// preload, then src/main.ts), exported over OTLP/HTTP to a receiver in this test: a request's server
// span is named by its operationId, the use case's span is under it and the SQL under that; its log
// lines carry its request id and trace id; nothing exported, a whole payroll's included, carries a
// query string or a value that identifies a person. Unset, the SDK is not even loaded.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signAccessToken } from '../../src/http/access/tokens.js';
import { ids } from '../fixtures/world.js';
import { inRepo } from '../support/build.js';
import { type FreshDatabase, freshDatabase } from '../support/database.js';
import { type ExportedSpan, type OtlpReceiver, otlpReceiver } from '../support/otlp.js';
import { pollUntil, waitFor } from '../support/polling.js';
import { payrollBodies } from '../support/payroll.js';
import { type Service, freePort, killLeftovers, startService, stop } from '../support/processes.js';
import { testConfig } from '../support/server.js';

const PRELOAD = ['--import', './dist/server/src/observability/preload.js'];

let receiver: OtlpReceiver;
let spans: ExportedSpan[];
let database: FreshDatabase;
let service: Service;
let api: string;
let metricsPort: number;

beforeAll(async () => {
  receiver = await otlpReceiver();
  spans = receiver.spans;
  database = await freshDatabase();
  const port = await freePort();
  metricsPort = await freePort();
  api = `http://127.0.0.1:${port}`;
  const env = {
    DATABASE_URL: database.url,
    WORLD_FILE: '',
    METRICS_PORT: String(metricsPort),
    OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
    OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
    OTEL_BSP_SCHEDULE_DELAY: '100',
    // The standard sampler variable is respected: every trace here (the default keeps one in twenty).
    OTEL_TRACES_SAMPLER: 'parentbased_always_on',
    OTEL_METRICS_EXPORTER: 'none',
    OTEL_LOGS_EXPORTER: 'none',
    // The whole payroll's simulated legs and payouts settle quickly.
    SIMULATED_SETTLEMENT_MS: '200',
  };
  service = startService(port, env, PRELOAD);
  await service.listening;
}, 120_000);

afterAll(async () => {
  if (service) await stop(service.child);
  killLeftovers();
  await receiver?.close();
  await database?.drop();
});

const spansOf = (traceId: string, until: (trace: ExportedSpan[]) => boolean) => receiver.spansOf(traceId, until);

/** The names of a span's ancestors, nearest first. */
function ancestors(trace: ExportedSpan[], span: ExportedSpan): ExportedSpan[] {
  const byId = new Map(trace.map((candidate) => [candidate.spanId, candidate]));
  const chain: ExportedSpan[] = [];
  for (let parent = span.parentSpanId && byId.get(span.parentSpanId); parent; parent = parent.parentSpanId && byId.get(parent.parentSpanId)) chain.push(parent);
  return chain;
}

const isSql = (span: ExportedSpan) => span.name.startsWith('pg.query:');

describe('tracing with OTEL_EXPORTER_OTLP_ENDPOINT set', () => {
  it('exports the HTTP → use case → SQL chain of a request, its server span named by operationId', async () => {
    const token = await signAccessToken(testConfig.jwt, ids.userA, 600);
    const body = payrollBodies([{ beneficiaryId: ids.beneficiaryA1, amount: '1000.00' }]).estimate;
    const response = await fetch(`${api}/v1/customers/payroll/estimate`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', 'x-request-id': 'trace-test-1' },
      body: JSON.stringify(body),
    });
    expect(response.status).toBe(200);

    const server = await waitFor(
      'the server span of the estimate',
      () => spans.find((span) => span.name === 'estimatePayrollFee'),
      (found) => found !== undefined,
      { deadlineMs: 15_000, everyMs: 100, context: () => JSON.stringify(spans.map((span) => span.name)) },
    );
    expect(server!.kind).toBe(2); // SERVER
    const trace = await spansOf(server!.traceId, (found) => found.some(isSql));
    const useCase = trace.find((span) => span.name === 'usecase estimatePayrollFee');
    expect(useCase, JSON.stringify(trace.map((span) => span.name))).toBeDefined();
    expect(ancestors(trace, useCase!)).toContain(server);
    // Every statement of the request is in its trace; the use case's own (all but the caller's lookup
    // by the authentication, which runs before it) nest under the use case's span.
    const sql = trace.filter(isSql);
    for (const statement of sql) expect(ancestors(trace, statement)).toContain(server);
    const underUseCase = sql.filter((statement) => ancestors(trace, statement).includes(useCase!));
    expect(underUseCase.length).toBeGreaterThan(0);
    expect(sql.length - underUseCase.length).toBeLessThanOrEqual(1);

    // Every log line of the request carries its request id and its trace id. The access log line
    // is written once the answer is sent, and log lines reach stdout in batches: wait for it.
    const linesOfRequest = () => service.stdout.map((line) => JSON.parse(line) as Record<string, unknown>).filter((line) => line.requestId === 'trace-test-1');
    const lines = await waitFor('the log lines of the request', linesOfRequest, (found) => found.some((line) => line.msg === 'request'), {
      deadlineMs: 15_000,
      everyMs: 50,
    });
    for (const line of lines) expect(line.traceId).toBe(server!.traceId);
  }, 120_000);

  it('no exported span carries a query string, a name, an IBAN or an id from a path', async () => {
    const token = await signAccessToken(testConfig.jwt, ids.userA, 600);
    const headers = { authorization: `Bearer ${token}`, 'x-request-id': 'trace-private-1' };
    const count = (name: string) => spans.filter((span) => span.name === name).length;
    const estimatesBefore = count('estimatePayrollFee');
    const searched = await fetch(`${api}/v1/customers/beneficiaries?q=Amal&limit=5`, { headers });
    expect(searched.status).toBe(200);
    const beneficiary = await fetch(`${api}/v1/customers/beneficiaries/${ids.beneficiaryA1}`, { headers });
    expect(beneficiary.status).toBe(200);
    const estimate = await fetch(`${api}/v1/customers/payroll/estimate`, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json' },
      body: JSON.stringify(payrollBodies([{ beneficiaryId: ids.beneficiaryA1, amount: '1234.56' }]).estimate),
    });
    expect(estimate.status).toBe(200);
    const named = ['listBeneficiaries', 'getBeneficiary', 'estimatePayrollFee'];
    const seen = () => named.every((name) => count(name) >= (name === 'estimatePayrollFee' ? estimatesBefore + 1 : 1));
    await pollUntil('the spans of the three requests', seen, {
      deadlineMs: 15_000,
      everyMs: 100,
      context: () => JSON.stringify(spans.map((span) => span.name)),
    });
    const exported = JSON.stringify(spans);
    for (const secret of ['q=Amal', 'Amal', 'AE500261014000000000011', ids.beneficiaryA1, '1234.56']) {
      expect(exported.includes(secret), `an exported span contains ${secret}`).toBe(false);
    }
    const getSpan = spans.find((span) => span.name === 'getBeneficiary')!;
    expect(getSpan.attributes.find((attribute) => attribute.key === 'http.route')?.value.stringValue).toMatch(/beneficiaries\/(:|\{)beneficiaryId/);
  }, 120_000);

  it('serves the metrics on METRICS_PORT and never on the API port', async () => {
    expect((await fetch(`${api}/metrics`)).status).toBe(404);
    const text = await (await fetch(`http://127.0.0.1:${metricsPort}/metrics`)).text();
    expect(text).toMatch(/^payroll_http_request_duration_seconds_count\{operationId="estimatePayrollFee",method="POST",status_class="2xx"\} 2$/m);
    expect(text).toMatch(/^payroll_db_pool_total\{pool="payroll-api"\} [1-9]/m);
    // The simulated providers' own pool, which the estimate's rate lookup went through.
    expect(text).toMatch(/^payroll_db_pool_total\{pool="payroll-providers"\} [1-9]/m);
    expect(text).toMatch(/^payroll_worker_backlog_items\{kind="PAYOUT"\} 0$/m);
  });

  it('a whole payroll, estimate to COMPLETED through the in-process worker: no exported span carries a name, an IBAN, an amount or a query string', async () => {
    const as = async (userId: string) => ({ authorization: `Bearer ${await signAccessToken(testConfig.jwt, userId, 600)}` });
    const [customer, admin] = [await as(ids.userA), await as(ids.admin)];
    const json = { 'content-type': 'application/json' };
    const call = async (headers: Record<string, string>, method: string, path: string, body?: unknown) => {
      const response = await fetch(`${api}${path}`, { method, headers: { ...headers, ...json }, body: body === undefined ? undefined : JSON.stringify(body) });
      return { status: response.status, body: (await response.json()) as { data: { id: string; status: string; feeHash: string } } };
    };
    const bodies = payrollBodies([{ beneficiaryId: ids.beneficiaryA2, amount: '2345.67' }]);
    const estimate = await call(customer, 'POST', '/v1/customers/payroll/estimate', bodies.estimate);
    expect(estimate.status).toBe(200);
    const created = await call(customer, 'POST', '/v1/customers/payroll/requests', bodies.create(estimate.body.data.feeHash));
    expect(created.status).toBe(201);
    const id = created.body.data.id;
    const expiresAt = new Date(Date.now() + 3600_000).toISOString();
    expect((await call(admin, 'POST', `/v1/admin/payroll/requests/${id}/quote`, { exchangeRate: '3.6530', expiresAt })).status).toBe(200);
    expect((await call(customer, 'POST', `/v1/customers/payroll/requests/${id}/accept`)).status).toBe(200);
    const patiently = { deadlineMs: 20_000, everyMs: 100 };
    // The FX record is refused (409) while the worker still moves the source legs.
    const fxRecord = async () => (await call(admin, 'POST', `/v1/admin/payroll/requests/${id}/fx-exchange`, { exchangeRate: '3.6520' })).status;
    await waitFor('the FX record', fxRecord, (status) => status === 200, patiently);
    const newest = async () =>
      (await call(customer, 'GET', '/v1/customers/payroll/requests?limit=1')).body.data as unknown as { items: { id: string; status: string }[] };
    const completed = await waitFor(
      'COMPLETED',
      async () => (await newest()).items[0],
      (item) => item?.status === 'COMPLETED',
      patiently,
    );
    expect(completed?.id).toBe(id);
    const named = ['createPayrollRequest', 'providePayrollQuote', 'acceptPayrollQuote', 'recordFxExchange', 'usecase stepWorkItem', 'rails submitBatch'];
    const missing = () => named.filter((name) => !spans.some((span) => span.name === name));
    await waitFor('the lifecycle spans', missing, (names) => names.length === 0, patiently);
    const exported = JSON.stringify(spans);
    for (const secret of ['Arjun', 'AE290350000410000000022', ids.beneficiaryA2, '2345.67', 'limit=1']) {
      expect(exported.includes(secret), `an exported span contains ${secret}`).toBe(false);
    }
  }, 120_000);
});

describe('tracing with OTEL_EXPORTER_OTLP_ENDPOINT unset', () => {
  const loaded = async (env: NodeJS.ProcessEnv) => {
    const probe =
      "import { createRequire } from 'node:module'; console.log(Object.keys(createRequire(import.meta.url).cache).some((file) => file.includes('@opentelemetry')))";
    const { stdout } = await promisify(execFile)(process.execPath, [...PRELOAD, '--input-type=module', '-e', probe], {
      cwd: inRepo(),
      env: { PATH: process.env.PATH, ...env },
    });
    return stdout.trim();
  };

  it('loads no OpenTelemetry module at all (and does when set)', async () => {
    expect(await loaded({})).toBe('false');
    expect(await loaded({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:9' })).toBe('true');
  });
});
