import type { components } from '../../../generated/api.js';
import type { EstimateFigures, EstimateLine } from './estimateFigures.js';
import { scaleFormatters } from '../money/minorUnits.js';
import { formatExact } from '../money/money.js';

type FeeBreakdown = components['schemas']['FeeBreakdown'];
type EstimateLineView = components['schemas']['PayrollFeeEstimateLine'];
type PayrollFeeEstimate = components['schemas']['PayrollFeeEstimate'];

/**
 * The estimate's figures as the spec writes them: every source figure with exactly the source
 * scale, every payroll figure with exactly the payroll scale, rates exactly. The same strings are
 * stored behind the feeHash and become the request's fee breakdown and splits.
 */

function feeBreakdownView(figures: EstimateFigures, origin: RateOrigin): FeeBreakdown {
  const { scales, rates } = figures;
  const { source, payroll } = scaleFormatters(scales);
  return {
    sourceCurrencyAmount: source(figures.sourceCurrencyAmount),
    spreadFee: source(figures.spreadFee),
    processorFee: source(figures.processorFee),
    bankFee: source(figures.bankFee),
    totalFee: source(figures.feeAmount),
    estimatedReceivedAmount: payroll(figures.estimatedReceivedAmount),
    payrollCurrencyCode: scales.payrollCode,
    feeCurrencyCode: scales.sourceCode,
    exchangeRate: formatExact(rates.exchangeRate),
    baseRate: formatExact(rates.baseRate),
    ...origin,
  };
}

type Formatters = ReturnType<typeof scaleFormatters>;

function estimateLineView(line: EstimateLine, { source, payroll }: Formatters): EstimateLineView {
  return {
    beneficiaryId: line.beneficiaryId,
    amountCurrencyType: line.amountCurrencyType,
    sourceCurrencyAmount: source(line.sourceCurrencyAmount),
    amount: payroll(line.amount),
  };
}

/** Every line as the spec writes it (the formatters made once, not per line: 10,000 lines are common). */
function estimateLineViews(figures: Pick<EstimateFigures, 'lines' | 'scales'>): EstimateLineView[] {
  const formatters = scaleFormatters(figures.scales);
  return figures.lines.map((line) => estimateLineView(line, formatters));
}

/** Where the estimate's rate came from, as the breakdown shows it. */
type RateOrigin = Required<Pick<FeeBreakdown, 'rateSource' | 'rateAsOf'>>;

export interface EstimateIdentity extends RateOrigin {
  sourceAccountCurrencyId: string;
  payrollAccountCurrencyId: string;
  feeHash: string;
  expiresAt: string;
}

/** The `data` of `estimatePayrollFee`: the interface's fields plus `feeBreakdown` and `lines`. */
export function payrollFeeEstimateView(figures: EstimateFigures, identity: EstimateIdentity): PayrollFeeEstimate {
  const { rateSource, rateAsOf, ...ids } = identity;
  const feeBreakdown = feeBreakdownView(figures, { rateSource, rateAsOf });
  return {
    totalAmount: scaleFormatters(figures.scales).source(figures.totalAmount),
    sourceCurrencyAmount: feeBreakdown.sourceCurrencyAmount,
    feeAmount: feeBreakdown.totalFee,
    estimatedReceivedAmount: feeBreakdown.estimatedReceivedAmount,
    ...ids,
    feeBreakdown,
    lines: estimateLineViews(figures),
  };
}

/**
 * One entry as the feeHash locks it (stored behind it, in the order of the request): the amount as
 * requested, compared exactly at creation, and the line's two figures, which become the split's.
 */
export interface LockedEstimateEntry {
  beneficiaryId: string;
  amount: string;
  amountCurrencyType: EstimateLine['amountCurrencyType'];
  sourceCurrencyAmount: string;
  amountInPayrollCurrency: string;
}

/**
 * `lineViews` are the lines of the estimate's answer when the caller has them (they are the same
 * strings, so a 10,000-line estimate formats its figures once); computed from the figures otherwise.
 */
export function lockedEstimateEntries(
  figures: Pick<EstimateFigures, 'lines' | 'scales'>,
  lineViews: readonly EstimateLineView[] = estimateLineViews(figures),
): LockedEstimateEntry[] {
  return figures.lines.map((line, index) => {
    const view = lineViews[index]!;
    return {
      beneficiaryId: line.beneficiaryId,
      amount: formatExact(line.requestedAmount),
      amountCurrencyType: line.amountCurrencyType,
      sourceCurrencyAmount: view.sourceCurrencyAmount,
      amountInPayrollCurrency: view.amount,
    };
  });
}
