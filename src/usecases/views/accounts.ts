import { stringify } from 'csv-stringify/sync';
import type { components } from '../../../generated/api.js';
import { formatAmount } from '../../domain/money.js';
import { Money } from '../../domain/money.js';
import { transactionKind } from '../../domain/statement.js';
import type { AccountCurrencyRow, FundingRow, StatementRow } from '../../store/accounts.js';

type Schemas = components['schemas'];

const currencyOf = (row: AccountCurrencyRow): Schemas['Currency'] => ({
  id: row.currency_id,
  currencyCode: row.currency_code,
  currencyName: row.currency_name,
  currencySymbol: row.currency_symbol,
  decimals: row.decimals,
});

/** At least the currency's minor units of decimals ("1500.00"). */
const amountIn = (text: string, decimals: number) => formatAmount(new Money(text), decimals);

function toBalance(row: AccountCurrencyRow): Schemas['AccountCurrencyBalance'] {
  return {
    id: row.id,
    accountId: row.account_id,
    accountProvider: row.account_provider,
    currency: currencyOf(row),
    balance: amountIn(row.balance, row.decimals),
    available: amountIn(row.available, row.decimals),
  };
}

/** The caller's accounts (rows in account order) and the partner bank's account currencies, without their balances. */
export function toAccountList(rows: readonly AccountCurrencyRow[]): Schemas['AccountList'] {
  const accounts = new Map<string, Schemas['CustomerAccount']>();
  const payrollAccountCurrencies: Schemas['PayrollAccountCurrencyOption'][] = [];
  for (const row of rows) {
    if (row.customer_id === null) {
      payrollAccountCurrencies.push({ id: row.id, accountId: row.account_id, accountProvider: row.account_provider, currency: currencyOf(row) });
      continue;
    }
    const account = accounts.get(row.account_id) ?? { id: row.account_id, accountProvider: row.account_provider, currencies: [] };
    account.currencies.push(toBalance(row));
    accounts.set(row.account_id, account);
  }
  payrollAccountCurrencies.sort((a, b) => a.currency.currencyCode.localeCompare(b.currency.currencyCode) || a.id.localeCompare(b.id));
  return { accounts: [...accounts.values()], payrollAccountCurrencies };
}

export function toTransaction(row: StatementRow, decimals: number): Schemas['AccountTransaction'] {
  return {
    id: row.id,
    kind: transactionKind(row.kind),
    amount: amountIn(row.amount, decimals),
    balanceAfter: amountIn(row.balance_after, decimals),
    createdAt: row.created_at.toISOString(),
    payrollRequestId: row.payroll_request_id,
    transferId: row.transfer_id,
    payoutId: row.payout_id,
    fundingId: row.funding_id,
  };
}

/** The CSV columns: those of AccountTransaction, in the spec's order. */
const CSV_COLUMNS = ['id', 'kind', 'amount', 'balanceAfter', 'createdAt', 'payrollRequestId', 'transferId', 'payoutId', 'fundingId'] as const;

/** RFC 4180 CSV (CRLF line ends) with a header row; null is an empty field. No field holds free text, so none can start a spreadsheet formula. */
export function toStatementCsv(items: readonly Schemas['AccountTransaction'][]): string {
  return stringify(
    items.map((item) => CSV_COLUMNS.map((column) => item[column] ?? '')),
    { header: true, columns: [...CSV_COLUMNS], record_delimiter: 'windows' },
  );
}

export function toFunding(row: FundingRow, account: AccountCurrencyRow, balanceAfter: Money): Schemas['Funding'] {
  return {
    id: row.id,
    accountCurrencyId: row.account_currency_id,
    amount: amountIn(row.amount, account.decimals),
    currency: account.currency_code,
    reference: row.reference,
    createdAt: row.created_at.toISOString(),
    balanceAfter: formatAmount(balanceAfter, account.decimals),
  };
}
