import type { Decimal } from 'decimal.js';
import type { components } from '../../../generated/api.js';
import type { BankAccountReport, BankEntry, BankReturnReason, CreditDebit } from './bankBooks.js';
import { roundCharge } from '../money/minorUnits.js';
import { Money, ZERO } from '../money/money.js';

/**
 * The bank's books read against ours, pure: each booked line as matching sees it, a statement's
 * end and balances, and what a returned payout credits back (docs/bank-files.md, "What the bank
 * booked"; docs/settlement.md for the ledger entries).
 */

export type BankExceptionKind = components['schemas']['BankExceptionKind'];

/** One transaction of an entry (or the entry itself when it details none), its amounts resolved. */
export interface BookedLine {
  endToEndId: string | null;
  /** The bank's reference: the transaction's AcctSvcrRef, else the entry's. */
  bankReference: string | null;
  entryReference: string | null;
  creditDebit: CreditDebit;
  /**
   * The line's own amount. A DBIT entry's `Amt` is what left the account, the payment plus the
   * charges booked with it: the payment is the transaction's own amount when given, else
   * `Amt − charges`. A CRDT's is what came in.
   */
  amount: Decimal;
  charges: Decimal;
  /** What the line moved on the account: + in, − out (a DBIT's amount and its charges). */
  net: Decimal;
  currency: string;
  bookedAt: Date;
  returnReason: BankReturnReason | null;
  /** A credit carrying a return reason, or a reversal: money of ours coming back. */
  isReturn: boolean;
  /** What makes two reports of one booking the same booking: the bank's reference, else the entry's, else its date and amount. */
  identity: string;
}

const amountOf = (text: string | null | undefined): Decimal | null => (text ? new Money(text) : null);

/** When an entry was booked: its booking date, else its value date, else when the message was created. */
function bookingTime(entry: Pick<BankEntry, 'bookingDate' | 'valueDate'>, fallback: Date): Date {
  const text = entry.bookingDate ?? entry.valueDate;
  if (!text) return fallback;
  const parsed = new Date(/^\d{4}-\d{2}-\d{2}$/.test(text) ? `${text}T00:00:00.000Z` : text);
  return Number.isNaN(parsed.getTime()) ? fallback : parsed;
}

/** The booked lines of an entry: one per transaction it details, or the entry alone. */
export function bookedLines(entry: BankEntry, fallbackDate: Date): BookedLine[] {
  const bookedAt = bookingTime(entry, fallbackDate);
  const transactions = entry.transactions.length > 0 ? entry.transactions : [null];
  const single = transactions.length === 1;
  return transactions.map((transaction) => {
    const creditDebit = transaction?.creditDebit ?? entry.creditDebit;
    const charges = amountOf(transaction?.charges) ?? (single ? amountOf(entry.charges) : null) ?? ZERO;
    const own = amountOf(transaction?.amount);
    const entryAmount = new Money(entry.amount);
    const amount = own ?? (creditDebit === 'DBIT' ? entryAmount.minus(charges) : entryAmount);
    const net = creditDebit === 'DBIT' ? amount.plus(charges).negated() : amount;
    const returnReason = transaction?.returnReason ?? null;
    const bankReference = transaction?.accountServicerReference ?? entry.accountServicerReference;
    const identity = bankReference ?? entry.entryReference ?? `${bookedAt.toISOString()}|${creditDebit}|${amount.toFixed()}`;
    return {
      endToEndId: transaction?.endToEndId?.trim() || null,
      bankReference,
      entryReference: entry.entryReference,
      creditDebit,
      amount,
      charges,
      net,
      currency: transaction?.currency ?? entry.currency,
      bookedAt,
      returnReason,
      isReturn: creditDebit === 'CRDT' && (returnReason !== null || entry.reversal),
      identity,
    };
  });
}

/** Only booked entries count; pending and informational ones change nothing. */
export const isBooked = (entry: Pick<BankEntry, 'status'>): boolean => entry.status.toUpperCase() === 'BOOK';

/** A compact id (an EndToEndId as our files write it: 32 hex digits) as the UUID it stands for, or null. */
export function uuidOfCompact(compact: string | null): string | null {
  if (!compact || !/^[0-9a-fA-F]{32}$/.test(compact)) return null;
  const hex = compact.toLowerCase();
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** A balance's signed amount: a DBIT balance is an overdraft. */
const signed = (balance: { amount: string; creditDebit: CreditDebit }): Decimal =>
  balance.creditDebit === 'DBIT' ? new Money(balance.amount).negated() : new Money(balance.amount);

export interface StatementFrame {
  /** The statement's day (YYYY-MM-DD). */
  date: string;
  /** The ledger is read strictly before this instant: the end of `period.to`, or of the closing balance's day. */
  endsBefore: Date;
  opening: Decimal | null;
  closing: Decimal | null;
}

const dayAfter = (date: string): Date => new Date(new Date(`${date}T00:00:00.000Z`).getTime() + 86_400_000);

/** A date-time ends the millisecond after it; a date, at the next midnight (UTC). */
function endOf(text: string): Date {
  if (/^\d{4}-\d{2}-\d{2}$/.test(text)) return dayAfter(text);
  return new Date(new Date(text).getTime() + 1);
}

/** The day, end and balances of a camt.053 statement. */
export function statementFrame(report: BankAccountReport, fallback: Date): StatementFrame {
  const closing = report.balances.find((balance) => balance.type.toUpperCase() === 'CLBD') ?? null;
  const opening = report.balances.find((balance) => balance.type.toUpperCase() === 'OPBD') ?? null;
  const endText = report.period?.to ?? closing?.date ?? null;
  const endsBefore = endText ? endOf(endText) : fallback;
  const date = (closing?.date ?? report.period?.to ?? fallback.toISOString()).slice(0, 10);
  return { date, endsBefore, opening: opening && signed(opening), closing: closing && signed(closing) };
}

export interface ReturnFigures {
  /** What the return cost: the payout's amount less what came back. */
  charges: Decimal;
  /** What the customer is credited back, in the source currency. */
  creditBack: Decimal;
}

/**
 * A returned payout's credit to the customer: what the customer paid for it (the split's quoted
 * source amount) less the return's charges converted at the accepted quote rate, the rate that
 * priced the payout for the customer, rounded up as every charge to the customer is, never below
 * zero. Null when the bank returned more than the payout (an exception, nothing credited).
 */
export function returnFigures(input: {
  payoutAmount: Decimal;
  returned: Decimal;
  quotedSourceAmount: Decimal;
  quoteRate: Decimal;
  sourceScale: number;
}): ReturnFigures | null {
  if (input.returned.greaterThan(input.payoutAmount) || input.returned.lessThanOrEqualTo(0)) return null;
  const charges = input.payoutAmount.minus(input.returned);
  const chargesInSource = roundCharge(charges.dividedBy(input.quoteRate), input.sourceScale);
  const creditBack = Money.max(ZERO, input.quotedSourceAmount.minus(chargesInSource));
  return { charges, creditBack };
}
