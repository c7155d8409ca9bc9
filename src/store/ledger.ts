import { notFound } from '../domain/errors.js';
import { type LedgerReason, assertFundsCover } from '../domain/ledger.js';
import { Money, formatAmount } from '../domain/money.js';
import type { Queryable } from './db.js';
import type { LockedPayrollRequest } from './payrollRequestUpdates.js';

/**
 * The ledger: every balance change of the service goes through this module. Each movement is a
 * ledger row and the matching change of balance and available, in the caller's transaction, so
 * balance and available always equal the ledger's sums.
 */

interface Posting {
  accountCurrencyId: string;
  /** Signed exact decimal strings. */
  balanceDelta: string;
  availableDelta: string;
  reason: LedgerReason;
  payrollRequestId?: string | null;
  transferId?: string | null;
  at: Date;
}

async function post(tx: Queryable, entry: Posting): Promise<void> {
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

/** A movement of a positive exact amount; the direction is the function's. */
interface Movement {
  accountCurrencyId: string;
  amount: string;
  payrollRequestId?: string | null;
  transferId?: string | null;
  at: Date;
}

type DebitReason = Extract<LedgerReason, 'PAYROLL_DEBIT' | 'PAYOUT_DEBIT'>;
type CreditReason = Extract<LedgerReason, 'PAYROLL_REFUND' | 'PAYOUT_REFUND' | 'FX_CREDIT'>;

/**
 * A customer's debit: the account currency row is locked, the funds are checked (the domain's
 * INSUFFICIENT_FUNDS), then balance and available both fall by the amount. The lock serialises
 * concurrent debits of one account, so two of them can never both pass the check.
 */
export async function debitFunds(tx: Queryable, movement: Movement & { reason: DebitReason }): Promise<void> {
  const rows = await tx.query<{ available: string; currency_code: string; decimals: number }>(
    `SELECT ac.available::text, ac.currency_code, c.decimals
       FROM account_currencies ac JOIN currencies c ON c.code = ac.currency_code
      WHERE ac.id = $1 FOR UPDATE OF ac`,
    [movement.accountCurrencyId],
  );
  const account = rows[0];
  if (!account) throw notFound(`Account currency ${movement.accountCurrencyId} not found`);
  const amount = new Money(movement.amount);
  assertFundsCover({ available: new Money(account.available), currencyCode: account.currency_code, decimals: account.decimals }, amount);
  await moveBoth(tx, movement, movement.reason, amount.negated());
}

/** Money in: a refund to a customer's account, or the FX exchange's credit to the payroll account. */
export async function creditFunds(tx: Queryable, movement: Movement & { reason: CreditReason }): Promise<void> {
  await moveBoth(tx, movement, movement.reason, new Money(movement.amount));
}

/** A paid payroll payout leaves the partner-bank payroll account (funded by the FX credit). */
export async function payOut(tx: Queryable, movement: Movement): Promise<void> {
  await moveBoth(tx, movement, 'PAYOUT', new Money(movement.amount).negated());
}

async function moveBoth(tx: Queryable, movement: Movement, reason: LedgerReason, delta: Money): Promise<void> {
  const text = formatAmount(delta);
  await post(tx, { ...movement, balanceDelta: text, availableDelta: text, reason });
}

/** What the ledger needs of a payroll request: its id, its source account currency and its total. */
export type DebitedPayrollRequest = Pick<LockedPayrollRequest, 'id' | 'source_account_currency_id' | 'total_amount'>;

/** PAYROLL_DEBIT: the request's total (amounts and fees) leaves the source account at creation. */
export async function debitPayrollRequest(tx: Queryable, request: DebitedPayrollRequest, at: Date): Promise<void> {
  await debitFunds(tx, { accountCurrencyId: request.source_account_currency_id, amount: request.total_amount, reason: 'PAYROLL_DEBIT', payrollRequestId: request.id, at });
}

/** PAYROLL_REFUND: the whole debited total returns (a cancellation, or a failure before any payout). */
export async function refundPayrollRequest(tx: Queryable, request: DebitedPayrollRequest, at: Date): Promise<void> {
  await creditFunds(tx, { accountCurrencyId: request.source_account_currency_id, amount: request.total_amount, reason: 'PAYROLL_REFUND', payrollRequestId: request.id, at });
}

/** PAYOUT_REFUND: a single payout that bounced returns its whole debited total (amount and fees). */
export async function refundPayout(tx: Queryable, payoutId: string, at: Date): Promise<void> {
  const [payout] = await tx.query<{ account_currency_id: string; total_amount: string }>(
    'SELECT account_currency_id, total_amount::text FROM payouts WHERE id = $1',
    [payoutId],
  );
  if (!payout) throw new Error(`Payout ${payoutId} vanished while settling`);
  await creditFunds(tx, { accountCurrencyId: payout.account_currency_id, amount: payout.total_amount, reason: 'PAYOUT_REFUND', transferId: payoutId, at });
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
