import type { Queryable } from './db.js';

/**
 * Accounts, their balances, their statements (the postings of the ledger) and fundings: plain rows
 * for the Accounts use cases.
 */

/** An account currency with its account and currency. customer_id null: a platform partner-bank account. */
export interface AccountCurrencyRow {
  id: string;
  account_id: string;
  account_provider: string;
  customer_id: string | null;
  currency_id: string;
  currency_code: string;
  currency_name: string;
  currency_symbol: string;
  decimals: number;
  balance: string;
  available: string;
}

const ACCOUNT_CURRENCY = `SELECT ac.id::text, ac.account_id::text, a.account_provider, a.customer_id::text,
       c.id::text AS currency_id, c.code AS currency_code, c.name AS currency_name, c.symbol AS currency_symbol, c.decimals,
       ac.balance::text, ac.available::text
  FROM account_currencies ac JOIN accounts a ON a.id = ac.account_id JOIN currencies c ON c.code = ac.currency_code`;

/** The customer's account currencies, and every partner-bank one, by provider, account and currency. */
export function listAccountCurrencies(tx: Queryable, customerId: string): Promise<AccountCurrencyRow[]> {
  return tx.query<AccountCurrencyRow>(
    `${ACCOUNT_CURRENCY}
      WHERE a.customer_id = $1 OR a.customer_id IS NULL
      ORDER BY a.customer_id IS NULL, a.account_provider, a.id, c.code`,
    [customerId],
  );
}

/** One account currency; `lock` takes its row lock (a funding checks the balance it will add to). */
export async function findAccountCurrency(tx: Queryable, accountCurrencyId: string, lock = false): Promise<AccountCurrencyRow | null> {
  const rows = await tx.query<AccountCurrencyRow>(`${ACCOUNT_CURRENCY} WHERE ac.id = $1${lock ? ' FOR NO KEY UPDATE OF ac' : ''}`, [accountCurrencyId]);
  return rows[0] ?? null;
}

/** One posting of an account currency, with its journal entry. */
export interface StatementRow {
  id: string;
  kind: string;
  amount: string;
  balance_after: string;
  created_at: Date;
  payroll_request_id: string | null;
  transfer_id: string | null;
  payout_id: string | null;
  funding_id: string | null;
}

export interface StatementQuery {
  accountCurrencyId: string;
  from: Date | null;
  to: Date | null;
  /** Only postings older than this posting id (the cursor), or null from the newest. */
  beforeId: string | null;
  limit: number;
}

/** An account currency's postings, newest (highest id) first. */
export function listStatement(tx: Queryable, query: StatementQuery): Promise<StatementRow[]> {
  return tx.query<StatementRow>(
    `SELECT p.id::text, e.kind, p.amount::text, p.balance_after::text, e.created_at,
            e.payroll_request_id::text, e.transfer_id::text, e.payout_id::text, e.funding_id::text
       FROM postings p JOIN journal_entries e ON e.id = p.journal_entry_id
      WHERE p.account_currency_id = $1
        AND ($2::timestamptz IS NULL OR e.created_at >= $2)
        AND ($3::timestamptz IS NULL OR e.created_at < $3)
        AND ($4::bigint IS NULL OR p.id < $4)
      ORDER BY p.id DESC
      LIMIT $5`,
    [query.accountCurrencyId, query.from, query.to, query.beforeId, query.limit],
  );
}

export interface FundingRow {
  id: string;
  account_currency_id: string;
  amount: string;
  reference: string;
  created_by_user_id: string;
  created_at: Date;
}

export async function insertFunding(tx: Queryable, funding: FundingRow): Promise<void> {
  await tx.query(
    `INSERT INTO account_fundings (id, account_currency_id, amount, reference, created_by_user_id, created_at)
     VALUES ($1, $2, $3, $4, $5, $6)`,
    [funding.id, funding.account_currency_id, funding.amount, funding.reference, funding.created_by_user_id, funding.created_at],
  );
}
