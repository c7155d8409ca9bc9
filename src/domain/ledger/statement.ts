import type { Decimal } from 'decimal.js';
import type { components } from '../../../generated/api.js';
import { validationError } from '../errors.js';
import type { JournalKind } from './journal.js';
import { assertBelowAmountLimit, assertScale } from '../money/minorUnits.js';
import { Money } from '../money/money.js';

/**
 * The statement of an account currency: what each journal kind is called on it, and
 * the running balance each posting leaves.
 */

export type TransactionKind = components['schemas']['AccountTransactionKind'];

/**
 * The public kind of every journal kind that posts to a customer's account currency; null for the
 * kinds that never do (they move the transit, fee, FX and partner-bank accounts only). Exhaustive:
 * a new journal kind fails to compile here until it is named.
 */
const KIND_ON_STATEMENT: Record<JournalKind, TransactionKind | null> = {
  OPENING_BALANCE: 'OPENING_BALANCE',
  FUNDING: 'FUNDING',
  PAYROLL_CREATED: 'PAYROLL_DEBIT',
  ACCEPT_TOP_UP: 'PAYROLL_ADJUSTMENT',
  ACCEPT_REFUND: 'PAYROLL_ADJUSTMENT',
  PAYROLL_CANCELLED: 'PAYROLL_REFUND',
  PROCESSOR_LEG_FAILED: 'PAYROLL_REFUND',
  BANK_LEG_FAILED: 'PAYROLL_REFUND',
  PAYROLL_FAILED_RETURNED: 'PAYROLL_REFUND',
  PAYOUT_FAILED_CREDIT_BACK: 'PAYROLL_PAYOUT_RETURNED',
  PAYOUT_RETURNED: 'PAYROLL_PAYOUT_RETURNED',
  SINGLE_PAYOUT_DEBITED: 'PAYOUT_DEBIT',
  SINGLE_PAYOUT_REFUNDED: 'PAYOUT_REFUND',
  PROCESSOR_LEG_COMPLETED: null,
  BANK_LEG_COMPLETED: null,
  FX_CONVERSION: null,
  PAYOUT_SENT: null,
  SINGLE_PAYOUT_SENT: null,
  BANK_CHARGES: null,
};

function isJournalKind(kind: string): kind is JournalKind {
  return Object.hasOwn(KIND_ON_STATEMENT, kind);
}

/** The statement kind of a stored journal kind; a kind that cannot be on a customer's statement is a bug, never data. */
export function transactionKind(journalKind: string): TransactionKind {
  const kind = isJournalKind(journalKind) ? KIND_ON_STATEMENT[journalKind] : null;
  if (!kind) throw new Error(`journal kind ${journalKind} posted to a customer's account currency`);
  return kind;
}

/** A posting about to be written: the account currency it moves (null for the other ledger accounts) and its amount. */
export interface PendingPosting {
  accountCurrencyId: string | null;
  amount: Decimal;
}

/**
 * The balance each posting leaves, in the order given (the order they get their ids): the account
 * currency's balance before the batch plus every earlier posting of it in the batch, plus its own.
 * Null for a posting to no account currency. `before` must hold every account currency moved.
 */
export function runningBalances(before: ReadonlyMap<string, Decimal>, postings: readonly PendingPosting[]): (Decimal | null)[] {
  const current = new Map(before);
  return postings.map(({ accountCurrencyId, amount }) => {
    if (accountCurrencyId === null) return null;
    const previous = current.get(accountCurrencyId);
    if (previous === undefined) throw new Error(`no balance read for account currency ${accountCurrencyId}`);
    const after = previous.plus(amount);
    current.set(accountCurrencyId, after);
    return after;
  });
}

/** A funding's amount: above zero, within the currency's minor units, and the balance after it below 10^15. */
export function checkFundingAmount(text: string, currency: { code: string; decimals: number }, balance: Decimal): Decimal {
  const amount = new Money(text);
  if (!amount.greaterThan(0)) throw validationError('body.amount must be greater than zero', { reason: 'AMOUNT_NOT_POSITIVE', field: '/amount' });
  assertScale(amount, currency.decimals, 'body.amount', 'funding', currency.code);
  assertBelowAmountLimit(balance.plus(amount), 'body.amount: the balance after the funding', currency.code, { field: '/amount' });
  return amount;
}

/** The largest statement returned as CSV at once (the spec's documented bound). */
export const MAX_CSV_ROWS = 10_000;

/** `to` must come after `from` when both are given. */
export function checkStatementRange(from: Date | null, to: Date | null): void {
  if (from && to && !(to.getTime() > from.getTime())) throw validationError('query.to must be after query.from', { field: 'to' });
}
