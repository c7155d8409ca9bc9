import { stringify } from 'csv-stringify/sync';
import type { components } from '../../../generated/api.js';
import { formatAmount } from '../../domain/money/money.js';
import { Money } from '../../domain/money/money.js';
import { transactionKind } from '../../domain/ledger/statement.js';
import type { AccountCurrencyRecord, FundingRecord, StatementLine } from '../../store/ledger/accounts.js';

type Schemas = components['schemas'];

const currencyOf = (row: AccountCurrencyRecord): Schemas['Currency'] => ({
  id: row.currencyId,
  currencyCode: row.currencyCode,
  currencyName: row.currencyName,
  currencySymbol: row.currencySymbol,
  decimals: row.decimals,
});

/** At least the currency's minor units of decimals ("1500.00"). */
const amountIn = (text: string, decimals: number) => formatAmount(new Money(text), decimals);

function toBalance(row: AccountCurrencyRecord): Schemas['AccountCurrencyBalance'] {
  return {
    id: row.id,
    accountId: row.accountId,
    accountProvider: row.accountProvider,
    currency: currencyOf(row),
    balance: amountIn(row.balance, row.decimals),
    available: amountIn(row.available, row.decimals),
  };
}

/** The caller's accounts (rows in account order) and the partner bank's account currencies, without their balances. */
export function toAccountList(rows: readonly AccountCurrencyRecord[]): Schemas['AccountList'] {
  const accounts = new Map<string, Schemas['CustomerAccount']>();
  const payrollAccountCurrencies: Schemas['PayrollAccountCurrencyOption'][] = [];
  for (const row of rows) {
    if (row.customerId === null) {
      payrollAccountCurrencies.push({ id: row.id, accountId: row.accountId, accountProvider: row.accountProvider, currency: currencyOf(row) });
      continue;
    }
    const account = accounts.get(row.accountId) ?? { id: row.accountId, accountProvider: row.accountProvider, currencies: [] };
    account.currencies.push(toBalance(row));
    accounts.set(row.accountId, account);
  }
  payrollAccountCurrencies.sort((a, b) => a.currency.currencyCode.localeCompare(b.currency.currencyCode) || a.id.localeCompare(b.id));
  return { accounts: [...accounts.values()], payrollAccountCurrencies };
}

export function toTransaction(row: StatementLine, decimals: number): Schemas['AccountTransaction'] {
  return {
    id: row.id,
    kind: transactionKind(row.kind),
    amount: amountIn(row.amount, decimals),
    balanceAfter: amountIn(row.balanceAfter, decimals),
    createdAt: row.createdAt.toISOString(),
    payrollRequestId: row.payrollRequestId,
    transferId: row.transferId,
    payoutId: row.payoutId,
    fundingId: row.fundingId,
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

export function toFunding(row: FundingRecord, account: AccountCurrencyRecord, balanceAfter: Money): Schemas['Funding'] {
  return {
    id: row.id,
    accountCurrencyId: row.accountCurrencyId,
    amount: amountIn(row.amount, account.decimals),
    currency: account.currencyCode,
    reference: row.reference,
    createdAt: row.createdAt.toISOString(),
    balanceAfter: formatAmount(balanceAfter, account.decimals),
  };
}
