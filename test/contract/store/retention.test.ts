/**
 * Retention, so that fee estimates, idempotency keys and events do not grow forever. The worker's retention pass deletes unused estimates an hour after they expire, keys 24 hours
 * after their first use and events 30 days old once no delivery of theirs is still retried, in
 * batches; payroll requests, splits, transfers, payouts and the ledger are never deleted. The clock
 * is the test server's, moved by hand.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Purged, purgeExpiredData } from '../../../src/usecases/operations/retention.js';
import { ids } from '../../fixtures/world.js';
import { count } from '../../reliability/api.js';
import { estimateAndCreate, payrollBodies } from '../../support/payroll.js';
import { type TestServer, startTestServer, testConfig } from '../../support/server.js';

let server: TestServer;
beforeAll(async () => (server = await startTestServer()));
afterAll(() => server.close());

const customer = () => server.as(ids.userA);
const purge = (batch?: number): Promise<Purged> => purgeExpiredData({ db: server.db, clock: server.clock.now, config: testConfig }, batch);
const HOUR = 3600;

/** Row counts of what is never deleted. */
async function permanentRows(): Promise<Record<string, number>> {
  const tables = ['payroll_requests', 'amount_splits', 'transfers', 'payouts', 'ledger_entries', 'fx_exchanges'];
  return Object.fromEntries(await Promise.all(tables.map(async (table) => [table, await count(server.db, `SELECT count(*) AS n FROM ${table}`)] as const)));
}

async function payoutEstimate(): Promise<string> {
  const { data } = await customer().GET('/v1/accounts/{accountId}/payouts/estimate', {
    params: { path: { accountId: ids.accountAUsd }, query: { amount: '25.00', currency: 'USD', beneficiaryId: ids.beneficiaryA3 } },
  });
  return data!.data.feeHash!;
}

describe('the retention pass of the worker', () => {
  it('deletes each kind after its window, in batches, and never what is kept for good', async () => {
    // An endpoint no one answers: the deliveries of payroll request events stay PENDING.
    const endpoint = await customer().POST('/v1/customers/webhook-endpoints', {
      body: { url: 'https://hooks.payroll.example/in', eventTypes: ['payroll_request.status_changed'] },
    });
    expect(endpoint.response.status).toBe(201);
    const unused = await customer().POST('/v1/customers/payroll/estimate', {
      body: payrollBodies([{ beneficiaryId: ids.beneficiaryA2, amount: '10' }]).estimate,
    });
    expect(unused.response.status).toBe(200);
    const { created } = await estimateAndCreate(customer(), [{ beneficiaryId: ids.beneficiaryA1, amount: '20' }], { idempotencyKey: 'retention-create' });
    expect(created.response.status).toBe(201);
    await payoutEstimate(); // never used
    const payout = await customer().POST('/v1/accounts/{accountId}/payouts', {
      params: { path: { accountId: ids.accountAUsd } },
      body: { feeHash: await payoutEstimate(), beneficiaryId: ids.beneficiaryA3, amount: '25.00', currency: 'USD' },
    });
    expect(payout.response.status, JSON.stringify(payout.error)).toBe(201);
    const kept = await permanentRows();
    const estimates = async () =>
      (await count(server.db, 'SELECT count(*) AS n FROM payroll_fee_estimates')) + (await count(server.db, 'SELECT count(*) AS n FROM payout_fee_estimates'));
    const estimatesAtStart = await estimates();

    // Expired 1 minute ago (feeHashes live 15 minutes): kept for the hour after expiry.
    server.clock.advance(16 * 60);
    expect(await purge()).toEqual({ feeEstimates: 0, idempotencyKeys: 0, events: 0 });
    // Two hours on: the unused payroll and payout estimates go; the used ones stay.
    server.clock.advance(2 * HOUR);
    expect(await purge()).toEqual({ feeEstimates: 2, idempotencyKeys: 0, events: 0 });
    expect(await estimates()).toBe(estimatesAtStart - 2);
    expect(await count(server.db, 'SELECT count(*) AS n FROM payroll_fee_estimates WHERE fee_hash = $1', [unused.data!.data.feeHash])).toBe(0);
    // Past 24 hours: the Idempotency-Key goes (it replayed until then), and the answer it kept with it.
    // (The answer, of any size, is kept in the key's row.)
    expect(await count(server.db, "SELECT count(*) AS n FROM idempotency_keys WHERE key = 'retention-create' AND response_data IS NOT NULL")).toBe(1);
    server.clock.advance(22 * HOUR);
    expect(await purge()).toEqual({ feeEstimates: 0, idempotencyKeys: 1, events: 0 });
    expect(await count(server.db, "SELECT count(*) AS n FROM idempotency_keys WHERE key = 'retention-create'")).toBe(0);
    // Past 30 days: the payout's event (no delivery) goes; the request's event waits for its delivery to end.
    server.clock.advance(30 * 24 * HOUR);
    expect(await purge()).toEqual({ feeEstimates: 0, idempotencyKeys: 0, events: 1 });
    expect(await count(server.db, "SELECT count(*) AS n FROM events WHERE type = 'payroll_request.status_changed'")).toBe(1);
    // Once the delivery is over (abandoned after its retries), the event goes with it and its attempts.
    const [delivery] = await server.db.query<{ id: string }>("UPDATE webhook_deliveries SET status = 'ABANDONED', next_attempt_at = NULL RETURNING id");
    await server.db.query('INSERT INTO webhook_delivery_attempts (delivery_id, attempted_at, status_code, duration_ms, error) VALUES ($1, $2, NULL, 5, $3)', [
      delivery!.id,
      server.clock.now(),
      'connection failed',
    ]);
    expect(await purge()).toEqual({ feeEstimates: 0, idempotencyKeys: 0, events: 1 });
    for (const table of ['events', 'webhook_deliveries', 'webhook_delivery_attempts'])
      expect(await count(server.db, `SELECT count(*) AS n FROM ${table}`), table).toBe(0);
    expect(await permanentRows()).toEqual(kept);
  });

  it('deletes in batches of the given size, oldest first', async () => {
    const hashes: string[] = [];
    for (const amount of ['1', '2', '3']) {
      const { data } = await customer().POST('/v1/customers/payroll/estimate', {
        body: payrollBodies([{ beneficiaryId: ids.beneficiaryA2, amount }]).estimate,
      });
      hashes.push(data!.data.feeHash);
      server.clock.advance(1);
    }
    server.clock.advance(2 * HOUR);
    expect((await purge(2)).feeEstimates).toBe(2);
    expect(await server.db.query('SELECT fee_hash FROM payroll_fee_estimates WHERE fee_hash = ANY($1::text[])', [hashes])).toEqual([{ fee_hash: hashes[2] }]);
    expect((await purge(2)).feeEstimates).toBe(1);
    expect((await purge(2)).feeEstimates).toBe(0);
  });
});
