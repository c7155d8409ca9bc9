/**
 * The main job, whole: one payroll of `count` lines from its CSV estimate to COMPLETED, through the
 * real API, the in-process worker and an instant simulated bank (SIMULATED_SETTLEMENT_MS=0). Each
 * phase is timed from outside; the server's RSS and the database's PSS are sampled throughout.
 * Progress is read from the summaries list and the transfers' first page, never from the whole
 * request (a 100,000-line request is megabytes).
 */
import { log, outcome } from './load.js';
import { memorySampler } from './processes.js';
import { mbOf } from './report.js';
import { benchIds, payrollCsvBody } from './world.js';

export interface PayrollFigures {
  lines: number;
  /** Milliseconds per phase, answer read whole (the worker's phases: until the status shows it). */
  estimateMs: number;
  createMs: number;
  quoteMs: number;
  acceptMs: number;
  /** Accepted → both source-currency legs COMPLETED (the worker's debit and move to the payroll bank). */
  legsMs: number;
  fxRecordMs: number;
  /** The FX record answered → the request COMPLETED: every payout submitted, settled, booked. */
  payoutsMs: number;
  /** The FX record sent → COMPLETED (fxRecordMs + payoutsMs). */
  fxToCompletedMs: number;
  totalMs: number;
  nodeRssMb: number;
  databasePssMb: number;
}

interface Session {
  base: string;
  pid: number;
  externalName: string | undefined;
  customerToken: string;
  adminToken: string;
}

const QUOTE_RATE = '3.6630';

async function call(session: Session, token: string, path: string, init: RequestInit = {}): Promise<{ ms: number; text: string }> {
  const started = performance.now();
  const response = await fetch(`${session.base}${path}`, { ...init, headers: { authorization: `Bearer ${token}`, ...init.headers } });
  const text = await response.text();
  const ms = performance.now() - started;
  if (response.status >= 300) {
    outcome.failed = true;
    throw new Error(`${init.method ?? 'GET'} ${path}: ${response.status} ${text.slice(0, 500)}`);
  }
  return { ms, text };
}

/** The answer's data id without parsing megabytes: every request answer starts with its returnedAmount and id. */
const idOf = (text: string): string => /"id":"([0-9a-f-]{36})"/.exec(text.slice(0, 400))![1]!;

async function until(what: string, probe: () => Promise<boolean>, timeoutMs = 900_000): Promise<number> {
  const started = performance.now();
  while (!(await probe())) {
    if (performance.now() - started > timeoutMs) throw new Error(`${what}: not within ${timeoutMs / 1000} s`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  return performance.now() - started;
}

export async function payrollLifecycle(session: Session, lines: number): Promise<PayrollFigures> {
  const memory = memorySampler(session.pid, session.externalName);
  const csv = payrollCsvBody(lines);
  const pair = `sourceAccountCurrencyId=${benchIds.acUsd}&payrollAccountCurrencyId=${benchIds.acPartnerAed}`;
  const asCsv = { 'content-type': 'text/csv' };
  const json = { 'content-type': 'application/json' };
  const { customerToken: customer, adminToken: admin } = session;
  const rssKb: Record<string, number> = {};
  const started = performance.now();
  const estimate = await call(session, customer, `/v1/customers/payroll/estimate?${pair}`, { method: 'POST', headers: asCsv, body: csv });
  rssKb.estimate = memory.phase();
  const feeHash = /"feeHash":"([^"]+)"/.exec(estimate.text)![1]!;
  const create = await call(session, customer, `/v1/customers/payroll/requests?${pair}&feeHash=${encodeURIComponent(feeHash)}`, {
    method: 'POST',
    headers: asCsv,
    body: csv,
  });
  rssKb.create = memory.phase();
  const id = idOf(create.text);
  const expiresAt = new Date(Date.now() + 3600_000).toISOString();
  const quote = await call(session, admin, `/v1/admin/payroll/requests/${id}/quote`, {
    method: 'POST',
    headers: json,
    body: JSON.stringify({ exchangeRate: QUOTE_RATE, expiresAt }),
  });
  rssKb.quote = memory.phase();
  const accept = await call(session, customer, `/v1/customers/payroll/requests/${id}/accept`, { method: 'POST' });
  rssKb.accept = memory.phase();
  const legsMs = await until('the debit and the move to the payroll bank', async () => {
    const page = JSON.parse((await call(session, customer, `/v1/customers/payroll/requests/${id}/transfers?limit=2`)).text) as {
      data: { items: Array<{ status: string }> };
    };
    return page.data.items.length === 2 && page.data.items.every((item) => item.status === 'COMPLETED');
  });
  rssKb.legs = memory.phase();
  const fxStarted = performance.now();
  const fx = await call(session, admin, `/v1/admin/payroll/requests/${id}/fx-exchange`, {
    method: 'POST',
    headers: json,
    body: JSON.stringify({ exchangeRate: QUOTE_RATE }),
  });
  rssKb.fxRecord = memory.phase();
  const payoutsMs = await until('COMPLETED', async () => {
    const page = JSON.parse((await call(session, customer, '/v1/customers/payroll/requests?limit=1')).text) as {
      data: { items: Array<{ id: string; status: string }> };
    };
    const status = page.data.items[0]?.id === id ? page.data.items[0].status : undefined;
    if (status && ['FAILED', 'PARTIALLY_COMPLETED'].includes(status)) throw new Error(`payroll-${lines}: ended ${status}`);
    return status === 'COMPLETED';
  });
  const fxToCompletedMs = performance.now() - fxStarted;
  rssKb.payouts = memory.phase();
  const peak = memory.peak();
  memory.stop();
  const ms = (value: number) => Math.round(value);
  const figures: PayrollFigures = {
    lines,
    estimateMs: ms(estimate.ms),
    createMs: ms(create.ms),
    quoteMs: ms(quote.ms),
    acceptMs: ms(accept.ms),
    legsMs: ms(legsMs),
    fxRecordMs: ms(fx.ms),
    payoutsMs: ms(payoutsMs),
    fxToCompletedMs: ms(fxToCompletedMs),
    totalMs: ms(performance.now() - started),
    nodeRssMb: mbOf(peak.nodeRssKb),
    databasePssMb: mbOf(peak.databasePssKb),
  };
  log(`payroll-${lines}: ${JSON.stringify(figures)}`);
  log(
    `payroll-${lines}: node peak RSS MB by phase: ${Object.entries(rssKb)
      .map(([phase, kb]) => `${phase} ${mbOf(kb)}`)
      .join(', ')}`,
  );
  return figures;
}
