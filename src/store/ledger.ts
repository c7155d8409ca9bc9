import type { Queryable } from './db.js';

export type LedgerReason = 'PAYROLL_DEBIT' | 'PAYROLL_REFUND' | 'FX_CREDIT' | 'PAYOUT' | 'PAYOUT_DEBIT' | 'PAYOUT_REFUND';

export interface LedgerEntry {
  accountCurrencyId: string;
  /** Signed exact decimal strings. */
  balanceDelta: string;
  availableDelta: string;
  reason: LedgerReason;
  payrollRequestId?: string | null;
  transferId?: string | null;
  at: Date;
}

/**
 * The only way a balance changes: the ledger row and the balance move together, in the
 * caller's transaction, so balance and available always equal the ledger's sums.
 */
export async function postLedgerEntry(tx: Queryable, entry: LedgerEntry): Promise<void> {
  await tx.query(
    `INSERT INTO ledger_entries (account_currency_id, balance_delta, available_delta, reason, payroll_request_id, transfer_id, created_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7)`,
    [entry.accountCurrencyId, entry.balanceDelta, entry.availableDelta, entry.reason, entry.payrollRequestId ?? null, entry.transferId ?? null, entry.at],
  );
  await tx.query('UPDATE account_currencies SET balance = balance + $2, available = available + $3 WHERE id = $1', [
    entry.accountCurrencyId,
    entry.balanceDelta,
    entry.availableDelta,
  ]);
}

/** Locks the account currency row for a balance check followed by a debit. */
export async function lockAvailable(tx: Queryable, accountCurrencyId: string): Promise<string | null> {
  const rows = await tx.query<{ available: string }>('SELECT available::text FROM account_currencies WHERE id = $1 FOR UPDATE', [accountCurrencyId]);
  return rows[0]?.available ?? null;
}

/** Account currencies whose balance or available differ from their ledger (should be none). */
export async function ledgerMismatches(tx: Queryable): Promise<Array<{ id: string; balance: string; ledger_balance: string }>> {
  return tx.query(
    `SELECT ac.id, ac.balance::text, COALESCE(sum(l.balance_delta), 0)::text AS ledger_balance
       FROM account_currencies ac LEFT JOIN ledger_entries l ON l.account_currency_id = ac.id
      GROUP BY ac.id, ac.balance, ac.available
     HAVING ac.balance <> COALESCE(sum(l.balance_delta), 0) OR ac.available <> COALESCE(sum(l.available_delta), 0)`,
  );
}
