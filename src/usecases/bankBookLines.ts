import { type BookedLine, uuidOfCompact } from '../domain/bankReconciliation.js';
import { bankChargesBooked } from '../domain/journalEntries.js';
import { Money } from '../domain/money.js';
import { metrics } from '../observability/telemetry.js';
import {
  type BookablePayout,
  completeBankFileItem,
  expectedCredit,
  findPayoutByEndToEndId,
  findSinglePayoutByEndToEndId,
  type MatchedKind,
  addMatchedBookingReport,
  matchedBooking,
  recordMatchedBooking,
  setTransferBankBooking,
} from '../store/bankBooks.js';
import { postJournalEntry } from '../store/ledger.js';
import { settleBatchItems } from '../store/payoutBatches.js';
import { getLockedPayrollRequest, touchPayrollRequest } from '../store/payrollRequestUpdates.js';
import { type LineContext, atScale, ledgerTime, lineException } from './bankBookContext.js';
import { applyReturn } from './bankReturns.js';
import { transfersChanged } from './events.js';
import { payrollLedgerOf, requestRefs } from './payrollSettlement.js';
import { postPayoutsSettled } from './settlementPostings.js';

const describe = (line: BookedLine, decimals: number) =>
  `${line.creditDebit} entry of ${atScale(line.amount, decimals)} ${line.currency}${line.endToEndId ? ` naming EndToEndId ${line.endToEndId}` : ' without an EndToEndId'}`;

/** One booked line: a payout paid, a payout returned, or a credit into the account. */
export async function applyLine(context: LineContext, line: BookedLine): Promise<void> {
  if (line.currency !== context.account.currencyCode) {
    return lineException(context, line, {
      kind: 'AMOUNT_MISMATCH',
      detail: `${describe(line, context.account.decimals)}: the account is in ${context.account.currencyCode}`,
    });
  }
  if (line.creditDebit === 'DBIT') return applyDebit(context, line);
  if (line.isReturn) return applyReturnLine(context, line);
  return applyCredit(context, line);
}

/**
 * Whether the booking was matched before. The same booking (its bank identity) reported by the other
 * kind of message (a camt.054, then the day's camt.053) is recognised silently; another booking,
 * or the same one reported twice by one kind of message, is a DUPLICATE_BOOKING and changes nothing.
 */
async function seenBefore(context: LineContext, line: BookedLine, kind: MatchedKind, reference: string, transferId: string | null): Promise<boolean> {
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

const remember = (context: LineContext, line: BookedLine, kind: MatchedKind, reference: string) =>
  recordMatchedBooking(context.tx, {
    kind,
    reference,
    identity: line.identity,
    msgId: context.msgId,
    messageKind: context.messageKind,
    amount: line.amount.toFixed(),
    bookedAt: line.bookedAt,
  });

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
  await remember(context, line, 'PAYOUT', payout.transferId);
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
  await setTransferBankBooking(tx, payout.transferId, {
    bookedAt: line.bookedAt.toISOString(),
    ...(line.bankReference !== null && { bankReference: line.bankReference }),
    charges: atScale(line.charges, context.account.decimals),
  });
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

/** A single payout's booking is matched (its amount, once); anything else debited is unknown. */
async function applySinglePayoutDebit(context: LineContext, line: BookedLine): Promise<void> {
  const single = line.endToEndId ? await findSinglePayoutByEndToEndId(context.tx, line.endToEndId) : null;
  if (!single) {
    return lineException(context, line, { kind: 'UNKNOWN_REFERENCE', detail: `${describe(line, context.account.decimals)}, which is none of our payouts` });
  }
  if (!line.amount.equals(single.amount)) {
    const detail = `${describe(line, context.account.decimals)}: single payout ${single.payoutId} is for ${single.amount}`;
    return lineException(context, line, { kind: 'AMOUNT_MISMATCH', detail, expected: new Money(single.amount) });
  }
  if (await seenBefore(context, line, 'PAYOUT', single.payoutId, null)) return;
  await remember(context, line, 'PAYOUT', single.payoutId);
}

async function applyReturnLine(context: LineContext, line: BookedLine): Promise<void> {
  const payout = line.endToEndId ? await findPayoutByEndToEndId(context.tx, line.endToEndId) : null;
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
