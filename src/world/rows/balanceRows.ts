/**
 * Account currencies and the ledger: balances are the opening balances minus the debits of
 * the requests that hold funds, and every change is a ledger row, so the two always agree.
 */
import { formatAmount, parseAmount } from '../../domain/money.js';
import type { WorldTableRows } from '../../store/worldRows.js';
import { debitTotals, runningDebits } from '../debits.js';
import type { World } from '../types.js';

export function balanceRows(world: World): Pick<WorldTableRows, 'account_currencies' | 'ledger_entries'> {
  const requests = world.payrollRequests ?? [];
  const debits = debitTotals(requests);
  const decimalsOf = new Map(world.currencies.map((c) => [c.code, c.decimals]));
  const accountCurrencies = world.accounts.flatMap((account) =>
    account.currencies.map((c) => {
      const debit = debits.get(c.id);
      // Keep the file's scale ("42000.00" stays so); after a debit, at least the currency's decimals.
      const now = debit === undefined ? c.balance : formatAmount(parseAmount(c.balance).minus(debit), decimalsOf.get(c.currency) ?? 0);
      return { id: c.id, account_id: account.id, currency_code: c.currency, balance: now, available: now };
    }),
  );
  return { account_currencies: accountCurrencies, ledger_entries: ledgerRows(world) };
}

/**
 * One opening entry per account currency (dated at load time, or at the earliest request when
 * that is earlier), then the requests' debits (dated at their request's creation).
 */
function ledgerRows(world: World): WorldTableRows['ledger_entries'] {
  const requests = world.payrollRequests ?? [];
  const loadedAt = [new Date().toISOString(), ...requests.map((r) => new Date(r.createdAt).toISOString())].sort()[0] ?? null;
  const openings = world.accounts.flatMap((account) =>
    account.currencies.map((c) => ({
      account_currency_id: c.id,
      balance_delta: c.balance,
      available_delta: c.balance,
      reason: 'OPENING_BALANCE',
      payroll_request_id: null,
      created_at: loadedAt,
    })),
  );
  const debits = runningDebits(requests).map(({ request }) => {
    const delta = `-${request.totalAmount}`; // exact, in the file's own scale
    return {
      account_currency_id: request.sourceAccountCurrencyId,
      balance_delta: delta,
      available_delta: delta,
      reason: 'PAYROLL_DEBIT',
      payroll_request_id: request.id,
      created_at: request.createdAt,
    };
  });
  return [...openings, ...debits];
}
