import type { components } from '../../../generated/api.js';
import { type SettlementScales, scaleFormatters } from '../money/minorUnits.js';
import { formatExact } from '../money/money.js';
import type { FxRecordFigures, QuoteFigures, QuotedSplit } from './settlement.js';

type PayrollQuoteFigures = components['schemas']['PayrollQuoteFigures'];
type AmountSplitDetail = components['schemas']['AmountSplitDetail'];
type FxExchange = components['schemas']['FxExchange'];

/** The request's `quote` object: source figures at the source scale, the received total at the payroll scale. */
export function quoteFiguresView(figures: QuoteFigures, scales: SettlementScales): PayrollQuoteFigures {
  const { source, payroll } = scaleFormatters(scales);
  return {
    exchangeRate: formatExact(figures.exchangeRate),
    sourceAmountForExchange: source(figures.sourceAmountForExchange),
    feeAmount: source(figures.feeAmount),
    totalAmount: source(figures.totalAmount),
    receivedAmount: payroll(figures.receivedAmount),
    debitedAmount: source(figures.debitedAmount),
    adjustmentAmount: source(figures.adjustmentAmount),
  };
}

/** A split's additive fields; `quoted` null before the quote, `returned` null unless its payout failed. */
export function splitSettlementView(
  quoted: QuotedSplit | null,
  returned: QuotedSplit['quotedSourceCurrencyAmount'] | null,
  scales: SettlementScales,
): Pick<AmountSplitDetail, 'quotedSourceCurrencyAmount' | 'quotedAmount' | 'returnedSourceCurrencyAmount'> {
  const { source, payroll } = scaleFormatters(scales);
  return {
    quotedSourceCurrencyAmount: quoted ? source(quoted.quotedSourceCurrencyAmount) : null,
    quotedAmount: quoted ? payroll(quoted.quotedAmount) : null,
    returnedSourceCurrencyAmount: returned ? source(returned) : null,
  };
}

/** The FX record's additive fields: what the payouts pay and the platform's FX result. */
export function fxResultView(figures: FxRecordFigures, scales: SettlementScales): Pick<FxExchange, 'toAmount' | 'payoutAmount' | 'fxResultAmount'> {
  const { payroll } = scaleFormatters(scales);
  return { toAmount: payroll(figures.toAmount), payoutAmount: payroll(figures.payoutAmount), fxResultAmount: payroll(figures.fxResultAmount) };
}
