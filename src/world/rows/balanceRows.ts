/**
 * Account currencies start at zero: their opening balances and the history of the world's payroll
 * requests are journal entries (src/world/settlement.ts), posted by the store's ledger, so every
 * balance and available equals the sum of its postings from the first moment.
 */
import { ZERO } from '../../domain/money/money.js';
import type { WorldTableRows } from '../../store/reference/worldRows.js';
import type { World } from '../types.js';

export function balanceRows(world: World): Pick<WorldTableRows, 'account_currencies'> {
  const decimalsOf = new Map(world.currencies.map((c) => [c.code, c.decimals]));
  return {
    account_currencies: world.accounts.flatMap((account) =>
      account.currencies.map((c) => {
        // Zero written with the currency's minor units, so that a balance keeps at least them ("500000.00000000").
        const zero = ZERO.toFixed(decimalsOf.get(c.currency) ?? 0);
        return { id: c.id, account_id: account.id, currency_code: c.currency, balance: zero, available: zero };
      }),
    ),
  };
}
