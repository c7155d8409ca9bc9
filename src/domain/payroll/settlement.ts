import type { Decimal } from 'decimal.js';
import { DomainError, fieldNamed, validationError } from '../errors.js';
import type { AmountCurrencyType } from '../fees/estimateFigures.js';
import { type SettlementScales, assertBelowAmountLimit, assertRate, roundCharge, roundPayout } from '../money/minorUnits.js';
import { Money, formatAmount, sum } from '../money/money.js';

/**
 * The honoured quote, pure: the final figures at the admin's quote, the
 * adjustment accept settles, the bounds of the FX record and the platform's FX result, and what a
 * failed payout credits back. The spec's `PayrollQuoteFigures`, `acceptPayrollQuote` and
 * `recordFxExchange` hold the rules and worked examples.
 */

/** A split as the estimate locked it. */
export interface SettlementSplit {
  amountCurrencyType: AmountCurrencyType;
  /** The estimate's source amount (for SOURCE: what the customer asked for). */
  sourceCurrencyAmount: Decimal;
  /** The estimate's payroll amount (for PAYROLL: what the customer asked for). */
  amount: Decimal;
}

/** A split's final figures at the quote: what the customer pays for it and what its payout pays. */
export interface QuotedSplit {
  quotedSourceCurrencyAmount: Decimal;
  quotedAmount: Decimal;
}

export interface QuoteInput {
  splits: readonly SettlementSplit[];
  quoteRate: Decimal;
  scales: SettlementScales;
  sameCurrency: boolean;
  /** The fees the feeHash locked (metadata.feeBreakdown.totalFee): a quote never changes them. */
  feeAmount: Decimal;
  /** What the creation debited (the estimate's totalAmount). */
  debitedAmount: Decimal;
}

export interface QuoteFigures {
  exchangeRate: Decimal;
  splits: QuotedSplit[];
  sourceAmountForExchange: Decimal;
  feeAmount: Decimal;
  totalAmount: Decimal;
  receivedAmount: Decimal;
  debitedAmount: Decimal;
  /** totalAmount − debitedAmount: > 0 a top-up at accept, < 0 a refund. */
  adjustmentAmount: Decimal;
}

/** The quote rate's bounds: those of every admin rate, and exactly 1 without a conversion. */
function assertQuoteRate(rate: Decimal, sameCurrency: boolean, field = 'body.exchangeRate'): void {
  assertRate(rate, field);
  if (sameCurrency && !rate.equals(1)) {
    throw validationError(`${field} must be 1: both accounts hold the same currency, so there is no conversion`, {
      reason: 'RATE_NOT_ONE',
      field: fieldNamed(field),
    });
  }
}

/**
 * SOURCE: the source amount stays, the payout is source × q rounded down. PAYROLL: the payout is
 * the requested amount exactly, the source amount is amount ÷ q rounded up. Either way the payout
 * never exceeds its source amount × q.
 */
function quoteSplit(split: SettlementSplit, index: number, rate: Decimal, scales: SettlementScales): QuotedSplit {
  if (split.amountCurrencyType === 'PAYROLL') {
    return { quotedSourceCurrencyAmount: roundCharge(split.amount.dividedBy(rate), scales.source), quotedAmount: split.amount };
  }
  const quotedAmount = roundPayout(split.sourceCurrencyAmount.times(rate), scales.payroll);
  if (quotedAmount.isZero()) {
    throw validationError(
      `amountSplitDetails[${index}]: ${split.sourceCurrencyAmount.toFixed()} ${scales.sourceCode} converts to ${quotedAmount.toFixed(scales.payroll)} ${scales.payrollCode} at ${rate.toFixed()}; a quote must pay every beneficiary more than zero`,
      { reason: 'ZERO_PAYOUT', entryIndex: index },
    );
  }
  return { quotedSourceCurrencyAmount: split.sourceCurrencyAmount, quotedAmount };
}

/** The final figures at the quote rate, shown on the request before the customer accepts. */
export function quoteFigures(input: QuoteInput): QuoteFigures {
  const { quoteRate: rate, scales } = input;
  assertQuoteRate(rate, input.sameCurrency);
  const splits = input.splits.map((split, index) => quoteSplit(split, index, rate, scales));
  splits.forEach((split, index) => {
    assertBelowAmountLimit(split.quotedSourceCurrencyAmount, `amountSplitDetails[${index}] quoted source amount`, scales.sourceCode, { entryIndex: index });
    assertBelowAmountLimit(split.quotedAmount, `amountSplitDetails[${index}] quoted amount`, scales.payrollCode, { entryIndex: index });
  });
  const sourceAmountForExchange = sum(splits.map((split) => split.quotedSourceCurrencyAmount));
  const totalAmount = sourceAmountForExchange.plus(input.feeAmount);
  assertBelowAmountLimit(totalAmount, 'quote totalAmount', scales.sourceCode);
  return {
    exchangeRate: rate,
    splits,
    sourceAmountForExchange,
    feeAmount: input.feeAmount,
    totalAmount,
    receivedAmount: sum(splits.map((split) => split.quotedAmount)),
    debitedAmount: input.debitedAmount,
    adjustmentAmount: totalAmount.minus(input.debitedAmount),
  };
}

/** What accepting moves: nothing, a top-up debited, or an excess refunded. */
export type AdjustmentSettlement = { kind: 'NONE' } | { kind: 'TOP_UP'; amount: Decimal } | { kind: 'REFUND'; amount: Decimal };

/**
 * INSUFFICIENT_FUNDS at accept, a variant of its own: unlike at creation the request exists, stays
 * QUOTE_PROVIDED and nothing moves, so the client answers it by topping up and accepting again.
 */
export class AcceptShortfallError extends DomainError {
  constructor(
    readonly shortfall: Decimal,
    message: string,
  ) {
    super('INSUFFICIENT_FUNDS', message, { variant: 'SHORTFALL_AT_ACCEPT' });
    this.name = 'AcceptShortfallError';
  }
}

/** Decides the accept movement against the (locked) available balance of the source account. */
export function settleAdjustment(adjustment: Decimal, available: Decimal, scales: SettlementScales): AdjustmentSettlement {
  if (adjustment.isZero()) return { kind: 'NONE' };
  if (adjustment.isNegative()) return { kind: 'REFUND', amount: adjustment.negated() };
  if (available.lessThan(adjustment)) {
    const shortfall = adjustment.minus(available);
    const text = (value: Decimal) => `${formatAmount(value, scales.source)} ${scales.sourceCode}`;
    throw new AcceptShortfallError(shortfall, `Accepting needs a top-up of ${text(adjustment)}; available is ${text(available)}, short by ${text(shortfall)}`);
  }
  return { kind: 'TOP_UP', amount: adjustment };
}

/** `FX_RECORD_TOLERANCE_BPS` when unset: 5 % either side of the accepted quote. */
export const DEFAULT_FX_RECORD_TOLERANCE_BPS = 500;

export interface RateRange {
  min: Decimal;
  max: Decimal;
}

/** |rate − q| × 10000 ≤ tolerance × q, i.e. q × (1 ∓ tolerance/10000). */
export function fxRecordRange(quoteRate: Decimal, toleranceBps: number): RateRange {
  const band = quoteRate.times(toleranceBps).dividedBy(10_000);
  return { min: quoteRate.minus(band), max: quoteRate.plus(band) };
}

/** The recorded rate must be a sane rate near the accepted quote: a typo can no longer create money. */
export function assertFxRecordRate(rate: Decimal, quoteRate: Decimal, toleranceBps: number, sameCurrency: boolean, field = 'body.exchangeRate'): void {
  assertQuoteRate(rate, sameCurrency, field);
  const range = fxRecordRange(quoteRate, toleranceBps);
  if (rate.lessThan(range.min) || rate.greaterThan(range.max)) {
    throw validationError(
      `${field} ${rate.toFixed()} is outside FX_RECORD_TOLERANCE_BPS (${toleranceBps}) of the accepted quote ${quoteRate.toFixed()}: it must lie between ${range.min.toFixed()} and ${range.max.toFixed()}`,
      { reason: 'FX_RECORD_OUT_OF_TOLERANCE', field: fieldNamed(field) },
    );
  }
}

/** How far (in BIPS of the service's current rate for the pair) a quote may lie from it. */
export const DEFAULT_QUOTE_TOLERANCE_BPS = 1000;

/**
 * A quote must lie near the market: a typo (36.54 for 3.654) accepted by the customer would
 * otherwise strand the request, since no FX record near such a quote can be made.
 */
export function assertQuoteNearRate(rate: Decimal, currentRate: Decimal, toleranceBps: number, field = 'body.exchangeRate'): void {
  const range = fxRecordRange(currentRate, toleranceBps);
  if (rate.lessThan(range.min) || rate.greaterThan(range.max)) {
    throw validationError(
      `${field} ${rate.toFixed()} is outside QUOTE_TOLERANCE_BPS (${toleranceBps}) of the current rate ${currentRate.toFixed()}: it must lie between ${range.min.toFixed()} and ${range.max.toFixed()}`,
      { reason: 'QUOTE_OUT_OF_TOLERANCE', field: fieldNamed(field) },
    );
  }
}

export interface FxRecordFigures {
  fromAmount: Decimal;
  toAmount: Decimal;
  /** Σ quoted amounts: what the payouts pay, whatever the recorded rate. */
  payoutAmount: Decimal;
  /** toAmount − payoutAmount: the platform's gain (> 0) or loss (< 0). */
  fxResultAmount: Decimal;
}

/** toAmount = fromAmount × rate rounded down (received); the payouts stay as quoted. */
export function fxRecordFigures(
  fromAmount: Decimal,
  rate: Decimal,
  payrollScale: number,
  splits: ReadonlyArray<Pick<QuotedSplit, 'quotedAmount'>>,
): FxRecordFigures {
  const toAmount = roundPayout(fromAmount.times(rate), payrollScale);
  const payoutAmount = sum(splits.map((split) => split.quotedAmount));
  return { fromAmount, toAmount, payoutAmount, fxResultAmount: toAmount.minus(payoutAmount) };
}

/**
 * A failed payout's money returns to the customer at the accepted quote: exactly what the
 * customer paid for that beneficiary (its quoted source amount; fees are not returned).
 */
export function creditBackFor(split: QuotedSplit): Decimal {
  return split.quotedSourceCurrencyAmount;
}

/** The request's `returnedAmount`: Σ of the credit-backs of its failed payouts. */
export function returnedAmount(failed: readonly QuotedSplit[]): Decimal {
  return failed.length === 0 ? new Money(0) : sum(failed.map(creditBackFor));
}
