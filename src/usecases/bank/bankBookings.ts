import type { BankEntry } from '../../domain/bank/bankBooks.js';
import { type BookedLine, bookedLines, isBooked, uuidOfCompact } from '../../domain/bank/bankReconciliation.js';
import type { JournalEntry } from '../../domain/ledger/journal.js';
import { bankChargesBooked } from '../../domain/ledger/journalEntries.js';
import { Money } from '../../domain/money/money.js';
import { metrics } from '../../observability/telemetry.js';
import { expectedCredit } from '../../store/bank/bankBooks.js';
import {
  type BookablePayout,
  type NewPayoutBooking,
  type PayoutToBook,
  addPayoutBookingReports,
  completeBankFileItem,
  findPayoutByEndToEndId,
  payoutsToBook,
  recordPayoutBookings,
} from '../../store/bank/bankBookings.js';
import { type DatedEntry, postJournalEntries, postJournalEntry } from '../../store/ledger/ledger.js';
import { settleBatchItems } from '../../store/payouts/payoutBatches.js';
import { getLockedPayrollRequest, touchPayrollRequest } from '../../store/payroll/payrollRequestUpdates.js';
import { type LineContext, atScale, describe, finerThanMinorUnits, ledgerTime, lineException, remember, seenBefore } from './bankBookContext.js';
import { applyReturn } from './bankReturns.js';
import { applySinglePayoutDebit, applySinglePayoutReturn } from './bankSinglePayouts.js';
import { transfersChanged } from '../webhooks/events.js';
import { payrollLedgerOf, requestRefs } from '../payroll/payrollSettlement.js';
import { postPayoutsSettled } from '../payroll/settlementPostings.js';

/**
 * What the bank booked, matched to what we sent: each booked line of a report is a payout paid (its
 * booking kept on it, a payout still PROCESSING completed), a payout returned, or a credit into the
 * account; whatever does not match is an exception. A payroll day's common bookings are applied a
 * chunk at a time, the rest line by line.
 */

/** Entries read and booked per round of statements: a few thousand keeps each statement's parameters, and the lines in memory, small. */
const CHUNK = 4000;

/**
 * A report's booked lines. The common case of a payroll day — a payout pain.002 already reported
 * paid, booked for its amount, once — is applied a chunk at a time: the payouts read, the bookings
 * recorded and the charges posted in a few statements per chunk; the same booking already seen in
 * the other kind of message is recognised the same way. Every other line (a payout still
 * PROCESSING, a return, a credit, an amount or a reference that does not match, a payout named
 * twice in the report) goes through `applyLine`, after them and in its order.
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
  const { currencyCode, decimals } = context.account;
  return (
    line.creditDebit === 'DBIT' &&
    line.endToEndId !== null &&
    line.currency === currencyCode &&
    !finerThanMinorUnits(line, decimals) &&
    !namedTwice.has(endToEndIdOf(line))
  );
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
  const bookings = booked.map(({ line, payout }) => payoutBooking(context, line, payout.transferId));
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

/** A booking matched to a payout: remembered by the bank's identity of it, and kept on the payout (its `bankBooking`). */
function payoutBooking(context: LineContext, line: BookedLine, transferId: string): NewPayoutBooking {
  return {
    transferId,
    identity: line.identity,
    amount: line.amount.toFixed(),
    bookedAt: line.bookedAt,
    booking: {
      bookedAt: line.bookedAt.toISOString(),
      ...(line.bankReference !== null && { bankReference: line.bankReference }),
      charges: atScale(line.charges, context.account.decimals),
    },
  };
}

/** One booked line: a payout paid, a payout returned, or a credit into the account. */
async function applyLine(context: LineContext, line: BookedLine): Promise<void> {
  if (line.currency !== context.account.currencyCode) {
    return lineException(context, line, {
      kind: 'AMOUNT_MISMATCH',
      detail: `${describe(line, context.account.decimals)}: the account is in ${context.account.currencyCode}`,
    });
  }
  if (finerThanMinorUnits(line, context.account.decimals)) {
    // Rounding it would book, or credit back, an amount the bank never wrote.
    return lineException(context, line, {
      kind: 'AMOUNT_PRECISION',
      detail: `${describe(line, context.account.decimals)}: finer than ${context.account.currencyCode}'s ${context.account.decimals} decimal places; nothing moved`,
    });
  }
  if (line.creditDebit === 'DBIT') return applyDebit(context, line);
  if (line.isReturn) return applyReturnLine(context, line);
  return applyCredit(context, line);
}

async function applyDebit(context: LineContext, line: BookedLine): Promise<void> {
  const payout = line.endToEndId ? await findPayoutByEndToEndId(context.tx, line.endToEndId) : null;
  if (!payout) return applySinglePayoutDebit(context, line);
  // A payout the bank reported rejected (pain.002), even before the worker has recorded it, sent nothing.
  const rejected = payout.status === 'FAILED' || payout.fileStatus === 'FAILED';
  const sent = rejected ? new Money(0) : new Money(payout.amount);
  if (rejected && line.amount.equals(payout.amount)) {
    // Not a wrong amount: the bank paid, in full, a payout we failed and credited back to the customer.
    const detail = `${describe(line, context.account.decimals)}: the payout was failed and credited back to the customer, and the bank has now paid it; the money left twice`;
    return lineException(context, line, { kind: 'BOOKED_AFTER_FAILURE', detail, transferId: payout.transferId, expected: sent });
  }
  if (!line.amount.equals(sent)) {
    const detail = `${describe(line, context.account.decimals)}: the payout is ${rejected ? 'FAILED' : payout.status} for ${payout.amount} ${payout.currencyCode}`;
    return lineException(context, line, { kind: 'AMOUNT_MISMATCH', detail, transferId: payout.transferId, expected: sent });
  }
  if (await seenBefore(context, line, 'PAYOUT', payout.transferId, payout.transferId)) return;
  await bookPayout(context, line, payout);
}

/**
 * A payout the bank booked: the booking is recorded on it (before it settles, so that its event
 * carries it); one pain.002 left PROCESSING settles COMPLETED through the batch's own settlement
 * (status, event, journal entry), and the charges booked with it are posted.
 */
async function bookPayout(context: LineContext, line: BookedLine, payout: BookablePayout): Promise<void> {
  const { tx, now } = context;
  const request = await getLockedPayrollRequest(tx, payout.payrollRequestId);
  await recordPayoutBookings(tx, context.msgId, context.messageKind, [payoutBooking(context, line, payout.transferId)]);
  const refs = { ...requestRefs(request), transferId: payout.transferId };
  if (payout.status === 'PROCESSING' && payout.batchId) {
    await completeBankFileItem(tx, payout.transferId, context.msgId, now);
    const batch = { id: payout.batchId, customerId: payout.customerId };
    const items = await settleBatchItems(tx, batch, [{ id: payout.transferId, status: 'COMPLETED', reason: null }], now);
    await transfersChanged(
      tx,
      items.map((item) => ({ id: item.id, wasPending: false })),
      now,
    );
    await postPayoutsSettled(tx, request, items, ledgerTime(line, now));
    await touchPayrollRequest(tx, request.id, now);
    tx.afterCommit(() => {
      for (const item of items) metrics.movement('BANK_TO_BENEFICIARY', 'COMPLETED', request.payrollCurrencyCode, item.amount);
    });
  }
  if (line.charges.greaterThan(0)) await postJournalEntry(tx, bankChargesBooked(payrollLedgerOf(request), line.charges, refs), ledgerTime(line, now));
}

async function applyReturnLine(context: LineContext, line: BookedLine): Promise<void> {
  const payout = line.endToEndId ? await findPayoutByEndToEndId(context.tx, line.endToEndId) : null;
  if (!payout && (await applySinglePayoutReturn(context, line))) return;
  if (!payout) {
    return lineException(context, line, {
      kind: 'UNKNOWN_REFERENCE',
      detail: `Return: ${describe(line, context.account.decimals)}, which is none of our payouts`,
    });
  }
  if (await seenBefore(context, line, 'RETURN', payout.transferId, payout.transferId)) return;
  if (payout.status !== 'COMPLETED') {
    const kind = payout.status === 'RETURNED' ? 'DUPLICATE_BOOKING' : 'UNEXPECTED_CREDIT';
    const detail = `Return: ${describe(line, context.account.decimals)}: the payout is ${payout.status}, nothing to return; no money moved`;
    return lineException(context, line, { kind, detail, transferId: payout.transferId, expected: new Money(0) });
  }
  if (await applyReturn(context, line, payout)) await remember(context, line, 'RETURN', payout.transferId);
}

/** A credit naming a move into the account (the FX conversion's move-to-bank leg) or a funding: matched by amount, once. */
async function applyCredit(context: LineContext, line: BookedLine): Promise<void> {
  const reference = uuidOfCompact(line.endToEndId);
  const expected = reference ? await expectedCredit(context.tx, reference, context.account.accountCurrencyId) : null;
  if (!reference || !expected) {
    return lineException(context, line, { kind: 'UNEXPECTED_CREDIT', detail: `${describe(line, context.account.decimals)}, which is no credit we expect` });
  }
  const amount = new Money(expected.amount);
  if (!line.amount.equals(amount)) {
    const detail = `${describe(line, context.account.decimals)}: ${atScale(amount, context.account.decimals)} was expected`;
    return lineException(context, line, { kind: 'AMOUNT_MISMATCH', detail, transferId: expected.transferId, expected: amount });
  }
  if (await seenBefore(context, line, 'CREDIT', reference, expected.transferId)) return;
  await remember(context, line, 'CREDIT', reference);
}
