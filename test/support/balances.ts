import { expect } from 'vitest';
import { Money } from '../../src/domain/money/money.js';
import type { Database } from '../../src/store/database/db.js';
import { ledgerMismatches } from '../../src/store/ledger/ledger.js';

/** An account currency's two figures, read straight from the database. */
export interface Balances {
  balance: Money;
  available: Money;
}

export async function balancesOf(db: Database, accountCurrencyId: string): Promise<Balances> {
  const [row] = await db.query<{ balance: string; available: string }>('SELECT balance::text, available::text FROM account_currencies WHERE id = $1', [
    accountCurrencyId,
  ]);
  if (!row) throw new Error(`no account currency ${accountCurrencyId}`);
  return { balance: new Money(row.balance), available: new Money(row.available) };
}

/** Equal as amounts ('10.50' and '10.5000' are the same balance), with both figures in the message. */
export function expectSameBalances(actual: Balances, expected: Balances): void {
  expect(actual.balance.equals(expected.balance), `balance ${actual.balance.toFixed()} ≠ ${expected.balance.toFixed()}`).toBe(true);
  expect(actual.available.equals(expected.available), `available ${actual.available.toFixed()} ≠ ${expected.available.toFixed()}`).toBe(true);
}

/** Balance and available equal what the ledger says, for every account currency. */
export async function expectBooksBalanced(db: Database): Promise<void> {
  expect(await ledgerMismatches(db)).toEqual([]);
}
