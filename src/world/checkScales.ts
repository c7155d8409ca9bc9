/**
 * A world request's figures within their currency's minor units: every source figure at
 * most the source scale (USD 2 places), every payroll figure at most the payroll scale. The rules
 * that produce them never write more, so a figure with more places comes from an older rule.
 */
import type { SettlementScales } from '../domain/money/minorUnits.js';
import { decimalPlacesText, parseAmount } from '../domain/money/money.js';
import type { WorldPayrollRequest } from './types.js';
import { type At, type PathSegment, fail } from './validationError.js';

function checkScale(value: string, scale: number, currencyCode: string, path: PathSegment[]): void {
  const places = parseAmount(value).decimalPlaces();
  if (places > scale) fail(path, `${value} has ${decimalPlacesText(places)}; a figure in ${currencyCode} allows at most ${scale}`);
}

export function checkRequestScales(request: WorldPayrollRequest, scales: SettlementScales, at: At): void {
  const source = (value: string, ...path: PathSegment[]) => checkScale(value, scales.source, scales.sourceCode, at(...path));
  const payroll = (value: string, ...path: PathSegment[]) => checkScale(value, scales.payroll, scales.payrollCode, at(...path));
  const breakdown = request.feeBreakdown;
  source(request.totalAmount, 'totalAmount');
  source(request.sourceAmountForExchange, 'sourceAmountForExchange');
  for (const key of ['sourceCurrencyAmount', 'spreadFee', 'processorFee', 'bankFee', 'totalFee'] as const) source(breakdown[key], 'feeBreakdown', key);
  payroll(request.estimatedReceivedAmount, 'estimatedReceivedAmount');
  payroll(breakdown.estimatedReceivedAmount, 'feeBreakdown', 'estimatedReceivedAmount');
  request.amountSplitDetails.forEach((split, s) => {
    source(split.sourceCurrencyAmount, 'amountSplitDetails', s, 'sourceCurrencyAmount');
    payroll(split.amount, 'amountSplitDetails', s, 'amount');
  });
}
