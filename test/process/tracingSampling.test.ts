// Tracing at its default sampling, on the real service started as `npm start` starts it: a request
// whose caller sampled its trace is traced whole (HTTP → use case → SQL), one whose caller did not
// leaves no span at all, and about one request in twenty without a traceparent is traced.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signAccessToken } from '../../src/http/access/tokens.js';
import { ids } from '../fixtures/world.js';
import { type FreshDatabase, freshDatabase } from '../support/database.js';
import { type ExportedSpan, type OtlpReceiver, otlpReceiver } from '../support/otlp.js';
import { payrollBodies } from '../support/payroll.js';
import { type Service, freePort, killLeftovers, startService, stop } from '../support/processes.js';
import { testConfig } from '../support/server.js';

let receiver: OtlpReceiver;
let spans: ExportedSpan[];
let database: FreshDatabase;
let service: Service;
let api: string;
let token: string;

beforeAll(async () => {
  receiver = await otlpReceiver();
  spans = receiver.spans;
  database = await freshDatabase();
  const port = await freePort();
  api = `http://127.0.0.1:${port}`;
  const env = {
    DATABASE_URL: database.url,
    WORLD_FILE: '',
    OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
    OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
    OTEL_BSP_SCHEDULE_DELAY: '100',
  };
  service = startService(port, env, ['--import', './dist/server/src/observability/preload.js']);
  await service.listening;
  token = await signAccessToken(testConfig.jwt, ids.userA, 600);
}, 120_000);

afterAll(async () => {
  if (service) await stop(service.child);
  killLeftovers();
  await receiver?.close();
  await database?.drop();
});

const newTraceId = () => randomBytes(16).toString('hex');
const traceparent = (traceId: string, sampled: boolean) => `00-${traceId}-${randomBytes(8).toString('hex')}-${sampled ? '01' : '00'}`;

async function estimate(headers: Record<string, string> = {}): Promise<void> {
  const response = await fetch(`${api}/v1/customers/payroll/estimate`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', ...headers },
    body: JSON.stringify(payrollBodies([{ beneficiaryId: ids.beneficiaryA1, amount: '1000.00' }]).estimate),
  });
  expect(response.status).toBe(200);
}

const spansOf = (traceId: string, until: (trace: ExportedSpan[]) => boolean) => receiver.spansOf(traceId, until);

/** Whether `span` is `ancestor` or below it. */
function under(trace: ExportedSpan[], span: ExportedSpan, ancestor: ExportedSpan): boolean {
  const byId = new Map(trace.map((candidate) => [candidate.spanId, candidate]));
  for (let at: ExportedSpan | undefined = span; at; at = at.parentSpanId ? byId.get(at.parentSpanId) : undefined) if (at === ancestor) return true;
  return false;
}

describe('tracing at the default sampling', () => {
  it('traces a request whose caller sampled its trace whole, and leaves no span of one the caller did not sample', async () => {
    const unsampled = Array.from({ length: 5 }, newTraceId);
    for (const traceId of unsampled) await estimate({ traceparent: traceparent(traceId, false) });
    const sampled = newTraceId();
    await estimate({ traceparent: traceparent(sampled, true) });

    const trace = await spansOf(sampled, (found) => found.some((span) => span.name.startsWith('pg.query:')));
    const server = trace.find((span) => span.name === 'estimatePayrollFee');
    const useCase = trace.find((span) => span.name === 'usecase estimatePayrollFee');
    expect(server, JSON.stringify(trace.map((span) => span.name))).toBeDefined();
    expect(useCase && under(trace, useCase, server!)).toBe(true);
    const sql = trace.filter((span) => span.name.startsWith('pg.query:'));
    expect(sql.length).toBeGreaterThan(0);
    for (const statement of sql) expect(under(trace, statement, server!)).toBe(true);
    // The sampled request came last, and its spans were exported: the others' would have been too.
    expect(spans.filter((span) => unsampled.includes(span.traceId))).toEqual([]);
  }, 120_000);

  it('traces about one request in twenty of those that come without a traceparent', async () => {
    const before = new Set(spans.filter((span) => span.name === 'estimatePayrollFee').map((span) => span.traceId));
    for (let n = 0; n < 400; n++) await estimate();
    const flush = newTraceId();
    await estimate({ traceparent: traceparent(flush, true) });
    await spansOf(flush, (found) => found.some((span) => span.name === 'estimatePayrollFee'));
    const traced = spans.filter((span) => span.name === 'estimatePayrollFee' && span.traceId !== flush && !before.has(span.traceId));
    // One in twenty of 400 is 20; below 5 or above 45 happens by chance less than once in 10,000 runs.
    expect(traced.length).toBeGreaterThanOrEqual(5);
    expect(traced.length).toBeLessThanOrEqual(45);
  }, 120_000);
});
