import type { Decimal } from 'decimal.js';
import type { components } from '../../../generated/api.js';
import { DomainError, type ErrorReason, bodyField, entryPlace, validationError, validationProblems } from '../errors.js';
import {
  type CurrencyUnits,
  type SettlementScales,
  assertBelowAmountLimit,
  assertScale,
  roundCharge,
  roundPayout,
  settlementScales,
} from '../money/minorUnits.js';
import { Money, bipsFraction, parseAmount, sum } from '../money/money.js';
import { type FeeSchedule, MAX_SPLIT_ENTRIES, scheduleFee } from './payrollFees.js';

/**
 * The estimate's arithmetic with minor units, pure: validation of the
 * entries against their currencies, conversion at the effective rate, the fees rounded up to the
 * source currency's minor units, and one line per entry. The spec's `estimatePayrollFee` holds the
 * rules and worked examples this implements.
 */

export type AmountCurrencyType = components['schemas']['AmountCurrencyType'];

export interface EstimateEntryInput {
  beneficiaryId: string;
  amount: string;
  amountCurrencyType?: AmountCurrencyType | undefined;
}

export interface EstimateRates {
  /** Payroll-currency units one source unit buys; 1 for a same-currency payroll. */
  baseRate: Decimal;
  /** base × (1 − bips/10000): every conversion's rate. */
  exchangeRate: Decimal;
  /** The spread applied: the customer's BIPS, or 0 when there is no conversion. */
  spreadBips: number;
  sameCurrency: boolean;
}

export interface EstimateLine {
  beneficiaryId: string;
  amountCurrencyType: AmountCurrencyType;
  /** The amount as the customer wrote it, in the currency of `amountCurrencyType`. */
  requestedAmount: Decimal;
  /** What this beneficiary costs in the source currency (SOURCE: as written; PAYROLL: ÷ rate, up). */
  sourceCurrencyAmount: Decimal;
  /** What this beneficiary is promised in the payroll currency (PAYROLL: as written; SOURCE: × rate, down). */
  amount: Decimal;
}

export interface ConvertedEstimate {
  scales: SettlementScales;
  rates: EstimateRates;
  lines: EstimateLine[];
  /** S = Σ line source amounts. */
  sourceCurrencyAmount: Decimal;
  /** Σ line payroll amounts. */
  estimatedReceivedAmount: Decimal;
}

export interface EstimateFigures extends ConvertedEstimate {
  spreadFee: Decimal;
  processorFee: Decimal;
  bankFee: Decimal;
  feeAmount: Decimal;
  totalAmount: Decimal;
}

export interface EstimateInput {
  entries: readonly EstimateEntryInput[];
  source: CurrencyUnits;
  payroll: CurrencyUnits;
  /** The rate source's source → payroll rate; ignored (and may be null) for a same-currency payroll. */
  baseRate: Decimal | null;
  spreadBips: number;
}

/** Same currency: no conversion, so rate 1 and no spread (there is nothing to spread over). */
export function estimateRates(source: CurrencyUnits, payroll: CurrencyUnits, baseRate: Decimal | null, spreadBips: number): EstimateRates {
  if (source.code === payroll.code) return { baseRate: new Money(1), exchangeRate: new Money(1), spreadBips: 0, sameCurrency: true };
  if (!baseRate || !baseRate.greaterThan(0)) throw new Error(`No positive rate for ${source.code} → ${payroll.code}`);
  if (!Number.isInteger(spreadBips) || spreadBips < 0 || spreadBips >= 10_000) throw new Error(`Spread BIPS ${spreadBips} outside 0..9999`);
  const exchangeRate = baseRate.times(new Money(1).minus(bipsFraction(spreadBips)));
  return { baseRate, exchangeRate, spreadBips, sameCurrency: false };
}

/** An entry as validation leaves it: its beneficiary in lower case, its type defaulted, its amount parsed. */
export interface NormalisedEntry {
  beneficiaryId: string;
  amountCurrencyType: AmountCurrencyType;
  requestedAmount: Decimal;
}

function normaliseEntry(entry: EstimateEntryInput, index: number, scales: SettlementScales, seenAt: Map<string, number>): NormalisedEntry {
  // Written only when an entry fails: a 100,000-line payroll would otherwise name every field of every entry.
  const field = (name: string) => `amountSplitDetails[${index}].${name}`;
  const facts = (reason: ErrorReason, name: string) => ({ reason, ...entryPlace(index, name) });
  const beneficiaryId = entry.beneficiaryId.toLowerCase();
  const earlier = seenAt.get(beneficiaryId);
  if (earlier !== undefined) {
    throw validationError(
      `${field('beneficiaryId')} duplicates amountSplitDetails[${earlier}].beneficiaryId (${beneficiaryId}); each beneficiary may appear once`,
      facts('DUPLICATE_ENTRY', 'beneficiaryId'),
    );
  }
  seenAt.set(beneficiaryId, index);
  const amountCurrencyType = entry.amountCurrencyType ?? 'SOURCE';
  const requestedAmount = parseAmount(entry.amount);
  if (!requestedAmount.greaterThan(0)) throw validationError(`${field('amount')} must be greater than zero`, facts('AMOUNT_NOT_POSITIVE', 'amount'));
  const isSource = amountCurrencyType === 'SOURCE';
  const scale = isSource ? scales.source : scales.payroll;
  assertScale(requestedAmount, scale, () => field('amount'), amountCurrencyType, isSource ? scales.sourceCode : scales.payrollCode, { entryIndex: index });
  return { beneficiaryId, amountCurrencyType, requestedAmount };
}

/**
 * Validation rules 1–5 of the estimate, each limit named with its currency. Every entry is
 * checked: one problem is said by the message alone, several are listed in `details` too.
 */
export function normaliseEstimateEntries(entries: readonly EstimateEntryInput[], scales: SettlementScales): NormalisedEntry[] {
  const list = bodyField('amountSplitDetails');
  if (entries.length === 0) throw validationError('amountSplitDetails must have at least one entry', { reason: 'EMPTY_PAYROLL', field: list });
  if (entries.length > MAX_SPLIT_ENTRIES) {
    throw validationError(`amountSplitDetails must have at most ${MAX_SPLIT_ENTRIES} entries`, { reason: 'TOO_MANY_ENTRIES', field: list });
  }
  const seenAt = new Map<string, number>();
  const problems: DomainError[] = [];
  const normalised = entries.map((entry, index) => {
    try {
      return normaliseEntry(entry, index, scales, seenAt);
    } catch (error) {
      if (!(error instanceof DomainError)) throw error;
      problems.push(error);
      return null;
    }
  });
  if (problems.length === 1) throw problems[0]!;
  if (problems.length > 1) {
    throw validationProblems(
      'The request body',
      problems.map(({ reason, field, entryIndex, message }) => ({
        ...(reason === undefined ? {} : { reason }),
        ...(field === undefined ? {} : { field }),
        ...(entryIndex === undefined ? {} : { entryIndex }),
        message,
      })),
    );
  }
  return normalised as NormalisedEntry[];
}

/**
 * SOURCE s → p = s × rate, rounded down to the payroll scale; PAYROLL p → s = p ÷ rate, rounded up
 * to the source scale. A line paying zero is refused (item 3: nothing is paid for nothing).
 */
function convertLine(entry: NormalisedEntry, index: number, rate: Decimal, scales: SettlementScales): EstimateLine {
  const isSource = entry.amountCurrencyType === 'SOURCE';
  const sourceCurrencyAmount = isSource ? entry.requestedAmount : roundCharge(entry.requestedAmount.dividedBy(rate), scales.source);
  const amount = isSource ? roundPayout(entry.requestedAmount.times(rate), scales.payroll) : entry.requestedAmount;
  if (amount.isZero()) {
    throw validationError(
      `amountSplitDetails[${index}].amount: ${entry.requestedAmount.toFixed()} ${scales.sourceCode} converts to ${amount.toFixed(scales.payroll)} ${scales.payrollCode} at ${rate.toFixed()}; an entry must pay its beneficiary more than zero`,
      { reason: 'ZERO_PAYOUT', ...entryPlace(index, 'amount') },
    );
  }
  assertBelowAmountLimit(sourceCurrencyAmount, () => `amountSplitDetails[${index}] source amount`, scales.sourceCode, { entryIndex: index });
  assertBelowAmountLimit(amount, () => `amountSplitDetails[${index}] payroll amount`, scales.payrollCode, { entryIndex: index });
  // Named fields, not `...entry`: a spread copies every property, once per line of the largest estimates.
  const { beneficiaryId, amountCurrencyType, requestedAmount } = entry;
  return { beneficiaryId, amountCurrencyType, requestedAmount, sourceCurrencyAmount, amount };
}

/** Validates and converts every entry; the figures the processor's fee estimate needs (S). */
function convertEstimate(input: EstimateInput): ConvertedEstimate {
  const scales = settlementScales(input.source, input.payroll);
  const rates = estimateRates(input.source, input.payroll, input.baseRate, input.spreadBips);
  return convertEntries(normaliseEstimateEntries(input.entries, scales), scales, rates);
}

/**
 * Converts entries already validated by normaliseEstimateEntries (the use case validates them
 * before it looks up the beneficiaries and the rate, so that a bad body is a 400 first).
 */
export function convertEntries(entries: readonly NormalisedEntry[], scales: SettlementScales, rates: EstimateRates): ConvertedEstimate {
  const lines = entries.map((entry, index) => convertLine(entry, index, rates.exchangeRate, scales));
  const sourceCurrencyAmount = sum(lines.map((line) => line.sourceCurrencyAmount));
  const estimatedReceivedAmount = sum(lines.map((line) => line.amount));
  assertBelowAmountLimit(sourceCurrencyAmount, 'sourceCurrencyAmount', scales.sourceCode);
  assertBelowAmountLimit(estimatedReceivedAmount, 'estimatedReceivedAmount', scales.payrollCode);
  return { scales, rates, lines, sourceCurrencyAmount, estimatedReceivedAmount };
}

export interface EstimateFeeInputs {
  /** The processor's debit fee for S, at any scale (rounded up here); 0 when it has no schedule. */
  processorFee: Decimal;
  /** Fixed per-beneficiary bank fee, in the payroll currency. */
  bankFeePerBeneficiary: Decimal;
}

/** The fee rules: each fee rounded up to the source currency's minor units; sums exact. */
function completeEstimate(converted: ConvertedEstimate, fees: EstimateFeeInputs): EstimateFigures {
  const { scales, rates } = converted;
  const spreadFee = roundCharge(converted.sourceCurrencyAmount.times(bipsFraction(rates.spreadBips)), scales.source);
  const processorFee = roundCharge(fees.processorFee, scales.source);
  const bankFee = roundCharge(fees.bankFeePerBeneficiary.times(converted.lines.length).dividedBy(rates.exchangeRate), scales.source);
  const feeAmount = spreadFee.plus(processorFee).plus(bankFee);
  const totalAmount = converted.sourceCurrencyAmount.plus(feeAmount);
  assertBelowAmountLimit(totalAmount, 'totalAmount', scales.sourceCode);
  return { ...converted, spreadFee, processorFee, bankFee, feeAmount, totalAmount };
}

/** The fees of a converted estimate: the processor charges on S by its schedule (null = no schedule, 0). */
export function completeWithSchedule(converted: ConvertedEstimate, processorSchedule: FeeSchedule | null, bankFeePerBeneficiary: Decimal): EstimateFigures {
  const processorFee = processorSchedule ? scheduleFee(processorSchedule, converted.sourceCurrencyAmount) : new Money(0);
  return completeEstimate(converted, { processorFee, bankFeePerBeneficiary });
}

/** The whole estimate on pure inputs. */
export function estimateFigures(input: EstimateInput & { processorSchedule: FeeSchedule | null; bankFeePerBeneficiary: Decimal }): EstimateFigures {
  return completeWithSchedule(convertEstimate(input), input.processorSchedule, input.bankFeePerBeneficiary);
}
