import type { JournalEntry } from '../../domain/ledger/journal.js';
import {
  type SinglePayout,
  bankLegCompleted,
  bankLegFailed,
  payoutFailedCreditBack,
  payoutSent,
  processorLegCompleted,
  processorLegFailed,
  singlePayoutRefunded,
  singlePayoutSent,
} from '../../domain/ledger/journalEntries.js';
import { Money } from '../../domain/money/money.js';
import type { TransferOutcome } from '../../domain/payroll/transfers.js';
import type { Queryable } from '../../store/database/db.js';
import { postJournalEntries, postJournalEntry } from '../../store/ledger/ledger.js';
import type { SettledItem } from '../../store/payouts/payoutBatches.js';
import type { LockedPayrollRequest } from '../../store/payroll/payrollRequestUpdates.js';
import { findPayout } from '../../store/payouts/payouts.js';
import { lockedFeesOf, payrollLedgerOf, requestRefs } from './payrollSettlement.js';

/**
 * The journal entries of the execution, one per settled transfer or payout (docs/settlement.md):
 * the worker calls these in the transaction that records the outcomes.
 */

/** PROCESSOR_INTERNAL_DEBIT and PROCESSOR_TO_BANK: fees earned and the bank leg funded, or everything returned. */
export async function postLegSettled(
  tx: Queryable,
  request: LockedPayrollRequest,
  leg: 'PROCESSOR_INTERNAL_DEBIT' | 'PROCESSOR_TO_BANK',
  outcome: TransferOutcome,
  transferId: string,
  at: Date,
): Promise<void> {
  const ledger = payrollLedgerOf(request);
  const refs = { ...requestRefs(request), transferId };
  const fees = lockedFeesOf(request);
  const forExchange = new Money(request.sourceAmountForExchange);
  let entry: JournalEntry;
  if (leg === 'PROCESSOR_INTERNAL_DEBIT') {
    entry = outcome === 'COMPLETED' ? processorLegCompleted(ledger, fees, refs) : processorLegFailed(ledger, new Money(request.totalAmount), refs);
  } else {
    entry = outcome === 'COMPLETED' ? bankLegCompleted(ledger, forExchange, refs) : bankLegFailed(ledger, fees, forExchange, refs);
  }
  await postJournalEntry(tx, entry, at);
}

/**
 * Payouts the bank settled, one journal entry each, posted together: COMPLETED, its quoted amount
 * leaves the partner-bank account; FAILED, it stays there (the bank never paid it) and the customer
 * is credited the split's quoted source amount (shown on the split by the store's settle statement).
 */
export async function postPayoutsSettled(tx: Queryable, request: LockedPayrollRequest, items: readonly SettledItem[], at: Date): Promise<void> {
  const ledger = payrollLedgerOf(request);
  const entries = items.map((item) => {
    const refs = { ...requestRefs(request), transferId: item.id };
    const amount = new Money(item.amount);
    if (item.status === 'COMPLETED') return { entry: payoutSent(ledger, amount, refs), at };
    if (!item.quotedSourceAmount) throw new Error(`Payout ${item.id} has no quoted split to credit back`);
    return { entry: payoutFailedCreditBack(ledger, new Money(item.quotedSourceAmount), refs), at };
  });
  await postJournalEntries(tx, entries);
}

/** A single payout: amount out and fees earned, or its whole total back to the account currency. */
export async function postSinglePayoutSettled(tx: Queryable, payoutId: string, outcome: TransferOutcome, at: Date): Promise<void> {
  const row = await findPayout(tx, payoutId);
  if (!row) throw new Error(`Payout ${payoutId} vanished while settling`);
  const payout: SinglePayout = {
    accountCurrencyId: row.accountCurrencyId,
    currency: row.currencyCode,
    amount: new Money(row.amount),
    fee: new Money(row.fee),
    internalFee: new Money(row.internalFee),
  };
  const refs = { payoutId };
  await postJournalEntry(tx, outcome === 'COMPLETED' ? singlePayoutSent(payout, refs) : singlePayoutRefunded(payout, refs), at);
}
