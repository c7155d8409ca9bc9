import { randomUUID } from 'node:crypto';
import type { components } from '../../../generated/api.js';
import { notFound } from '../../domain/errors.js';
import { funded } from '../../domain/ledger/journalEntries.js';
import { Money, formatExact } from '../../domain/money/money.js';
import { checkFundingAmount } from '../../domain/ledger/statement.js';
import { type AccountCurrencyRecord, findAccountCurrency, insertFunding, listAccountCurrencies } from '../../store/ledger/accounts.js';
import type { Queryable } from '../../store/database/db.js';
import { postJournalEntry } from '../../store/ledger/ledger.js';
import type { UseCaseDeps } from '../deps.js';
import { type Principal, requireAdmin, requireCustomer } from '../access/principal.js';
import { toAccountList, toFunding } from '../views/accounts.js';

type Schemas = components['schemas'];

/** The caller's accounts with their balances, and the partner-bank account currencies it may pay a payroll into. */
export async function listAccounts(deps: UseCaseDeps, caller: Principal): Promise<Schemas['AccountList']> {
  const customerId = requireCustomer(caller);
  return toAccountList(await deps.db.transaction((tx) => listAccountCurrencies(tx, customerId)));
}

/**
 * One of the customer's account currencies: missing, another customer's and the platform's are
 * all the same 404. `lock` takes its row lock.
 */
export async function customerAccountCurrency(
  tx: Queryable,
  customerId: string | null,
  accountCurrencyId: string,
  lock = false,
): Promise<AccountCurrencyRecord> {
  const account = await findAccountCurrency(tx, accountCurrencyId, lock);
  const visible = account && account.customerId !== null && (customerId === null || account.customerId === customerId);
  if (!visible) throw notFound(`Account currency ${accountCurrencyId} not found`);
  return account;
}

/**
 * Admin: money arrives in a customer's account currency — one FUNDING journal entry from EXTERNAL.
 * The account currency is locked first, so the balance the amount is checked against is the one it adds to.
 */
export async function fundAccountCurrency(
  deps: UseCaseDeps,
  caller: Principal,
  accountCurrencyId: string,
  body: Schemas['FundAccountCurrencyRequest'],
): Promise<Schemas['Funding']> {
  requireAdmin(caller);
  return deps.db.transaction(async (tx) => {
    const account = await customerAccountCurrency(tx, null, accountCurrencyId, true);
    const balance = new Money(account.balance);
    const amount = checkFundingAmount(body.amount, { code: account.currencyCode, decimals: account.decimals }, balance);
    const funding = {
      id: randomUUID(),
      accountCurrencyId: account.id,
      amount: formatExact(amount),
      reference: body.reference,
      createdByUserId: caller.userId,
      createdAt: deps.clock(),
    };
    await insertFunding(tx, funding);
    await postJournalEntry(tx, funded(account.id, account.currencyCode, amount, { fundingId: funding.id }), funding.createdAt);
    return toFunding(funding, account, balance.plus(amount));
  });
}
