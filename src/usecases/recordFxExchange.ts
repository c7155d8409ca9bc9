import { randomUUID } from 'node:crypto';
import type { components } from '../../generated/api.js';
import { DomainError, validationError } from '../domain/errors.js';
import { Money, formatAmount, formatExact, roundDown } from '../domain/money.js';
import { payrollScaleOf as payrollScale } from '../domain/minorUnits.js';
import { assertTransition } from '../domain/payrollStatus.js';
import type { TransferType } from '../domain/transfers.js';
import type { Queryable } from '../store/db.js';
import { creditFunds } from '../store/ledger.js';
import { insertFxExchange, insertTransfers, splitsOf, transferStatuses } from '../store/payrollLifecycle.js';
import type { LockedPayrollRequest } from '../store/payrollRequestUpdates.js';
import type { UseCaseDeps } from './deps.js';
import { recordStatusChange } from './events.js';
import { lockRequestFor } from './payrollAccess.js';
import { type Principal, requireAdmin } from './principal.js';
import { reloadPayrollRequest } from './views/payrollRequest.js';

/**
 * Admin: record the FX exchange actually made once the source funds reached the payroll bank,
 * then create one payout per split at the actual rate.
 *
 * toAmount = fromAmount × rate, rounded down to the payroll scale; each payout = its split's
 * source amount × rate, rounded down. A sum of roundings down never exceeds the rounding down of
 * the sum, so Σ payouts ≤ toAmount; the remainder (under one minor unit per beneficiary) stays
 * in the partner-bank payroll account as the rounding residual.
 */
export async function recordFxExchange(
  deps: UseCaseDeps,
  caller: Principal,
  requestId: string,
  body: components['schemas']['RecordFxExchangeRequest'],
): Promise<components['schemas']['PayrollRequest']> {
  requireAdmin(caller);
  const rate = new Money(body.exchangeRate);
  if (!rate.greaterThan(0)) throw validationError('body.exchangeRate must be greater than zero');
  return deps.db.transaction(async (tx) => {
    const now = deps.clock();
    const request = await lockRequestFor(tx, caller, requestId);
    assertTransition(requestId, request.status, 'recordFxExchange');
    const transfers = await transferStatuses(tx, requestId);
    const completed = (type: TransferType) => transfers.some((transfer) => transfer.transfer_type === type && transfer.status === 'COMPLETED');
    if (!completed('PROCESSOR_INTERNAL_DEBIT') || !completed('PROCESSOR_TO_BANK')) {
      throw new DomainError('INVALID_STATE', `Payroll request ${requestId} is EXECUTING; the source debit and the move to the payroll bank must complete first`);
    }

    const scale = payrollScale(request.payroll_decimals);
    const fromAmount = new Money(request.source_amount_for_exchange);
    const toAmount = roundDown(fromAmount.times(rate), scale);
    const spreadFee = request.metadata.feeBreakdown.spreadFee;
    await insertFxExchange(tx, {
      id: randomUUID(),
      requestId,
      fromCurrencyCode: request.source_currency_code,
      toCurrencyCode: request.payroll_currency_code,
      fromAmount: request.source_amount_for_exchange,
      toAmount: formatAmount(toAmount, request.payroll_decimals),
      exchangeRate: formatExact(rate),
      fee: { id: randomUUID(), amount: spreadFee, finalInternalFee: spreadFee },
      recordedByUserId: caller.userId,
      at: now,
    });
    await creditFunds(tx, { accountCurrencyId: request.payroll_account_currency_id, amount: formatAmount(toAmount), reason: 'FX_CREDIT', payrollRequestId: request.id, at: now });

    await insertPayouts(tx, request, rate, now);
    await recordStatusChange(tx, request, 'PAYOUT_INITIATED', now);
    return reloadPayrollRequest(tx, requestId);
  });
}

/**
 * One BANK_TO_BENEFICIARY transfer per split, at the actual rate, rounded down. The bank fee was
 * charged once, in the source currency, in the request's fee breakdown; the payouts carry no fee
 * of their own.
 */
async function insertPayouts(tx: Queryable, request: LockedPayrollRequest, rate: Money, now: Date): Promise<void> {
  const scale = payrollScale(request.payroll_decimals);
  const splits = await splitsOf(tx, request.id);
  await insertTransfers(
    tx,
    request.id,
    splits.map((split) => ({
      id: randomUUID(),
      transferType: 'BANK_TO_BENEFICIARY' as const,
      amount: formatAmount(roundDown(new Money(split.source_currency_amount).times(rate), scale), request.payroll_decimals),
      currencyCode: request.payroll_currency_code,
      amountSplitId: split.id,
    })),
    now,
  );
}
