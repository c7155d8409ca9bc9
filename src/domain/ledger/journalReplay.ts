import type { components } from '../../../generated/api.js';
import type { Decimal } from 'decimal.js';
import type { JournalEntry, JournalRefs } from './journal.js';
import {
  type LockedFees,
  type PayrollLedger,
  acceptSettled,
  bankLegCompleted,
  bankLegFailed,
  fxConverted,
  payoutFailedCreditBack,
  payoutSent,
  payrollCancelled,
  payrollCreated,
  processorLegCompleted,
  processorLegFailed,
} from './journalEntries.js';
import { type FxRecordFigures, type QuoteFigures, type QuotedSplit, creditBackFor } from '../payroll/settlement.js';

type TransferStatus = components['schemas']['TransferStatus'];

/**
 * The journal entries a payroll request's history implies, in order: what the world loader posts
 * for a request it loads in any status, and what the use cases post one by one as it happens.
 */
export interface PayrollHistory {
  ledger: PayrollLedger;
  refs: JournalRefs;
  /** What the creation debited (the estimate's totalAmount). */
  debitedAmount: Decimal;
  fees: LockedFees;
  cancelled: boolean;
  /** The figures of the accepted quote; null while not accepted. */
  accepted: QuoteFigures | null;
  /** Status of PROCESSOR_INTERNAL_DEBIT and PROCESSOR_TO_BANK; null before they exist. */
  processorLeg: TransferStatus | null;
  bankLeg: TransferStatus | null;
  fx: FxRecordFigures | null;
  payouts: ReadonlyArray<{ split: QuotedSplit; status: TransferStatus; transferId?: string }>;
}

/** Creation, then cancel, or accept and as much of the execution as has settled. */
export function replayPayrollHistory(history: PayrollHistory): JournalEntry[] {
  const { ledger, refs } = history;
  const entries = [payrollCreated(ledger, history.debitedAmount, refs)];
  if (history.cancelled) return [...entries, payrollCancelled(ledger, history.debitedAmount, refs)];
  if (!history.accepted) return entries;
  const accept = acceptSettled(ledger, settlementOf(history.accepted.adjustmentAmount), refs);
  if (accept) entries.push(accept);
  return [...entries, ...replayExecution(history, history.accepted)];
}

function settlementOf(adjustment: Decimal) {
  if (adjustment.isZero()) return { kind: 'NONE' as const };
  return adjustment.isNegative() ? { kind: 'REFUND' as const, amount: adjustment.negated() } : { kind: 'TOP_UP' as const, amount: adjustment };
}

function replayExecution(history: PayrollHistory, accepted: QuoteFigures): JournalEntry[] {
  const { ledger, refs } = history;
  if (history.processorLeg === 'FAILED') return [processorLegFailed(ledger, accepted.totalAmount, refs)];
  if (history.processorLeg !== 'COMPLETED') return [];
  const entries = [processorLegCompleted(ledger, history.fees, refs)];
  if (history.bankLeg === 'FAILED') return [...entries, bankLegFailed(ledger, history.fees, accepted.sourceAmountForExchange, refs)];
  if (history.bankLeg !== 'COMPLETED') return entries;
  entries.push(bankLegCompleted(ledger, accepted.sourceAmountForExchange, refs));
  if (!history.fx) return entries;
  entries.push(fxConverted(ledger, history.fx, refs));
  for (const payout of history.payouts) {
    const payoutRefs = payout.transferId ? { ...refs, transferId: payout.transferId } : refs;
    if (payout.status === 'COMPLETED') entries.push(payoutSent(ledger, payout.split.quotedAmount, payoutRefs));
    if (payout.status === 'FAILED') entries.push(payoutFailedCreditBack(ledger, creditBackFor(payout.split), payoutRefs));
  }
  return entries;
}
