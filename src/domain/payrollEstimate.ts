import type { Decimal } from 'decimal.js';
import type { components } from '../../generated/api.js';
import { ZERO, formatAmount, formatExact, sum } from './money.js';
import {
  type AmountCurrencyType,
  type ConvertedEntry,
  type FeeSchedule,
  type NormalisedEntry,
  type PayrollFeeFigures,
  computePayrollFees,
  convertEntries,
  effectiveRate,
  payrollScale,
  scheduleFee,
} from './payrollFees.js';

type FeeBreakdown = components['schemas']['FeeBreakdown'];

export interface PayrollEstimateInputs {
  /** The entries as normaliseEntries validated them. */
  entries: readonly NormalisedEntry[];
  /** How many payroll units one source unit buys, before the spread. */
  baseRate: Decimal;
  /** The customer's spread; 0 without a fee profile. */
  spreadBips: number;
  /** Minor units of the payroll currency (2 for AED, 0 for JPY). */
  payrollDecimals: number;
  /** The processor's debit-fee schedule for the source account; null when it charges nothing. */
  processorSchedule: FeeSchedule | null;
  /** Fixed per-beneficiary bank fee in the payroll currency. */
  bankFeePerBeneficiary: Decimal;
}

/** Every figure of a payroll estimate, exact, before any formatting. */
export interface PayrollEstimateFigures {
  baseRate: Decimal;
  /** The effective rate every conversion used. */
  eff: Decimal;
  entries: ConvertedEntry[];
  fees: PayrollFeeFigures;
}

/**
 * The whole fee arithmetic of a payroll estimate, pure: the use case gathers the inputs, calls
 * this and stores what formatPayrollEstimate makes of the result; the tests call the same function.
 */
export function estimatePayrollFigures(inputs: PayrollEstimateInputs): PayrollEstimateFigures {
  const eff = effectiveRate(inputs.baseRate, inputs.spreadBips);
  const entries = convertEntries(inputs.entries, eff, payrollScale(inputs.payrollDecimals));
  // The processor charges on S, the source total of every entry.
  const sourceTotal = sum(entries.map((entry) => entry.sourceCurrencyAmount));
  const processorFee = inputs.processorSchedule ? scheduleFee(inputs.processorSchedule, sourceTotal) : ZERO;
  const fees = computePayrollFees({
    entries,
    eff,
    spreadBips: inputs.spreadBips,
    processorFee,
    bankFeePerBeneficiary: inputs.bankFeePerBeneficiary,
  });
  return { baseRate: inputs.baseRate, eff, entries, fees };
}

export interface EstimateCurrency {
  code: string;
  decimals: number;
}

/** One entry as the feeHash locks it: exact strings, in the order of the request. */
export interface LockedEstimateEntry {
  beneficiaryId: string;
  amount: string;
  amountCurrencyType: AmountCurrencyType;
  sourceCurrencyAmount: string;
  amountInPayrollCurrency: string;
}

export interface FormattedPayrollEstimate {
  feeBreakdown: FeeBreakdown;
  totalAmount: string;
  entries: LockedEstimateEntry[];
}

/**
 * The figures as the API and the locked estimate show them: source amounts with at least the
 * source currency's decimals, payroll amounts with the payroll currency's, rates exact.
 */
export function formatPayrollEstimate(
  figures: PayrollEstimateFigures,
  currencies: { source: EstimateCurrency; payroll: EstimateCurrency },
): FormattedPayrollEstimate {
  const sourceAmount = (value: Decimal) => formatAmount(value, currencies.source.decimals);
  const payrollAmount = (value: Decimal) => formatAmount(value, currencies.payroll.decimals);
  const { fees } = figures;
  return {
    feeBreakdown: {
      sourceCurrencyAmount: sourceAmount(fees.sourceCurrencyAmount),
      spreadFee: sourceAmount(fees.spreadFee),
      processorFee: sourceAmount(fees.processorFee),
      bankFee: sourceAmount(fees.bankFee),
      totalFee: sourceAmount(fees.feeAmount),
      estimatedReceivedAmount: payrollAmount(fees.estimatedReceivedAmount),
      payrollCurrencyCode: currencies.payroll.code,
      feeCurrencyCode: currencies.source.code,
      exchangeRate: formatExact(figures.eff),
      baseRate: formatExact(figures.baseRate),
    },
    totalAmount: sourceAmount(fees.totalAmount),
    entries: figures.entries.map((entry) => ({
      beneficiaryId: entry.beneficiaryId,
      amount: formatExact(entry.amount),
      amountCurrencyType: entry.amountCurrencyType,
      sourceCurrencyAmount: sourceAmount(entry.sourceCurrencyAmount),
      amountInPayrollCurrency: payrollAmount(entry.payrollAmount),
    })),
  };
}
