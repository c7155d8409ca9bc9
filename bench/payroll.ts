/**
 * The main job, whole, as a customer runs it: one payroll of `count` lines from its CSV estimate to
 * COMPLETED, through the real API, the in-process worker and an instant simulated bank
 * (SIMULATED_SETTLEMENT_MS=0). The world carries each beneficiary's IBAN, bank, nationality and
 * reference; the CSV file names them by reference, every fifth amount in the payroll currency; the
 * admin sends the FX record as soon as the request is accepted and again every 0.25 s while it is
 * refused (the legs still running), as the API allows; every answer is read whole. Each phase is
 * timed from outside; the server's RSS and the database's PSS are sampled throughout. COMPLETED is
 * seen on the summaries list.
 */
import { log, outcome } from './load.js';
import { memorySampler } from './processes.js';
import { mbOf } from './report.js';
import { benchIds, payrollCsvBody } from './world.js';

export interface PayrollFigures {
  lines: number;
  /** The request it made (COMPLETED): the slow readers read it. */
  requestId: string;
  /** Milliseconds per phase, answer read whole (the worker's phases: until the status shows it). */
  estimateMs: number;
  createMs: number;
  quoteMs: number;
  acceptMs: number;
  /** Accepted → the FX record that was taken sent: the legs done (within the retry interval). */
  legsMs: number;
  /** The FX record that was taken, answered whole. */
  fxRecordMs: number;
  /** FX records sent (the refused retries while the legs ran, and the one taken). */
  fxAttempts: number;
  /** The FX record answered → the request COMPLETED: every payout submitted, settled, booked. */
  payoutsMs: number;
  /** The FX record that was taken sent → COMPLETED (fxRecordMs + payoutsMs). */
  fxToCompletedMs: number;
  totalMs: number;
  nodeRssMb: number;
  databasePssMb: number;
  /** The server's peak RSS in each phase (the kernel's high-water mark, reset at each). */
  nodeRssByPhaseMb: Record<'seeding' | 'estimate' | 'create' | 'quoteAccept' | 'legsFx' | 'payouts', number>;
}

interface Session {
  base: string;
  pid: number;
  externalName: string | undefined;
  customerToken: string;
  adminToken: string;
  /** The server's peak RSS from its start to ready (the world seeded). */
  seedingRssKb: number;
}

/** How often the admin's client sends the FX record again while the API refuses it. */
const FX_RETRY_MS = 250;

const QUOTE_RATE = '3.6630';

async function call(
  session: Session,
  token: string,
  path: string,
  init: RequestInit = {},
  refusedAre: number[] = [],
): Promise<{ ms: number; text: string; status: number }> {
  const started = performance.now();
  const response = await fetch(`${session.base}${path}`, { ...init, headers: { authorization: `Bearer ${token}`, ...init.headers } });
  const text = await response.text();
  const ms = performance.now() - started;
  if (refusedAre.includes(response.status)) return { ms, text, status: response.status };
  if (response.status >= 300) {
    outcome.failed = true;
    throw new Error(`${init.method ?? 'GET'} ${path}: ${response.status} ${text.slice(0, 500)}`);
  }
  return { ms, text, status: response.status };
}

/** The admin's FX record, sent again every FX_RETRY_MS while the request's state refuses it (409) or the database did not answer in time (503). */
async function fxRecordWithRetries(session: Session, id: string): Promise<{ ms: number; attempts: number; sentAfterMs: number }> {
  const started = performance.now();
  for (let attempts = 1; ; attempts++) {
    const sent = performance.now();
    const answer = await call(
      session,
      session.adminToken,
      `/v1/admin/payroll/requests/${id}/fx-exchange`,
      { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ exchangeRate: QUOTE_RATE }) },
      [409, 503],
    );
    if (answer.status !== 409 && answer.status !== 503) return { ms: answer.ms, attempts, sentAfterMs: sent - started };
    // 503: nothing was changed (a lock or statement timeout), so the client sends it again at its next retry.
    if (answer.status === 503) log(`FX record answered 503 after ${Math.round(answer.ms)} ms (attempt ${attempts}); sent again`);
    if (performance.now() - started > 900_000) throw new Error('the FX record was still refused after 900 s');
    await new Promise((resolve) => setTimeout(resolve, FX_RETRY_MS));
  }
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
  const rssKb: Record<string, number> = { seeding: session.seedingRssKb };
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
  const accept = await call(session, customer, `/v1/customers/payroll/requests/${id}/accept`, { method: 'POST' });
  rssKb.quoteAccept = memory.phase();
  const fxStarted = performance.now();
  const fx = await fxRecordWithRetries(session, id);
  rssKb.legsFx = memory.phase();
  const payoutsMs = await until('COMPLETED', async () => {
    const page = JSON.parse((await call(session, customer, '/v1/customers/payroll/requests?limit=1')).text) as {
      data: { items: Array<{ id: string; status: string }> };
    };
    const status = page.data.items[0]?.id === id ? page.data.items[0].status : undefined;
    if (status && ['FAILED', 'PARTIALLY_COMPLETED'].includes(status)) throw new Error(`payroll-${lines}: ended ${status}`);
    return status === 'COMPLETED';
  });
  const fxToCompletedMs = performance.now() - fxStarted - fx.sentAfterMs;
  rssKb.payouts = memory.phase();
  const peak = memory.peak();
  memory.stop();
  const ms = (value: number) => Math.round(value);
  const figures: PayrollFigures = {
    lines,
    requestId: id,
    estimateMs: ms(estimate.ms),
    createMs: ms(create.ms),
    quoteMs: ms(quote.ms),
    acceptMs: ms(accept.ms),
    legsMs: ms(fx.sentAfterMs),
    fxRecordMs: ms(fx.ms),
    fxAttempts: fx.attempts,
    payoutsMs: ms(payoutsMs),
    fxToCompletedMs: ms(fxToCompletedMs),
    totalMs: ms(performance.now() - started),
    nodeRssMb: mbOf(peak.nodeRssKb),
    databasePssMb: mbOf(peak.databasePssKb),
    nodeRssByPhaseMb: {
      seeding: mbOf(rssKb.seeding!),
      estimate: mbOf(rssKb.estimate!),
      create: mbOf(rssKb.create!),
      quoteAccept: mbOf(rssKb.quoteAccept!),
      legsFx: mbOf(rssKb.legsFx!),
      payouts: mbOf(rssKb.payouts!),
    },
  };
  log(`payroll-${lines}: ${JSON.stringify(figures)}`);
  return figures;
}
