import { Decimal } from 'decimal.js';
import { type ErrorPlace, fieldNamed, validationError } from '../errors.js';
import { Money, decimalPlacesText } from './money.js';

/**
 * Minor units: each currency's `decimals` governs the scale of its amounts. A source-currency
 * figure has min(8, decimals) places — 8 is the interface's cap on a SOURCE amount — and a
 * payroll-currency figure min(2, decimals). Every rounding to a scale goes through roundCharge
 * (up: what the customer is charged) or roundPayout (down: what anyone is paid or promised), so
 * that rounding never favours the platform by accident.
 */

/** The interface's cap (validation rule 3) on the decimals of a SOURCE amount. */
const MAX_SOURCE_SCALE = 8;

/** The most decimals a PAYROLL amount may have (further limited by the currency's minor units). */
const MAX_PAYROLL_SCALE = 2;

/**
 * Every amount figure is below 10^15 (15 integer digits), so that each fits the spec's strings: a
 * value's decimal exponent (decimal.js's `e`, 14 for 999999999999999.99) is below 15.
 */
const AMOUNT_LIMIT_EXPONENT = 15;

/** A JSON number carries up to 15 significant decimal digits exactly. */
const MAX_JSON_SIGNIFICANT_DIGITS = 15;

/** Rate bounds of `RateString`: 10^-8 to 10^8 and 12 significant digits. */
const MIN_RATE = new Money('0.00000001');
const MAX_RATE = new Money('100000000');
const MAX_RATE_SIGNIFICANT_DIGITS = 12;

export interface CurrencyUnits {
  code: string;
  /** Minor units of the currency (USD 2, JPY 0). */
  decimals: number;
}

/** The scales of one source → payroll pair, with the codes used in messages. */
export interface SettlementScales {
  source: number;
  payroll: number;
  sourceCode: string;
  payrollCode: string;
}

export function sourceScaleOf(decimals: number): number {
  return Math.min(MAX_SOURCE_SCALE, decimals);
}

export function payrollScaleOf(decimals: number): number {
  return Math.min(MAX_PAYROLL_SCALE, decimals);
}

export function settlementScales(source: CurrencyUnits, payroll: CurrencyUnits): SettlementScales {
  return {
    source: sourceScaleOf(source.decimals),
    payroll: payrollScaleOf(payroll.decimals),
    sourceCode: source.code,
    payrollCode: payroll.code,
  };
}

/** Rounds what the customer is charged (fees, the source side of a PAYROLL entry, a top-up) up, towards +infinity. */
export function roundCharge(value: Decimal, scale: number): Decimal {
  return value.toDecimalPlaces(scale, Decimal.ROUND_UP);
}

/** Rounds what someone is paid or promised (a beneficiary's payroll amount, money received) down, towards zero. */
export function roundPayout(value: Decimal, scale: number): Decimal {
  return value.toDecimalPlaces(scale, Decimal.ROUND_DOWN);
}

/**
 * Exactly `scale` places ("1512.74", "15049"), for a value already at that scale; a value with
 * more places is a bug upstream, never silently rounded here. Zero is written without a sign
 * ("0.00", never "-0.00"), as `SignedDecimalString` requires.
 */
export function formatAtScale(value: Decimal, scale: number): string {
  const places = value.decimalPlaces();
  if (places > scale) throw new Error(`${value.toFixed()} has more than ${scale} decimal places`);
  // The exact digits, padded with zeros: toFixed(scale) would round a copy first (nothing to round
  // here), which a 10,000-line estimate's answer would pay on every figure. toFixed() writes zero as "0".
  const exact = value.toFixed();
  if (places === scale) return exact;
  return `${exact}${places === 0 ? '.' : ''}${'0'.repeat(scale - places)}`;
}

/** Formatters of one pair's figures: source figures at the source scale, payroll figures at the payroll scale. */
export function scaleFormatters(scales: SettlementScales): { source: (value: Decimal) => string; payroll: (value: Decimal) => string } {
  return { source: (value) => formatAtScale(value, scales.source), payroll: (value) => formatAtScale(value, scales.payroll) };
}

/**
 * A field's name, or a function that writes it: checks made once per line of a 100,000-line
 * payroll name their field only when they fail.
 */
type FieldName = string | (() => string);

const nameOf = (field: FieldName): string => (typeof field === 'string' ? field : field());

/**
 * `field has 3 decimal places; a SOURCE amount in USD allows at most 2`: the limit named with
 * its currency, as the spec's `AmountString` promises.
 */
export function assertScale(amount: Decimal, scale: number, field: FieldName, kind: string, currencyCode: string, place: ErrorPlace = {}): void {
  const problem = scaleProblem(amount, scale, kind, currencyCode);
  if (problem) throw validationError(`${nameOf(field)} ${problem}`, { reason: 'TOO_MANY_DECIMALS', field: fieldNamed(nameOf(field)), ...place });
}

/** Whether an amount is written within `scale` decimal places (a currency's minor units, say). */
export const fitsScale = (amount: Decimal, scale: number): boolean => amount.decimalPlaces() <= scale;

/** What assertScale says after the field's name ("has 3 decimal places; …"), or null when the amount fits. */
export function scaleProblem(amount: Decimal, scale: number, kind: string, currencyCode: string): string | null {
  if (fitsScale(amount, scale)) return null;
  return `has ${decimalPlacesText(amount.decimalPlaces())}; a ${kind} amount in ${currencyCode} allows at most ${scale}`;
}

/** Every computed figure stays below 10^15 (`DecimalString`'s documented maximum). */
export function assertBelowAmountLimit(value: Decimal, figure: FieldName, currencyCode: string, place: ErrorPlace = {}): void {
  // The exponent rather than comparisons, which convert their operand: this runs twice per estimate line.
  if (!(value.e < AMOUNT_LIMIT_EXPONENT)) {
    throw validationError(`${nameOf(figure)} would be ${value.toFixed()} ${currencyCode}; every amount must be below 10^15`, {
      reason: 'AMOUNT_LIMIT_EXCEEDED',
      ...place,
    });
  }
}

/** Significant digits as written, integer zeros included (1500 has 4): what a JSON number must carry. */
function writtenSignificantDigits(value: Decimal): number {
  return value.isZero() ? 1 : value.precision(true);
}

/** The payout estimate's figures are JSON numbers: more than 15 significant digits would not be exact. */
export function assertJsonExact(value: Decimal, field: string, place: ErrorPlace = {}): void {
  const digits = writtenSignificantDigits(value);
  if (digits > MAX_JSON_SIGNIFICANT_DIGITS) {
    throw validationError(`${field} ${value.toFixed()} has ${digits} significant digits; the payout estimate allows at most ${MAX_JSON_SIGNIFICANT_DIGITS}`, {
      reason: 'TOO_MANY_SIGNIFICANT_DIGITS',
      ...place,
    });
  }
}

/**
 * The bounds of an admin rate (update, quote, FX record): > 0, within 10^-8..10^8, at most 12
 * significant digits (leading zeros and trailing fractional zeros do not count).
 */
export function assertRate(rate: Decimal, field: string): void {
  const facts = { reason: 'RATE_OUT_OF_BOUNDS', field: fieldNamed(field) } as const;
  if (!rate.greaterThan(0)) throw validationError(`${field} must be greater than zero`, facts);
  const inRange = rate.greaterThanOrEqualTo(MIN_RATE) && rate.lessThanOrEqualTo(MAX_RATE);
  if (!inRange || rate.precision() > MAX_RATE_SIGNIFICANT_DIGITS) {
    throw validationError(
      `${field} must be between ${MIN_RATE.toFixed()} and ${MAX_RATE.toFixed()} with at most ${MAX_RATE_SIGNIFICANT_DIGITS} significant digits`,
      facts,
    );
  }
}
