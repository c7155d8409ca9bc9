import type { Decimal } from 'decimal.js';
import type { components } from '../../generated/api.js';
import { validationError } from './errors.js';
import {
  MAX_PAYROLL_SCALE,
  Money,
  SOURCE_SCALE,
  bipsFraction,
  clamp,
  decimalPlacesText,
  parseAmount,
  roundDown,
  roundUp,
  sum,
} from './money.js';

/** The documented maximum number of beneficiaries in one payroll estimate or request. */
const MAX_SPLIT_ENTRIES = 10_000;

export type AmountCurrencyType = components['schemas']['AmountCurrencyType'];

export interface SplitEntryInput {
  beneficiaryId: string;
  amount: string;
  amountCurrencyType?: AmountCurrencyType | undefined;
}

export interface NormalisedEntry {
  beneficiaryId: string;
  amount: Decimal;
  amountCurrencyType: AmountCurrencyType;
}

export interface ConvertedEntry extends NormalisedEntry {
  /** s: what this beneficiary costs in the source currency. */
  sourceCurrencyAmount: Decimal;
  /** p: what this beneficiary is estimated to receive in the payroll currency. */
  payrollAmount: Decimal;
}

/** Decimals a payroll-currency amount may carry: at most 2, fewer for currencies such as JPY. */
export function payrollScale(payrollCurrencyDecimals: number): number {
  return Math.min(MAX_PAYROLL_SCALE, payrollCurrencyDecimals);
}

/**
 * Validation rules 1–5 of the estimate (the schema has checked shapes and patterns).
 * Each message names the entry index and the field, so a client can point at the bad row.
 */
export function normaliseEntries(entries: readonly SplitEntryInput[], scaleOfPayroll: number): NormalisedEntry[] {
  if (entries.length === 0) throw validationError('amountSplitDetails must have at least one entry');
  if (entries.length > MAX_SPLIT_ENTRIES) {
    throw validationError(`amountSplitDetails must have at most ${MAX_SPLIT_ENTRIES} entries`);
  }
  const firstIndexOf = new Map<string, number>();
  return entries.map((entry, index) => {
    const field = `amountSplitDetails[${index}]`;
    const beneficiaryId = entry.beneficiaryId.toLowerCase();
    const earlier = firstIndexOf.get(beneficiaryId);
    if (earlier !== undefined) {
      throw validationError(
        `${field}.beneficiaryId duplicates amountSplitDetails[${earlier}].beneficiaryId (${beneficiaryId}); each beneficiary may appear once`,
      );
    }
    firstIndexOf.set(beneficiaryId, index);

    const amountCurrencyType = entry.amountCurrencyType ?? 'SOURCE';
    const amount = parseAmount(entry.amount);
    if (!amount.greaterThan(0)) throw validationError(`${field}.amount must be greater than zero`);
    const limit = amountCurrencyType === 'SOURCE' ? SOURCE_SCALE : scaleOfPayroll;
    if (amount.decimalPlaces() > limit) {
      throw validationError(
        `${field}.amount has ${decimalPlacesText(amount.decimalPlaces())}; a ${amountCurrencyType} amount allows at most ${limit}`,
      );
    }
    return { beneficiaryId, amount, amountCurrencyType };
  });
}

/** eff = base × (1 − bips/10000): the rate every conversion of the estimate uses. */
export function effectiveRate(baseRate: Decimal, spreadBips: number): Decimal {
  return baseRate.times(new Money(1).minus(bipsFraction(spreadBips)));
}

/**
 * SOURCE s → p = s × eff rounded down to the payroll scale; PAYROLL p → s = p / eff rounded
 * up to 8 places. Both directions favour funding over promise: the platform never promises
 * more than it funds.
 */
export function convertEntries(entries: readonly NormalisedEntry[], eff: Decimal, scaleOfPayroll: number): ConvertedEntry[] {
  return entries.map((entry) =>
    entry.amountCurrencyType === 'SOURCE'
      ? { ...entry, sourceCurrencyAmount: entry.amount, payrollAmount: roundDown(entry.amount.times(eff), scaleOfPayroll) }
      : { ...entry, sourceCurrencyAmount: roundUp(entry.amount.dividedBy(eff), SOURCE_SCALE), payrollAmount: entry.amount },
  );
}

export interface FeeSchedule {
  percentBps: Decimal;
  fixed: Decimal;
  min: Decimal;
  max: Decimal;
}

/** A schedule read as exact decimal strings, parsed once. */
export function parseFeeSchedule(text: Record<keyof FeeSchedule, string>): FeeSchedule {
  return { percentBps: parseAmount(text.percentBps), fixed: parseAmount(text.fixed), min: parseAmount(text.min), max: parseAmount(text.max) };
}

/** clamp(amount × percentBps/10000 + fixed, min, max), unrounded: callers round to their scale. */
export function scheduleFee(schedule: FeeSchedule, amount: Decimal): Decimal {
  return clamp(amount.times(bipsFraction(schedule.percentBps)).plus(schedule.fixed), schedule.min, schedule.max);
}

export interface PayrollFeeFigures {
  sourceCurrencyAmount: Decimal;
  estimatedReceivedAmount: Decimal;
  spreadFee: Decimal;
  processorFee: Decimal;
  bankFee: Decimal;
  feeAmount: Decimal;
  totalAmount: Decimal;
}

export interface PayrollFeeInputs {
  entries: readonly ConvertedEntry[];
  eff: Decimal;
  spreadBips: number;
  /** The processor's debit-fee estimate for S (source currency, any scale: rounded up here). */
  processorFee: Decimal;
  /** Fixed per-beneficiary bank fee in the payroll currency. */
  bankFeePerBeneficiary: Decimal;
}

/** The fee rules of the estimate. Each fee is rounded up to 8 places; sums are exact. */
export function computePayrollFees(inputs: PayrollFeeInputs): PayrollFeeFigures {
  const sourceCurrencyAmount = sum(inputs.entries.map((entry) => entry.sourceCurrencyAmount));
  const estimatedReceivedAmount = sum(inputs.entries.map((entry) => entry.payrollAmount));
  const spreadFee = roundUp(sourceCurrencyAmount.times(bipsFraction(inputs.spreadBips)), SOURCE_SCALE);
  const processorFee = roundUp(inputs.processorFee, SOURCE_SCALE);
  const bankFee = roundUp(inputs.bankFeePerBeneficiary.times(inputs.entries.length).dividedBy(inputs.eff), SOURCE_SCALE);
  const feeAmount = spreadFee.plus(processorFee).plus(bankFee);
  return {
    sourceCurrencyAmount,
    estimatedReceivedAmount,
    spreadFee,
    processorFee,
    bankFee,
    feeAmount,
    totalAmount: sourceCurrencyAmount.plus(feeAmount),
  };
}
