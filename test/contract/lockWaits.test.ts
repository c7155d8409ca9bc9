/**
 * A customer's account row held by another transaction: an idempotent creation waiting on it
 * answers 503 with Retry-After once the lock wait runs out (not IDEMPOTENCY_KEY_IN_PROGRESS), its
 * key released with everything else, so that the same key succeeds once the row is free.
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPayrollClient } from '../../packages/client/src/index.js';
import { signAccessToken } from '../../src/http/tokens.js';
import { PostgresDatabase } from '../../src/store/postgres.js';
import { ids } from '../fixtures/world.js';
import { type FreshDatabase, freshDatabase } from '../support/database.js';
import type { Listening } from '../support/http.js';
import { payrollBodies } from '../support/payroll.js';
import { serveApp, testConfig } from '../support/server.js';

const session = {
  connectTimeoutMs: 5000,
  poolWaitMs: 30_000,
  statementTimeoutMs: 30_000,
  lockTimeoutMs: 3000,
  idleInTransactionTimeoutMs: 30_000,
  keepAliveMs: 10_000,
  workMemMb: 4,
};
let fresh: FreshDatabase;
let db: PostgresDatabase;
let app: Listening;

beforeAll(async () => {
  fresh = await freshDatabase();
  db = await PostgresDatabase.open(fresh.url, { session, maxConnections: 5 });
  app = await serveApp(testConfig, db);
});
afterAll(async () => {
  await app?.close();
  await db?.close();
  await fresh?.drop();
});

const customerA = () => createPayrollClient({ baseUrl: app.url, token: () => signAccessToken(testConfig.jwt, ids.userA, 600) });

/** Another session holding customer A's USD account currency row until `release` is called. */
async function holdAccountRow(accountCurrencyId: string): Promise<{ release: () => Promise<void> }> {
  const holder = new pg.Client({ connectionString: fresh.url });
  await holder.connect();
  await holder.query('BEGIN');
  await holder.query('SELECT id FROM account_currencies WHERE id = $1 FOR UPDATE', [accountCurrencyId]);
  return {
    release: async () => {
      await holder.query('ROLLBACK');
      await holder.end();
    },
  };
}

describe('a lock wait inside an idempotent operation', () => {
  it('answers 503 with Retry-After and releases the key: the same key then succeeds', async () => {
    const client = customerA();
    const bodies = payrollBodies([{ beneficiaryId: ids.beneficiaryA1, amount: '100.00', amountCurrencyType: 'PAYROLL' }]);
    const estimated = await client.POST('/v1/customers/payroll/estimate', { body: bodies.estimate });
    expect(estimated.response.status).toBe(200);
    const create = () =>
      client.POST('/v1/customers/payroll/requests', { body: bodies.create(estimated.data!.data.feeHash), idempotencyKey: 'lock-wait-key-1' });

    const held = await holdAccountRow(ids.acAUsd);
    let waited;
    try {
      waited = await create();
    } finally {
      await held.release();
    }
    expect(waited.response.status).toBe(503);
    expect(waited.error!.error.code).toBe('SERVICE_UNAVAILABLE');
    expect(Number(waited.response.headers.get('retry-after'))).toBeGreaterThan(0);

    const retried = await create();
    expect(retried.response.status, JSON.stringify(retried.error)).toBe(201);
    const replayed = await create();
    expect(replayed.response.status).toBe(201);
    expect(replayed.data!.data.id).toBe(retried.data!.data.id);
  });
});

/** The 99th percentile of `count` sequential calls' durations, in milliseconds. */
async function p99(count: number, call: () => Promise<unknown>): Promise<number> {
  const durations: number[] = [];
  for (let i = 0; i < count; i++) {
    const started = performance.now();
    await call();
    durations.push(performance.now() - started);
  }
  durations.sort((a, b) => a - b);

  return durations[Math.ceil(count * 0.99) - 1]!;
}

describe("one customer's locked account", () => {
  it("holds at most its share of the pool: another customer's reads stay within 2x their idle p99", async () => {
    const client = customerA();
    const neighbour = createPayrollClient({ baseUrl: app.url, token: () => signAccessToken(testConfig.jwt, ids.userB, 600) });
    const bodies = payrollBodies([{ beneficiaryId: ids.beneficiaryA2, amount: '10.00', amountCurrencyType: 'PAYROLL' }]);
    const feeHashes: string[] = [];
    for (let i = 0; i < 20; i++) feeHashes.push((await client.POST('/v1/customers/payroll/estimate', { body: bodies.estimate })).data!.data.feeHash);
    const read = async () => expect((await neighbour.GET('/v1/customers/accounts')).response.status).toBe(200);
    await p99(10, read);
    const idle = await p99(100, read);

    const held = await holdAccountRow(ids.acAUsd);
    let creations: Promise<number[]> | undefined;
    let busy: number;
    try {
      creations = Promise.all(
        feeHashes.map(async (feeHash) => (await client.POST('/v1/customers/payroll/requests', { body: bodies.create(feeHash) })).response.status),
      );
      await new Promise((resolve) => setTimeout(resolve, 1000));
      busy = await p99(100, read);
    } finally {
      await held.release();
    }
    const statuses = await creations;
    // Each creation either ran once the row was free or waited past the lock timeout (503).
    expect(statuses.every((status) => status === 201 || status === 503)).toBe(true);
    // A floor of 200 ms: idle reads take a few milliseconds, and on a shared machine scheduling
    // noise alone is of that size. Without the bulkhead every read waits for a pool connection
    // until a creation's lock wait runs out: seconds.
    expect(busy, `idle p99 ${idle.toFixed(1)} ms, with A's account locked ${busy.toFixed(1)} ms`).toBeLessThanOrEqual(Math.max(2 * idle, 200));
  });
});
