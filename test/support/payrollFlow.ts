import { expect } from 'vitest';
import type { components } from '../../generated/api.js';
import { Money } from '../../src/domain/money.js';
import { ids } from '../fixtures/world.js';
import type { TestServer } from './server.js';

type Entry = components['schemas']['CreateAmountSplitEntry'];

/**
 * The payroll lifecycle through the typed client, one call per step, for the settlement contract
 * tests (issue 14). Each step returns the typed response so that a test can check its status.
 */
export function payrollFlow(server: TestServer) {
  const admin = () => server.as(ids.admin);
  return {
    /** Estimate then create from the feeHash; the created request (201 asserted). */
    async create(userId: string, accounts: { sourceAccountCurrencyId: string; payrollAccountCurrencyId: string }, entries: Entry[]) {
      const client = server.as(userId);
      const estimated = await client.POST('/v1/customers/payroll/estimate', {
        body: { ...accounts, amountSplitDetails: entries.map(({ purposeCode: _purpose, ...entry }) => entry) },
      });
      expect(estimated.response.status).toBe(200);
      const created = await client.POST('/v1/customers/payroll/requests', { body: { ...accounts, feeHash: estimated.data!.data.feeHash, amountSplitDetails: entries } });
      expect(created.response.status).toBe(201);
      return { estimate: estimated.data!.data, request: created.data!.data };
    },
    quote(requestId: string, exchangeRate: string) {
      const expiresAt = new Date(server.clock.now().getTime() + 3600_000).toISOString();
      return admin().POST('/v1/admin/payroll/requests/{requestId}/quote', { params: { path: { requestId } }, body: { exchangeRate, expiresAt } });
    },
    accept(requestId: string, userId: string = ids.userA) {
      return server.as(userId).POST('/v1/customers/payroll/requests/{requestId}/accept', { params: { path: { requestId } } });
    },
    recordFx(requestId: string, exchangeRate: string) {
      return admin().POST('/v1/admin/payroll/requests/{requestId}/fx-exchange', { params: { path: { requestId } }, body: { exchangeRate } });
    },
    async read(requestId: string, userId: string = ids.userA) {
      const { data } = await server.as(userId).GET('/v1/customers/payroll/requests/{requestId}', { params: { path: { requestId } } });
      return data!.data;
    },
    /** An account currency's balance, after checking that available equals it. */
    async balance(accountCurrencyId: string): Promise<Money> {
      const [row] = await server.db.query<{ balance: string; available: string }>('SELECT balance::text, available::text FROM account_currencies WHERE id = $1', [accountCurrencyId]);
      expect(new Money(row!.available).equals(row!.balance)).toBe(true);
      return new Money(row!.balance);
    },
  };
}
