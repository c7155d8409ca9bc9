import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ids } from '../../fixtures/world.js';
import { fundAccount } from '../../support/builders.js';
import { type TestServer, startTestServer } from '../../support/server.js';

/**
 * The estimate computes from reference data cached in the process. A change
 * made behind this process's back (another instance, an operator's SQL) bumps reference_version,
 * which the estimate's one statement checks: the next estimate is computed from the new data.
 * A test of the store's triggers, so the changes are made in SQL, as an operator would make them.
 */
let server: TestServer;
beforeAll(async () => (server = await startTestServer()));
afterAll(() => server.close());

const body = {
  sourceAccountCurrencyId: ids.acAUsd,
  payrollAccountCurrencyId: ids.acPartnerAed,
  amountSplitDetails: [{ beneficiaryId: ids.beneficiaryA1, amount: '1000.00' }],
};

async function breakdown() {
  const { data, response } = await server.as(ids.userA).POST('/v1/customers/payroll/estimate', { body });
  expect(response.status).toBe(200);
  return data!.data.feeBreakdown;
}

describe('estimate: cached reference data never outlives a change', () => {
  it('a bank fee, a spread and a rate changed in SQL apply to the very next estimate', async () => {
    const before = await breakdown();
    expect(before).toMatchObject({ bankFee: '1.37', spreadFee: '5.00', baseRate: '3.6725' });
    await server.db.query("UPDATE bank_fees SET per_beneficiary = 10 WHERE currency_code = 'AED'");
    expect((await breakdown()).bankFee).toBe('2.74');
    await server.db.query('UPDATE customers SET spread_bips = 100 WHERE id = $1', [ids.customerA]);
    expect((await breakdown()).spreadFee).toBe('10.00');
    await server.db.query("UPDATE exchange_rates SET rate = 3.7 WHERE from_code = 'USD' AND to_code = 'AED'");
    expect((await breakdown()).baseRate).toBe('3.7');
    // Each stale attempt stored nothing: one estimate per call.
    const [{ count }] = (await server.db.query<{ count: number }>('SELECT count(*)::int AS count FROM payroll_fee_estimates')) as [{ count: number }];
    expect(count).toBe(4);
  });

  it('a balance moving (the ledger) does not invalidate the cache', async () => {
    const [{ version: before }] = (await server.db.query<{ version: string }>('SELECT version::text FROM reference_version')) as [{ version: string }];
    await fundAccount(server.as(ids.admin), ids.acAUsd, '1.00');
    const [{ version: after }] = (await server.db.query<{ version: string }>('SELECT version::text FROM reference_version')) as [{ version: string }];
    expect(after).toBe(before);
  });
});
