import type { components } from '../../../generated/api.js';
import { DomainError, validationError } from '../../domain/errors.js';
import { acceptSettled, payrollCancelled } from '../../domain/ledger/journalEntries.js';
import { assertRate } from '../../domain/money/minorUnits.js';
import { Money, formatExact, parseAmount } from '../../domain/money/money.js';
import { assertMayWithdraw } from '../../domain/payroll/payrollApproval.js';
import { assertTransition } from '../../domain/payroll/payrollStatus.js';
import { isRateUsable } from '../../domain/reference/rates.js';
import { DEFAULT_QUOTE_TOLERANCE_BPS, assertQuoteNearRate, quoteFigures, settleAdjustment } from '../../domain/payroll/settlement.js';
import { quoteFiguresView, splitSettlementView } from '../../domain/payroll/settlementView.js';
import type { Queryable } from '../../store/database/db.js';
import { postJournalEntry, postWithinAvailable } from '../../store/ledger/ledger.js';
import { setSplitQuotes, splitsOf } from '../../store/payroll/payrollLifecycle.js';
import { type LockedPayrollRequest, setAcceptance, setCancellationReason, setQuote } from '../../store/payroll/payrollRequestUpdates.js';
import type { UseCaseDeps } from '../deps.js';
import { type PayrollRequestAnswer, recordStatusChangeAnswered } from '../webhooks/events.js';
import { lockRequestFor } from './payrollAccess.js';
import { payrollLedgerOf, requestRefs, sameCurrency, scalesOf } from './payrollSettlement.js';
import { type Principal, requireAdmin, requireCustomer } from '../access/principal.js';

/** The longest an admin quote may stay open. */
const MAX_QUOTE_LIFETIME_MS = 24 * 60 * 60 * 1000;

/**
 * Admin: quote the FX rate of a PENDING request, or re-quote a QUOTE_PROVIDED one whose quote
 * has expired (a quote the customer can still accept is never replaced under them). The final
 * figures at that rate are computed and shown at once; no money moves until the customer accepts.
 */
export async function providePayrollQuote(
  deps: UseCaseDeps,
  caller: Principal,
  requestId: string,
  body: components['schemas']['ProvideQuoteRequest'],
): Promise<PayrollRequestAnswer> {
  requireAdmin(caller);
  const rate = new Money(body.exchangeRate);
  assertRate(rate, 'body.exchangeRate');
  return deps.db.transaction(async (tx) => {
    const now = deps.clock();
    const expiresAt = quoteExpiry(body, now);
    const request = await lockRequestFor(tx, caller, requestId);
    assertTransition(requestId, request.status, 'quote');
    await assertNearCurrentRate(deps, request, rate, now);
    if (request.status === 'QUOTE_PROVIDED' && request.quoteExpiresAt && request.quoteExpiresAt > now) {
      throw new DomainError(
        'INVALID_STATE',
        `Payroll request ${requestId} is QUOTE_PROVIDED with a quote valid until ${request.quoteExpiresAt.toISOString()}; re-quote after it expires`,
        { reason: 'QUOTE_STILL_VALID' },
      );
    }
    const figures = await quoteSplits(tx, request, rate);
    await setQuote(tx, requestId, { rate: formatExact(rate), expiresAt, quotedByUserId: caller.userId, quotedAt: now, figures });
    return recordStatusChangeAnswered(tx, request, 'QUOTE_PROVIDED', now);
  });
}

/**
 * The quote against the rate the service would use now for the pair (none for a same-currency
 * request, quoted at 1): the rate port's snapshot, as the estimate takes it
 * (usecases/fees/estimateReference.ts), read once, with the request locked, so that the whole check (and
 * its message) is about one rate. A pair with no rate, or one past its age bound, is not checked:
 * the guard catches a mistyped quote against a rate the service stands behind, and must not hold
 * the admin to a rate it would refuse to estimate with.
 */
async function assertNearCurrentRate(deps: UseCaseDeps, request: LockedPayrollRequest, rate: Money, now: Date): Promise<void> {
  if (sameCurrency(request)) return;
  const current = await deps.rates.getRate(request.sourceCurrencyCode, request.payrollCurrencyCode);
  if (current !== null && isRateUsable(current, now)) assertQuoteNearRate(rate, current.rate, deps.config.quoteToleranceBps ?? DEFAULT_QUOTE_TOLERANCE_BPS);
}

/**
 * When the quote expires: the instant given (`expiresAt`), or `expiresInSeconds` after `now` (a
 * relative expiry, valid whenever it is sent); exactly one of them, at most 24 hours ahead.
 */
function quoteExpiry(body: components['schemas']['ProvideQuoteRequest'], now: Date): Date {
  const { expiresAt: at, expiresInSeconds } = body;
  if ((at === undefined) === (expiresInSeconds === undefined))
    throw validationError('body must have exactly one of expiresAt and expiresInSeconds', { field: '/expiresAt' });
  if (at === undefined) return new Date(now.getTime() + (expiresInSeconds ?? 0) * 1000);
  const expiresAt = new Date(at);
  if (expiresAt <= now) throw validationError('body.expiresAt must be in the future', { reason: 'QUOTE_EXPIRY_OUT_OF_RANGE', field: '/expiresAt' });
  if (expiresAt.getTime() - now.getTime() > MAX_QUOTE_LIFETIME_MS)
    throw validationError('body.expiresAt must be at most 24 hours ahead', { reason: 'QUOTE_EXPIRY_OUT_OF_RANGE', field: '/expiresAt' });
  return expiresAt;
}

/** Every split's final figures at the quote rate, stored on the splits; the request's totals returned. */
async function quoteSplits(tx: Queryable, request: LockedPayrollRequest, rate: Money): Promise<components['schemas']['PayrollQuoteFigures']> {
  const scales = scalesOf(request);
  const splits = await splitsOf(tx, request.id);
  const figures = quoteFigures({
    splits: splits.map((split) => ({
      amountCurrencyType: split.amountCurrencyType,
      sourceCurrencyAmount: parseAmount(split.sourceCurrencyAmount),
      amount: parseAmount(split.amount),
    })),
    quoteRate: rate,
    scales,
    sameCurrency: sameCurrency(request),
    feeAmount: new Money(request.metadata.feeBreakdown.totalFee),
    debitedAmount: new Money(request.debitedAmount),
  });
  await setSplitQuotes(
    tx,
    splits.map((split, index) => {
      const shown = splitSettlementView(figures.splits[index]!, null, scales);
      return { id: split.id, quotedSourceCurrencyAmount: shown.quotedSourceCurrencyAmount!, quotedAmount: shown.quotedAmount! };
    }),
  );
  return quoteFiguresView(figures, scales);
}

/**
 * Customer: accept the quote before it expires. The adjustment is settled in the same transaction
 * as the status change — a top-up debited (409 INSUFFICIENT_FUNDS naming the shortfall when
 * `available` is short, with nothing changed) or an excess refunded — and the quote's figures
 * become final. Execution then starts on its own.
 */
export async function acceptPayrollQuote(deps: UseCaseDeps, caller: Principal, requestId: string): Promise<PayrollRequestAnswer> {
  requireCustomer(caller);
  return deps.db.transaction(async (tx) => {
    const now = deps.clock();
    const request = await lockRequestFor(tx, caller, requestId);
    assertTransition(requestId, request.status, 'accept');
    if (!request.quoteExpiresAt || request.quoteExpiresAt <= now) {
      throw new DomainError('QUOTE_EXPIRED', `The quote expired at ${request.quoteExpiresAt?.toISOString()}; ask for a new quote`);
    }
    // A request quoted before quotes kept their figures (the double-entry ledger) has no adjustment: it keeps its creation figures.
    const adjustment = new Money(request.quoteAdjustmentAmount ?? 0);
    await postWithinAvailable(
      tx,
      request.sourceAccountCurrencyId,
      (funds) => acceptSettled(payrollLedgerOf(request), settleAdjustment(adjustment, funds.available, scalesOf(request)), requestRefs(request)),
      now,
    );
    await setAcceptance(tx, requestId, now);
    return recordStatusChangeAnswered(tx, request, 'QUOTE_ACCEPTED', now);
  });
}

/**
 * Customer: cancel before acceptance; the debited total returns to the source account. A request
 * awaiting approval debited nothing: only its creator withdraws it, and nothing returns.
 */
export async function cancelPayrollRequest(
  deps: UseCaseDeps,
  caller: Principal,
  requestId: string,
  body: components['schemas']['CancelPayrollRequestRequest'],
): Promise<PayrollRequestAnswer> {
  requireCustomer(caller);
  return deps.db.transaction(async (tx) => {
    const now = deps.clock();
    const request = await lockRequestFor(tx, caller, requestId);
    assertTransition(requestId, request.status, 'cancel');
    if (request.status === 'AWAITING_APPROVAL') {
      assertMayWithdraw(requestId, request.createdByUserId, caller.userId);
    } else {
      // Before acceptance the total is what creation (or the approval) debited.
      await postJournalEntry(tx, payrollCancelled(payrollLedgerOf(request), new Money(request.totalAmount), requestRefs(request)), now);
    }
    await setCancellationReason(tx, requestId, body.reason);
    return recordStatusChangeAnswered(tx, request, 'CANCELLED', now);
  });
}
