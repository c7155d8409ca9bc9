import type { BankEntry } from '../domain/bankBooks.js';
import { type BookedLine, bookedLines, isBooked } from '../domain/bankReconciliation.js';
import type { JournalEntry } from '../domain/journal.js';
import { bankChargesBooked } from '../domain/journalEntries.js';
import { Money } from '../domain/money.js';
import { type NewPayoutBooking, type PayoutToBook, addPayoutBookingReports, payoutsToBook, recordPayoutBookings } from '../store/bankBookBulk.js';
import { type DatedEntry, postJournalEntries } from '../store/ledger.js';
import { getLockedPayrollRequest } from '../store/payrollRequestUpdates.js';
import { type LineContext, atScale, ledgerTime } from './bankBookContext.js';
import { applyLine } from './bankBookLines.js';
import { payrollLedgerOf, requestRefs } from './payrollSettlement.js';

/** Entries read and booked per round of statements: a few thousand keeps each statement's parameters, and the lines in memory, small. */
const CHUNK = 4000;

/**
 * A report's booked lines. The common case of a payroll day — a payout pain.002 already reported
 * paid, booked for its amount, once — is applied a chunk at a time: the payouts read, the bookings
 * recorded and the charges posted in a few statements per chunk; the same booking already seen in
 * the other kind of message is recognised the same way. Every other line (a payout still
 * PROCESSING, a return, a credit, an amount or a reference that does not match, a payout named
 * twice in the report) goes through `applyLine`, after them and in its order, exactly as before.
 */
export async function applyBookedEntries(context: LineContext, entries: readonly BankEntry[], fallbackDate: Date): Promise<void> {
  const booked = entries.filter(isBooked);
  const namedTwice = payoutsNamedTwice(booked);
  const rest: BookedLine[] = [];
  for (let start = 0; start < booked.length; start += CHUNK) {
    const chunk = booked.slice(start, start + CHUNK).flatMap((entry) => bookedLines(entry, fallbackDate));
    const candidates = new Set(chunk.filter((line) => isCandidate(context, line, namedTwice)));
    const payouts = new Map((await payoutsToBook(context.tx, [...candidates].map(endToEndIdOf))).map((payout) => [payout.endToEndId, payout]));
    const fresh: { line: BookedLine; payout: PayoutToBook }[] = [];
    const reportedAgain: string[] = [];
    for (const line of chunk) {
      const payout = candidates.has(line) ? payouts.get(endToEndIdOf(line)) : undefined;
      const fits = payout !== undefined && payout.status === 'COMPLETED' && payout.fileStatus === 'COMPLETED' && line.amount.equals(payout.amount);
      if (fits && payout.matchedIdentity === null) fresh.push({ line, payout });
      else if (fits && payout.matchedIdentity === line.identity && !payout.reportedIn!.includes(context.messageKind)) reportedAgain.push(payout.transferId);
      else rest.push(line);
    }
    await bookCompletedPayouts(context, fresh);
    await addPayoutBookingReports(context.tx, reportedAgain, context.messageKind);
  }
  for (const line of rest) await applyLine(context, line);
}

const endToEndIdOf = (line: BookedLine): string => line.endToEndId!.toLowerCase();

function isCandidate(context: LineContext, line: BookedLine, namedTwice: ReadonlySet<string>): boolean {
  return line.creditDebit === 'DBIT' && line.endToEndId !== null && line.currency === context.account.currencyCode && !namedTwice.has(endToEndIdOf(line));
}

/** The EndToEndIds more than one debit of the report names (as `bookedLines` reads them): their lines go one by one (the second is a duplicate). */
function payoutsNamedTwice(entries: readonly BankEntry[]): Set<string> {
  const seen = new Set<string>();
  const twice = new Set<string>();
  for (const entry of entries)
    for (const transaction of entry.transactions) {
      const endToEndId = transaction.endToEndId?.trim();
      if ((transaction.creditDebit ?? entry.creditDebit) !== 'DBIT' || !endToEndId) continue;
      const id = endToEndId.toLowerCase();
      if (seen.has(id)) twice.add(id);
      seen.add(id);
    }
  return twice;
}

/** Completed payouts the bank booked: the bookings recorded on them and matched, the charges booked with them posted (one balanced entry each). */
async function bookCompletedPayouts(context: LineContext, booked: readonly { line: BookedLine; payout: PayoutToBook }[]): Promise<void> {
  if (booked.length === 0) return;
  const { tx, now } = context;
  const bookings: NewPayoutBooking[] = booked.map(({ line, payout }) => ({
    transferId: payout.transferId,
    identity: line.identity,
    amount: line.amount.toFixed(),
    bookedAt: line.bookedAt,
    booking: {
      bookedAt: line.bookedAt.toISOString(),
      ...(line.bankReference !== null && { bankReference: line.bankReference }),
      charges: atScale(line.charges, context.account.decimals),
    },
  }));
  await recordPayoutBookings(tx, context.msgId, context.messageKind, bookings);
  const charged = booked.filter(({ line }) => line.charges.greaterThan(0));
  const requests = new Map<string, Awaited<ReturnType<typeof getLockedPayrollRequest>>>();
  // Locked in one order, as the line-by-line path locks each request it books on.
  for (const id of [...new Set(charged.map(({ payout }) => payout.payrollRequestId))].sort()) requests.set(id, await getLockedPayrollRequest(tx, id));
  const entries: DatedEntry[] = charged.map(({ line, payout }) => {
    const request = requests.get(payout.payrollRequestId)!;
    const entry: JournalEntry = bankChargesBooked(payrollLedgerOf(request), new Money(line.charges), {
      ...requestRefs(request),
      transferId: payout.transferId,
    });
    return { entry, at: ledgerTime(line, now) };
  });
  await postJournalEntries(tx, entries);
}
