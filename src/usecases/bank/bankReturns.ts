import { type BookedLine, returnFigures } from '../../domain/bank/bankReconciliation.js';
import { payoutReturned } from '../../domain/ledger/journalEntries.js';
import { Money } from '../../domain/money/money.js';
import { statusAfterReturn } from '../../domain/payroll/payrollStatus.js';
import { type BookablePayout, returnTransfer } from '../../store/bank/bankBookings.js';
import { postJournalEntries } from '../../store/ledger/ledger.js';
import { payoutOutcomeCounts } from '../../store/payouts/payoutBatches.js';
import { getLockedPayrollRequest, quotedRequest, setFailureReason } from '../../store/payroll/payrollRequestUpdates.js';
import { type LineContext, atScale, ledgerTime, lineException } from './bankBookContext.js';
import { recordStatusChange, transferChanged } from '../webhooks/events.js';
import { payrollLedgerOf, requestRefs, scalesOf } from '../payroll/payrollSettlement.js';

/**
 * A paid payout the bank returned (docs/bank-files.md, "The life of a returned payout"): the
 * payout becomes RETURNED with the return's reason, date and amounts; the customer is credited
 * back its split's quoted source amount less the return's charges at the accepted quote rate, in a
 * balanced journal entry; the request's final status is revised when the return changes it. A
 * return larger than the payout moves nothing and is an AMOUNT_MISMATCH. False when nothing moved.
 */
export async function applyReturn(context: LineContext, line: BookedLine, payout: BookablePayout): Promise<boolean> {
  const { tx, now } = context;
  const request = quotedRequest(await getLockedPayrollRequest(tx, payout.payrollRequestId));
  const scales = scalesOf(request);
  const payoutAmount = new Money(payout.amount);
  const figures = returnFigures({
    payoutAmount,
    returned: line.amount,
    quotedSourceAmount: new Money(payout.quotedSourceAmount ?? 0),
    quoteRate: new Money(request.quoteRate),
    sourceScale: scales.source,
  });
  if (!figures) {
    const detail = `Return of ${atScale(line.amount, context.account.decimals)} ${line.currency} for a payout of ${payout.amount}: larger than the payout, or nothing; no money moved`;
    lineException(context, line, { kind: 'AMOUNT_MISMATCH', detail, transferId: payout.transferId, expected: payoutAmount });
    return false;
  }
  const reason = line.returnReason;
  const returned = await returnTransfer(tx, payout.transferId, {
    ...(reason?.code && { reasonCode: reason.code }),
    ...(reason?.text && { reasonText: reason.text.slice(0, 500) }),
    bookedAt: line.bookedAt.toISOString(),
    ...(line.bankReference !== null && { bankReference: line.bankReference }),
    amount: atScale(line.amount, request.payrollDecimals),
    charges: atScale(figures.charges, request.payrollDecimals),
    creditedAmount: atScale(figures.creditBack, scales.source),
  });
  if (!returned) return false;
  const refs = { ...requestRefs(request), transferId: payout.transferId };
  const entries = payoutReturned(payrollLedgerOf(request), line.amount, figures.creditBack, refs);
  await postJournalEntries(tx, [
    { entry: entries.toBank, at: ledgerTime(line, now) },
    { entry: entries.creditBack, at: now },
  ]);
  await transferChanged(tx, payout.transferId, now);
  const counts = await payoutOutcomeCounts(tx, request.id);
  const revised = counts.open > 0 ? null : statusAfterReturn(request.status, counts.completed, counts.failed);
  if (revised === 'FAILED')
    await setFailureReason(tx, request.id, 'Every payout failed or was returned by the bank; each was credited back to the source account (returnedAmount)');
  if (revised) await recordStatusChange(tx, request, revised, now);
  return true;
}
