import type { Queryable } from '../database/db.js';

/**
 * Accounts, their balances, their statements (the postings of the ledger) and fundings: camelCase
 * records for the Accounts use cases.
 */

/** An account currency with its account and currency. customerId null: a platform partner-bank account. */
export interface AccountCurrencyRecord {
  id: string;
  accountId: string;
  accountProvider: string;
  customerId: string | null;
  currencyId: string;
  currencyCode: string;
  currencyName: string;
  currencySymbol: string;
  decimals: number;
  balance: string;
  available: string;
}

const ACCOUNT_CURRENCY = `SELECT ac.id::text, ac.account_id::text AS "accountId", a.account_provider AS "accountProvider", a.customer_id::text AS "customerId",
       c.id::text AS "currencyId", c.code AS "currencyCode", c.name AS "currencyName", c.symbol AS "currencySymbol", c.decimals,
       ac.balance::text AS "balance", ac.available::text AS "available"
  FROM account_currencies ac JOIN accounts a ON a.id = ac.account_id JOIN currencies c ON c.code = ac.currency_code`;

/** The customer's account currencies, and every partner-bank one, by provider, account and currency. */
export function listAccountCurrencies(tx: Queryable, customerId: string): Promise<AccountCurrencyRecord[]> {
  return tx.query<AccountCurrencyRecord>(
    `${ACCOUNT_CURRENCY}
      WHERE a.customer_id = $1 OR a.customer_id IS NULL
      ORDER BY a.customer_id IS NULL, a.account_provider, a.id, c.code`,
    [customerId],
  );
}

/** One account currency; `lock` takes its row lock (a funding checks the balance it will add to). */
export async function findAccountCurrency(tx: Queryable, accountCurrencyId: string, lock = false): Promise<AccountCurrencyRecord | null> {
  const rows = await tx.query<AccountCurrencyRecord>(`${ACCOUNT_CURRENCY} WHERE ac.id = $1${lock ? ' FOR NO KEY UPDATE OF ac' : ''}`, [accountCurrencyId]);
  return rows[0] ?? null;
}

/** One posting of an account currency, with its journal entry. */
export interface StatementLine {
  id: string;
  kind: string;
  amount: string;
  balanceAfter: string;
  createdAt: Date;
  payrollRequestId: string | null;
  transferId: string | null;
  payoutId: string | null;
  fundingId: string | null;
}

export interface StatementQuery {
  accountCurrencyId: string;
  from: Date | null;
  to: Date | null;
  /** Only postings older than this posting id (the cursor), or null from the newest. */
  beforeId: string | null;
  limit: number;
}

/** An account currency's postings, newest (highest id) first; aliased in SQL, as a CSV statement reads up to MAX_CSV_ROWS of them. */
export function listStatement(tx: Queryable, query: StatementQuery): Promise<StatementLine[]> {
  return tx.query<StatementLine>(
    `SELECT p.id::text, e.kind, p.amount::text AS "amount", p.balance_after::text AS "balanceAfter", e.created_at AS "createdAt",
            e.payroll_request_id::text AS "payrollRequestId", e.transfer_id::text AS "transferId", e.payout_id::text AS "payoutId",
            e.funding_id::text AS "fundingId"
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

export interface FundingRecord {
  id: string;
  accountCurrencyId: string;
  amount: string;
  reference: string;
  createdByUserId: string;
  createdAt: Date;
}

export async function insertFunding(tx: Queryable, funding: FundingRecord): Promise<void> {
  await tx.query(
    `INSERT INTO account_fundings (id, account_currency_id, amount, reference, created_by_user_id, created_at)
     VALUES ($1, $2, $3, $4, $5, $6)`,
    [funding.id, funding.accountCurrencyId, funding.amount, funding.reference, funding.createdByUserId, funding.createdAt],
  );
}
