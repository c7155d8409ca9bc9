import type { Decimal } from 'decimal.js';
import type { BookedLine } from '../../domain/bank/bankReconciliation.js';
import { fitsScale, formatAtScale } from '../../domain/money/minorUnits.js';
import type { BankAccountOfOurs } from '../../store/bank/bankBooks.js';
import { type MatchedKind, addMatchedBookingReport, matchedBooking, recordMatchedBooking } from '../../store/bank/bankBookings.js';
import type { NewBankException } from '../../store/bank/bankExceptions.js';
import type { Queryable } from '../../store/database/db.js';

/** One account's booked lines being applied: where they came from and the exceptions they raise. */
export interface LineContext {
  tx: Queryable;
  msgId: string;
  /** `wps`: a WPS agent's refund, read as a return (src/usecases/bank/applyWpsAnswer.ts). */
  messageKind: 'camt.053' | 'camt.054' | 'wps';
  account: BankAccountOfOurs;
  now: Date;
  exceptions: NewBankException[];
}

/** An amount at the currency's minor units, or at the bank's own finer precision: never rounded, never "-0.00". */
export const atScale = (value: Decimal, decimals: number): string => formatAtScale(value, Math.max(decimals, value.decimalPlaces()));

/** Whether the bank wrote an amount of the line finer than the currency's minor units. */
export const finerThanMinorUnits = (line: BookedLine, decimals: number): boolean => !fitsScale(line.amount, decimals) || !fitsScale(line.charges, decimals);

/** A line as an exception's detail names it. */
export const describe = (line: BookedLine, decimals: number) =>
  `${line.creditDebit} entry of ${atScale(line.amount, decimals)} ${line.currency}${line.endToEndId ? ` naming EndToEndId ${line.endToEndId}` : ' without an EndToEndId'}`;

/** An exception about one line, with its references and amounts. */
export function lineException(
  context: LineContext,
  line: BookedLine,
  found: { kind: NewBankException['kind']; detail: string; transferId?: string | null; expected?: Decimal | null },
): void {
  const { decimals } = context.account;
  const expected = found.expected ?? null;
  context.exceptions.push({
    kind: found.kind,
    detail: found.detail,
    accountCurrencyId: context.account.accountCurrencyId,
    transferId: found.transferId ?? null,
    endToEndId: line.endToEndId,
    bankReference: line.bankReference,
    entryReference: line.entryReference,
    creditDebit: line.creditDebit,
    bookedAmount: atScale(line.amount, decimals),
    expectedAmount: expected && atScale(expected, decimals),
    difference: expected && atScale(line.amount.minus(expected), decimals),
    currencyCode: line.currency,
    bookedAt: line.bookedAt,
  });
}

/** When the journal entries a booking causes are dated: its booking date, never later than now (the statement of that day counts them). */
export const ledgerTime = (line: BookedLine, now: Date): Date => (line.bookedAt < now ? line.bookedAt : now);

/**
 * Whether the booking was matched before. The same booking (its bank identity) reported by the other
 * kind of message (a camt.054, then the day's camt.053) is recognised silently; another booking,
 * or the same one reported twice by one kind of message, is a DUPLICATE_BOOKING and changes nothing.
 */
export async function seenBefore(context: LineContext, line: BookedLine, kind: MatchedKind, reference: string, transferId: string | null): Promise<boolean> {
  const known = await matchedBooking(context.tx, kind, reference);
  if (known === null) return false;
  if (known.identity === line.identity && !known.reportedIn.includes(context.messageKind)) {
    await addMatchedBookingReport(context.tx, kind, reference, context.messageKind);
    return true;
  }
  const again = known.identity === line.identity ? `this very booking in another ${context.messageKind}` : `another booking (reference ${known.identity})`;
  const detail = `${describe(line, context.account.decimals)}: the bank reported ${again} of this ${kind.toLowerCase()} before; no money moved`;
  lineException(context, line, { kind: 'DUPLICATE_BOOKING', detail, transferId });
  return true;
}

export const remember = (context: LineContext, line: BookedLine, kind: MatchedKind, reference: string) =>
  recordMatchedBooking(context.tx, {
    kind,
    reference,
    identity: line.identity,
    msgId: context.msgId,
    messageKind: context.messageKind,
    amount: line.amount.toFixed(),
    bookedAt: line.bookedAt,
  });
