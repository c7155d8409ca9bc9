/**
 * A customer's account row held by another transaction: an idempotent creation waiting on it
 * answers 503 with Retry-After once the lock wait runs out (not IDEMPOTENCY_KEY_IN_PROGRESS), its
 * key released with everything else, so that the same key succeeds once the row is free.
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPayrollClient } from '../../packages/client/src/index.js';
import { loadConfig } from '../../src/config/config.js';
import { signAccessToken } from '../../src/http/access/tokens.js';
import { PostgresDatabase } from '../../src/store/database/postgres.js';
import { ids } from '../fixtures/world.js';
import { type FreshDatabase, freshDatabase } from '../support/database.js';
import type { Listening } from '../support/http.js';
import { payrollBodies } from '../support/payroll.js';
import { settlesWithin, waitFor } from '../support/polling.js';
import { TEST_ENV, serveApp, testConfig } from '../support/server.js';

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

/** How many of the database's sessions wait on a lock now. */
async function lockWaiters(): Promise<number> {
  const [row] = await db.query<{ n: number }>(
    "SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'",
  );
  return row!.n;
}

describe("one customer's locked account", () => {
  // The p99 of the other customer's reads against their idle p99 is the benchmark's (bench/bulkhead.ts):
  // here, the behaviour. Creations wait on the lock for as long as the row is held, and in the bulkhead
  // for as long as the test needs, so that nothing but the bulkhead can free a connection for the reads.
  const patient = loadConfig({ ...TEST_ENV, CUSTOMER_WRITE_WAIT_MS: '600000' });
  let patientDb: PostgresDatabase;
  let patientApp: Listening;
  beforeAll(async () => {
    patientDb = await PostgresDatabase.open(fresh.url, { session: { ...session, lockTimeoutMs: 600_000 }, maxConnections: 5 });
    patientApp = await serveApp(patient, patientDb);
  });
  afterAll(async () => {
    await patientApp?.close();
    await patientDb?.close();
  });

  it("holds at most its share of the pool: another customer's reads are answered while its creations wait", async () => {
    const token = (userId: string) => () => signAccessToken(patient.jwt, userId, 600);
    const client = createPayrollClient({ baseUrl: patientApp.url, token: token(ids.userA) });
    const neighbour = createPayrollClient({ baseUrl: patientApp.url, token: token(ids.userB) });
    const bodies = payrollBodies([{ beneficiaryId: ids.beneficiaryA2, amount: '10.00', amountCurrencyType: 'PAYROLL' }]);
    const feeHashes: string[] = [];
    for (let i = 0; i < 20; i++) feeHashes.push((await client.POST('/v1/customers/payroll/estimate', { body: bodies.estimate })).data!.data.feeHash);
    const share = patient.customerWrites.concurrent;

    const held = await holdAccountRow(ids.acAUsd);
    let answered = 0;
    let creations: Promise<number[]> | undefined;
    try {
      creations = Promise.all(
        feeHashes.map(async (feeHash) => {
          const { response } = await client.POST('/v1/customers/payroll/requests', { body: bodies.create(feeHash) });
          answered += 1;
          return response.status;
        }),
      );
      await waitFor("A's creations waiting on its account", lockWaiters, (waiting) => waiting >= share);
      // A hang bound: without the bulkhead the creations take every connection until the row is released.
      const reads = await settlesWithin(
        "the other customer's reads",
        Promise.all(Array.from({ length: 10 }, async () => (await neighbour.GET('/v1/customers/accounts')).response.status)),
        10_000,
      );
      expect(reads).toEqual(Array(10).fill(200));
      expect(answered, 'no creation answered while the row is held').toBe(0);
      expect(await lockWaiters(), 'only its share of the pool waits on the lock').toBe(share);
    } finally {
      await held.release();
    }
    const statuses = await creations;
    expect(statuses).toEqual(Array(feeHashes.length).fill(201));
  });
});
