import { type BookedLine, returnFigures } from '../../domain/bank/bankReconciliation.js';
import { singlePayoutReturned } from '../../domain/ledger/journalEntries.js';
import { Money } from '../../domain/money/money.js';
import { completeBankFileItem, findSinglePayoutByEndToEndId, returnSinglePayout, setPayoutBankBooking } from '../../store/bank/bankBookings.js';
import { postJournalEntry } from '../../store/ledger/ledger.js';
import { type LineContext, atScale, describe, ledgerTime, lineException, remember, seenBefore } from './bankBookContext.js';
import { payoutChanged } from '../webhooks/events.js';

/**
 * A single payout in the bank's books, as a payroll payout is (src/usecases/bank/bankBookings.ts): its
 * booking is matched once and kept on it, and a return sends the money back to the account it was
 * paid from. A single payout is one currency throughout, so what the customer gets back is what the
 * bank brought back.
 */

/** A debit naming a single payout: booked once for its amount; anything else debited is unknown. */
export async function applySinglePayoutDebit(context: LineContext, line: BookedLine): Promise<void> {
  const { tx, now } = context;
  const single = line.endToEndId ? await findSinglePayoutByEndToEndId(tx, line.endToEndId) : null;
  if (!single) {
    return lineException(context, line, { kind: 'UNKNOWN_REFERENCE', detail: `${describe(line, context.account.decimals)}, which is none of our payouts` });
  }
  const transferId = single.payoutId;
  // A payout the bank reported rejected (pain.002), even before the worker has recorded it, sent nothing.
  const rejected = single.status === 'FAILED' || single.fileStatus === 'FAILED';
  const sent = rejected ? new Money(0) : new Money(single.amount);
  if (rejected && line.amount.equals(single.amount)) {
    const detail = `${describe(line, context.account.decimals)}: single payout ${single.payoutId} was failed and refunded to the customer, and the bank has now paid it; the money left twice`;
    return lineException(context, line, { kind: 'BOOKED_AFTER_FAILURE', detail, transferId, expected: sent });
  }
  if (!line.amount.equals(sent)) {
    const detail = `${describe(line, context.account.decimals)}: single payout ${single.payoutId} is ${rejected ? 'FAILED' : single.status} for ${single.amount}`;
    return lineException(context, line, { kind: 'AMOUNT_MISMATCH', detail, transferId, expected: sent });
  }
  if (await seenBefore(context, line, 'PAYOUT', single.payoutId, transferId)) return;
  await remember(context, line, 'PAYOUT', single.payoutId);
  await setPayoutBankBooking(
    tx,
    single.payoutId,
    {
      bookedAt: line.bookedAt.toISOString(),
      ...(line.bankReference !== null && { bankReference: line.bankReference }),
      charges: atScale(line.charges, context.account.decimals),
    },
    now,
  );
  // Still PROCESSING (no pain.002 said it was paid): booked is paid, and the worker completes it as an ACSC would.
  if (single.status === 'PROCESSING') await completeBankFileItem(tx, single.payoutId, context.msgId, now);
}

/**
 * A return naming a single payout: a COMPLETED payout becomes RETURNED, what the bank brought back
 * is credited to the account currency it was paid from in one balanced entry, and the payout's
 * event is recorded. Returns false when the line names no single payout of ours.
 */
export async function applySinglePayoutReturn(context: LineContext, line: BookedLine): Promise<boolean> {
  const { tx, now } = context;
  const single = line.endToEndId ? await findSinglePayoutByEndToEndId(tx, line.endToEndId) : null;
  if (!single) return false;
  const transferId = single.payoutId;
  if (await seenBefore(context, line, 'RETURN', single.payoutId, transferId)) return true;
  if (single.status !== 'COMPLETED') {
    const kind = single.status === 'RETURNED' ? 'DUPLICATE_BOOKING' : 'UNEXPECTED_CREDIT';
    const detail = `Return: ${describe(line, context.account.decimals)}: the payout is ${single.status}, nothing to return; no money moved`;
    lineException(context, line, { kind, detail, transferId, expected: new Money(0) });
    return true;
  }
  const { decimals } = context.account;
  const payoutAmount = new Money(single.amount);
  // One currency: the quote is 1, so the customer gets back exactly what the bank brought back.
  const figures = returnFigures({ payoutAmount, returned: line.amount, quotedSourceAmount: payoutAmount, quoteRate: new Money(1), sourceScale: decimals });
  if (!figures) {
    const detail = `Return of ${atScale(line.amount, decimals)} ${line.currency} for a payout of ${single.amount}: larger than the payout, or nothing; no money moved`;
    lineException(context, line, { kind: 'AMOUNT_MISMATCH', detail, transferId, expected: payoutAmount });
    return true;
  }
  const reason = line.returnReason;
  const returned = await returnSinglePayout(
    tx,
    single.payoutId,
    {
      ...(reason?.code && { reasonCode: reason.code }),
      ...(reason?.text && { reasonText: reason.text.slice(0, 500) }),
      bookedAt: line.bookedAt.toISOString(),
      ...(line.bankReference !== null && { bankReference: line.bankReference }),
      amount: atScale(line.amount, decimals),
      charges: atScale(figures.charges, decimals),
      creditedAmount: atScale(figures.creditBack, decimals),
    },
    now,
  );
  if (!returned) return true;
  const account = { accountCurrencyId: single.accountCurrencyId, currency: single.currencyCode };
  await postJournalEntry(tx, singlePayoutReturned(account, figures.creditBack, { payoutId: single.payoutId }), ledgerTime(line, now));
  await payoutChanged(tx, single.payoutId, now);
  await remember(context, line, 'RETURN', single.payoutId);
  return true;
}
