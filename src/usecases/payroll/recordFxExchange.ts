import { randomUUID } from 'node:crypto';
import type { components } from '../../../generated/api.js';
import { DomainError } from '../../domain/errors.js';
import { fxConverted } from '../../domain/ledger/journalEntries.js';
import { assertRate } from '../../domain/money/minorUnits.js';
import { Money, formatExact, parseAmount } from '../../domain/money/money.js';
import { assertTransition } from '../../domain/payroll/payrollStatus.js';
import { DEFAULT_FX_RECORD_TOLERANCE_BPS, assertFxRecordRate, fxRecordFigures } from '../../domain/payroll/settlement.js';
import { fxResultView } from '../../domain/payroll/settlementView.js';
import type { TransferType } from '../../domain/payroll/transfers.js';
import { metrics } from '../../observability/telemetry.js';
import { postJournalEntry } from '../../store/ledger/ledger.js';
import { insertPayoutBatch } from '../../store/payouts/payoutBatches.js';
import { refreshPlannerStatisticsAfterPayoutsCreated, replanForTheTablesAsTheyAreNow } from '../../store/database/statistics.js';
import type { Queryable } from '../../store/database/db.js';
import { insertFxExchange, insertPayoutsOfSplits, quotedPayoutAmountsOf, transferStatuses } from '../../store/payroll/payrollLifecycle.js';
import { type LockedPayrollRequest, quotedRequest } from '../../store/payroll/payrollRequestUpdates.js';
import type { UseCaseDeps } from '../deps.js';
import { type PayrollRequestAnswer, recordStatusChangeAnswered } from '../webhooks/events.js';
import { lockRequestFor } from './payrollAccess.js';
import { payrollLedgerOf, requestRefs, sameCurrency, scalesOf } from './payrollSettlement.js';
import { type Principal, requireAdmin } from '../access/principal.js';

/**
 * Admin: record the FX exchange the platform actually made once the source funds reached the
 * payroll bank, then create one payout per split for exactly its accepted `quotedAmount`.
 *
 * The recorded rate must lie within FX_RECORD_TOLERANCE_BPS of the accepted quote (a typo can no
 * longer create or destroy money) and changes no payout: toAmount = fromAmount × rate, rounded down
 * to the payroll scale, and toAmount − Σ payouts is the platform's FX result (gain or loss), booked
 * in the same journal entry that moves the source amount out and the payroll amount in.
 */
export async function recordFxExchange(
  deps: UseCaseDeps,
  caller: Principal,
  requestId: string,
  body: components['schemas']['RecordFxExchangeRequest'],
): Promise<PayrollRequestAnswer> {
  requireAdmin(caller);
  const rate = new Money(body.exchangeRate);
  assertRate(rate, 'body.exchangeRate');
  const { answer, payouts } = await deps.db.transaction(async (tx) => {
    const now = deps.clock();
    const request = await lockRequestFor(tx, caller, requestId);
    assertTransition(requestId, request.status, 'recordFxExchange');
    const transfers = await transferStatuses(tx, requestId);
    const completed = (type: TransferType) => transfers.some((transfer) => transfer.transferType === type && transfer.status === 'COMPLETED');
    if (!completed('PROCESSOR_INTERNAL_DEBIT') || !completed('PROCESSOR_TO_BANK')) {
      throw new DomainError(
        'INVALID_STATE',
        `Payroll request ${requestId} is EXECUTING; the source debit and the move to the payroll bank must complete first`,
        { reason: 'TRANSFERS_NOT_SETTLED' },
      );
    }
    const tolerance = deps.config.fxRecordToleranceBps ?? DEFAULT_FX_RECORD_TOLERANCE_BPS;
    assertFxRecordRate(rate, new Money(quotedRequest(request).quoteRate), tolerance, sameCurrency(request));
    const scales = scalesOf(request);
    const quoted = (await quotedPayoutAmountsOf(tx, requestId)).map((amount) => ({ quotedAmount: parseAmount(amount) }));
    const fx = fxRecordFigures(new Money(request.sourceAmountForExchange), rate, scales.payroll, quoted);
    const spreadFee = request.metadata.feeBreakdown.spreadFee;
    const result = fxResultView(fx, scales);
    await insertFxExchange(tx, {
      id: randomUUID(),
      requestId,
      fromCurrencyCode: request.sourceCurrencyCode,
      toCurrencyCode: request.payrollCurrencyCode,
      fromAmount: request.sourceAmountForExchange,
      ...result,
      exchangeRate: formatExact(rate),
      fee: { id: randomUUID(), amount: spreadFee, finalInternalFee: spreadFee },
      recordedByUserId: caller.userId,
      at: now,
    });
    await createPayouts(tx, request, quoted.length, now);
    const answer = await recordStatusChangeAnswered(tx, request, 'PAYOUT_INITIATED', now);
    // Last: the entry locks the platform's bank accounts, which every customer's money moves
    // through, so they are held only from here to the commit, not while thousands of payouts are written.
    await postJournalEntry(tx, fxConverted(payrollLedgerOf(request), fx, requestRefs(request)), now);
    tx.afterCommit(() => metrics.fxResult(request.payrollCurrencyCode, fx.fxResultAmount.toString()));
    return { answer, payouts: quoted.length };
  });
  await refreshPlannerStatisticsAfterPayoutsCreated(deps.db, payouts);
  return answer;
}

/**
 * One BANK_TO_BENEFICIARY transfer per split, for its quoted amount. The bank fee was charged once,
 * in the source currency, in the fee breakdown; the payouts carry no fee of their own. They go to
 * the bank as one batch, recorded here before the bank hears of it.
 */
async function createPayouts(tx: Queryable, request: LockedPayrollRequest, splitCount: number, now: Date): Promise<void> {
  const batchId = randomUUID();
  const currencyCode = request.payrollCurrencyCode;
  await insertPayoutBatch(tx, { id: batchId, requestId: request.id, currencyCode, itemCount: splitCount, at: now });
  const made = await insertPayoutsOfSplits(tx, { id: request.id, currencyCode, batchId }, now);
  if (made !== splitCount) throw new Error(`Payroll request ${request.id}: ${made} payouts made for ${splitCount} splits`);
  // The answer and the event read each split's new payout: planned for the table as it is now.
  await replanForTheTablesAsTheyAreNow(tx);
}
