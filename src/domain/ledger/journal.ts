import type { Decimal } from 'decimal.js';
import { Money } from '../money/money.js';

/**
 * Double entry: every money movement is one journal entry of postings over named
 * ledger accounts, and the postings of each currency sum to zero. An account's balance is the sum
 * of its postings; money enters and leaves only through EXTERNAL. docs/settlement.md maps each
 * movement of the lifecycle to its postings.
 */

/** Fee revenue of the platform: the payroll fees, and a single payout's provider and internal fees. */
export type FeeKind = 'SPREAD' | 'PROCESSOR' | 'BANK' | 'PAYOUT' | 'INTERNAL';

/** Money between the customer's debit and the beneficiary: with the processor, then on the bank leg. */
export type TransitLeg = 'PROCESSOR' | 'BANK';

export type LedgerAccount =
  /** A customer's account currency: its balance and available equal these postings. */
  | { kind: 'CUSTOMER'; accountCurrencyId: string }
  /** A platform partner-bank account currency (the payroll account): what it holds for payouts and its float. */
  | { kind: 'PLATFORM_BANK'; accountCurrencyId: string }
  | { kind: 'FEE_REVENUE'; fee: FeeKind }
  /** The platform's FX gains (+) and losses (−), per currency. */
  | { kind: 'FX_RESULT' }
  | { kind: 'IN_TRANSIT'; leg: TransitLeg }
  /** The world outside: funding arrives from it, payouts and sold currency leave to it. */
  | { kind: 'EXTERNAL' }
  /** What the partner bank charged for booking payouts: an expense of the platform, per currency. */
  | { kind: 'BANK_CHARGES' };

export interface Posting {
  account: LedgerAccount;
  currency: string;
  /** Signed: + raises the account's balance, − lowers it. */
  amount: Decimal;
}

export type JournalKind =
  | 'OPENING_BALANCE'
  | 'PAYROLL_CREATED'
  | 'PAYROLL_CANCELLED'
  | 'ACCEPT_TOP_UP'
  | 'ACCEPT_REFUND'
  | 'PROCESSOR_LEG_COMPLETED'
  | 'PROCESSOR_LEG_FAILED'
  | 'BANK_LEG_COMPLETED'
  | 'BANK_LEG_FAILED'
  /** An operator failed an EXECUTING request after its bank leg was funded: everything returns. */
  | 'PAYROLL_FAILED_RETURNED'
  | 'FX_CONVERSION'
  | 'PAYOUT_SENT'
  | 'PAYOUT_FAILED_CREDIT_BACK'
  | 'SINGLE_PAYOUT_DEBITED'
  | 'SINGLE_PAYOUT_SENT'
  | 'SINGLE_PAYOUT_REFUNDED'
  /** An admin's funding: money arriving in a customer's account currency from outside. */
  | 'FUNDING'
  /** The charges the bank booked with a payout: they leave the partner-bank account. */
  | 'BANK_CHARGES'
  /** A payout the bank returned: its money back in the partner-bank account, the customer credited. */
  | 'PAYOUT_RETURNED';

/** What the entry belongs to, for the store's foreign keys and audits. */
export interface JournalRefs {
  payrollRequestId?: string;
  transferId?: string;
  payoutId?: string;
  fundingId?: string;
}

export interface JournalEntry {
  kind: JournalKind;
  postings: readonly Posting[];
  refs: JournalRefs;
}

export class UnbalancedJournalEntryError extends Error {
  constructor(kind: JournalKind, currency: string, total: Decimal) {
    super(`Journal entry ${kind} does not balance in ${currency}: its postings sum to ${total.toFixed()}`);
    this.name = 'UnbalancedJournalEntryError';
  }
}

/** A stable text key per account, as the store keys its ledger accounts ("CUSTOMER:<uuid>", "FEE_REVENUE:SPREAD"). */
export function accountKey(account: LedgerAccount): string {
  switch (account.kind) {
    case 'CUSTOMER':
    case 'PLATFORM_BANK':
      return `${account.kind}:${account.accountCurrencyId}`;
    case 'FEE_REVENUE':
      return `FEE_REVENUE:${account.fee}`;
    case 'IN_TRANSIT':
      return `IN_TRANSIT:${account.leg}`;
    default:
      return account.kind;
  }
}

/** Σ postings per currency. */
export function totalsByCurrency(postings: readonly Posting[]): Map<string, Decimal> {
  const totals = new Map<string, Decimal>();
  for (const posting of postings) totals.set(posting.currency, (totals.get(posting.currency) ?? new Money(0)).plus(posting.amount));
  return totals;
}

/**
 * The only way to make an entry: zero postings are dropped (an adjustment of 0 moves nothing), and
 * an entry whose postings do not sum to zero in every currency is refused — a bug, never data.
 */
export function journalEntry(kind: JournalKind, postings: readonly Posting[], refs: JournalRefs = {}): JournalEntry {
  const moving = postings.filter((posting) => !posting.amount.isZero());
  for (const [currency, total] of totalsByCurrency(moving)) {
    if (!total.isZero()) throw new UnbalancedJournalEntryError(kind, currency, total);
  }
  return { kind, postings: moving, refs };
}

/** One amount from one account to another in one currency: the brick every movement is built of. */
export function move(from: LedgerAccount, to: LedgerAccount, currency: string, amount: Decimal): Posting[] {
  return [
    { account: from, currency, amount: amount.negated() },
    { account: to, currency, amount },
  ];
}

/** Does the entry move any money? (An entry of only zero postings need not be stored.) */
export function movesMoney(entry: JournalEntry): boolean {
  return entry.postings.length > 0;
}

/** An account's balance in one currency over a set of entries: what the store's balance must equal. */
export function balanceOf(entries: readonly JournalEntry[], account: LedgerAccount, currency: string): Decimal {
  const key = accountKey(account);
  let balance: Decimal = new Money(0);
  for (const entry of entries) {
    for (const posting of entry.postings) {
      if (posting.currency === currency && accountKey(posting.account) === key) balance = balance.plus(posting.amount);
    }
  }
  return balance;
}
