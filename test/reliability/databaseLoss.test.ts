/**
 * A lost database answers 503 SERVICE_UNAVAILABLE with Retry-After within its bounds, never a 500
 * or a hang, and serving resumes by itself when it returns: refused connections (a server down)
 * within the connection timeout, a black hole (packets dropped) within the statement bound.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PostgresDatabase } from '../../src/store/database/postgres.js';
import { ids } from '../fixtures/world.js';
import { type FreshDatabase, freshDatabase } from '../support/database.js';
import { waitFor } from '../support/polling.js';
import { TcpRelay } from '../support/relay.js';
import { serveApp, testConfig } from '../support/server.js';
import { signAccessToken } from '../../src/http/access/tokens.js';
import type { Listening } from '../support/http.js';

const session = {
  connectTimeoutMs: 1000,
  poolWaitMs: 30_000,
  statementTimeoutMs: 1500,
  lockTimeoutMs: 1000,
  idleInTransactionTimeoutMs: 5000,
  keepAliveMs: 2000,
  workMemMb: 4,
};
let fresh: FreshDatabase;
let relay: TcpRelay;
let db: PostgresDatabase;
let app: Listening;
let token: string;

beforeAll(async () => {
  fresh = await freshDatabase();
  const relayed = await TcpRelay.start(fresh.url, 5432);
  relay = relayed.relay;
  db = await PostgresDatabase.open(relayed.url, { session });
  app = await serveApp(testConfig, db);
  token = await signAccessToken(testConfig.jwt, ids.userA);
});
afterAll(async () => {
  await app?.close();
  await relay?.close();
  await db?.close().catch(() => undefined);
  await fresh?.drop();
});

async function timed(path: string, init: RequestInit = {}) {
  const started = Date.now();
  const response = await fetch(app.url + path, { ...init, headers: { Authorization: `Bearer ${token}`, ...init.headers } });
  const body = (await response.json()) as { success: boolean; error?: { code: string; message: string } };
  return { status: response.status, retryAfter: response.headers.get('retry-after'), body, ms: Date.now() - started };
}

const readPath = `/v1/customers/payroll/requests/${ids.requestACompleted}`;
const estimateBody = JSON.stringify({
  sourceAccountCurrencyId: ids.acAUsd,
  payrollAccountCurrencyId: ids.acPartnerAed,
  amountSplitDetails: [{ beneficiaryId: ids.beneficiaryA1, amount: '100.00', amountCurrencyType: 'PAYROLL' }],
});

/** Serving again: a read answered 200 (a hang bound of 15 s). */
async function untilServing(): Promise<void> {
  await waitFor(
    'serving resumed',
    () => timed(readPath),
    (answer) => answer.status === 200,
    { deadlineMs: 15_000, everyMs: 100 },
  );
}

describe('the database lost', () => {
  it.each(['refuse', 'blackHole'] as const)(
    '%s: 503 SERVICE_UNAVAILABLE with Retry-After, within the bounds; then serving resumes by itself',
    async (fault) => {
      expect((await timed(readPath)).status).toBe(200);
      relay[fault]();
      const bound = fault === 'refuse' ? session.connectTimeoutMs : session.statementTimeoutMs + 1000;
      for (const call of [
        () => timed(readPath),
        () => timed('/v1/customers/payroll/estimate', { method: 'POST', body: estimateBody, headers: { 'Content-Type': 'application/json' } }),
        () => timed('/readyz'),
      ]) {
        const answer = await call();
        expect(answer.status, `${JSON.stringify(answer.body)} after ${answer.ms} ms`).toBe(503);
        expect(answer.body).toEqual({ success: false, error: { code: 'SERVICE_UNAVAILABLE', message: expect.any(String) } });
        expect(Number(answer.retryAfter)).toBeGreaterThan(0);
        // A hang bound, ten times the configured one: without it a request waits on a dropped connection until TCP gives up.
        expect(answer.ms).toBeLessThan(10 * bound);
      }
      relay.restore();
      await untilServing();
    },
    60_000,
  );
});
