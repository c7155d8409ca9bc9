import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { ExecutionDeps } from '../../src/usecases/payroll/execution.js';
import { ids } from '../fixtures/world.js';
import { balancesOf, expectBooksBalanced } from '../support/balances.js';
import { addBeneficiary, closedAccountBeneficiary } from '../support/builders.js';
import type { TestServer } from '../support/server.js';
import { drain, startServerWithWorker } from '../support/worker.js';

let server: TestServer;
let worker: ExecutionDeps;
beforeAll(async () => ({ server, worker } = await startServerWithWorker()));
afterAll(() => server.close());
afterEach(() => expectBooksBalanced(server.db));

const customer = () => server.as(ids.userA);

async function estimateHash(beneficiaryId: string = ids.beneficiaryA1, amount = '100.00') {
  const { data } = await customer().GET('/v1/accounts/{accountId}/payouts/estimate', {
    params: { path: { accountId: ids.accountAUsd }, query: { amount, currency: 'USD', beneficiaryId } },
  });
  return data!.data;
}

const create = (body: { feeHash: string; beneficiaryId?: string; amount?: string; currency?: string }, accountId: string = ids.accountAUsd) =>
  customer().POST('/v1/accounts/{accountId}/payouts', {
    params: { path: { accountId } },
    body: { beneficiaryId: ids.beneficiaryA1, amount: '100.00', currency: 'USD', ...body },
  });

const available = async () => (await balancesOf(server.db, ids.acAUsd)).available;

describe('POST /v1/accounts/{accountId}/payouts and GET …/payouts/{payoutId}', () => {
  it('creates a payout from the feeHash, debits amount plus fees, and the worker completes it', async () => {
    const estimate = await estimateHash();
    const before = await available();
    const created = await create({ feeHash: estimate.feeHash });
    expect(created.response.status).toBe(201);
    // 100 × 0.0025 + 2 = 2.25 → min 3.00; customer A's rule 0.05 + 0.25 = 0.30
    expect(created.data!.data).toMatchObject({
      status: 'PENDING',
      amount: '100.00',
      fee: '3.00',
      internalFee: '0.30',
      totalFee: '3.30',
      totalAmount: '103.30',
      currency: 'USD',
      beneficiaryId: ids.beneficiaryA1,
    });
    expect(before.minus(await available()).toFixed()).toBe('103.3');
    await drain(worker);
    const { data } = await customer().GET('/v1/accounts/{accountId}/payouts/{payoutId}', {
      params: { path: { accountId: ids.accountAUsd, payoutId: created.data!.data.id } },
    });
    expect(data!.data).toMatchObject({ status: 'COMPLETED', externalId: expect.stringMatching(/^SIM-BNK-/), completedAt: expect.any(String) });
  });

  it('a payout that bounces returns the whole total', async () => {
    const closed = await addBeneficiary(customer(), closedAccountBeneficiary('FAIL-X'));
    const before = await available();
    const estimate = await estimateHash(closed);
    const created = await create({ feeHash: estimate.feeHash, beneficiaryId: closed });
    await drain(worker);
    const { data } = await customer().GET('/v1/accounts/{accountId}/payouts/{payoutId}', {
      params: { path: { accountId: ids.accountAUsd, payoutId: created.data!.data.id } },
    });
    expect(data!.data).toMatchObject({ status: 'FAILED', failureReason: 'Beneficiary account closed' });
    expect((await available()).toFixed()).toBe(before.toFixed());
  });

  it('rejects an altered feeHash, another amount, a reuse and an expired hash', async () => {
    const { feeHash } = await estimateHash();
    const last = feeHash.at(-1) === 'A' ? 'B' : 'A';
    const altered = await create({ feeHash: feeHash.slice(0, -1) + last });
    expect(altered.response.status).toBe(400);
    expect(altered.error!.error.code).toBe('FEE_HASH_MISMATCH');
    expect((await create({ feeHash, amount: '100.01' })).error!.error.code).toBe('FEE_HASH_MISMATCH');
    expect((await create({ feeHash, beneficiaryId: ids.beneficiaryA3 })).error!.error.code).toBe('FEE_HASH_MISMATCH');
    expect((await create({ feeHash })).response.status).toBe(201);
    const reuse = await create({ feeHash });
    expect(reuse.response.status).toBe(409);
    expect(reuse.error!.error.code).toBe('FEE_HASH_ALREADY_USED');
    const stale = await estimateHash();
    server.clock.advance(901);
    expect((await create({ feeHash: stale.feeHash })).error!.error.code).toBe('FEE_HASH_EXPIRED');
    await drain(worker);
  });

  it('another customer cannot read or use the payout', async () => {
    const { feeHash } = await estimateHash();
    const created = await create({ feeHash });
    const path = { accountId: ids.accountAUsd, payoutId: created.data!.data.id };
    expect((await server.as(ids.userB).GET('/v1/accounts/{accountId}/payouts/{payoutId}', { params: { path } })).response.status).toBe(404);
    expect(
      (await customer().GET('/v1/accounts/{accountId}/payouts/{payoutId}', { params: { path: { ...path, accountId: ids.accountAUsdc } } })).response.status,
    ).toBe(404);
    await drain(worker);
  });
});
