import { Decimal } from 'decimal.js';

/**
 * The one place money is parsed, rounded and formatted. Amounts are decimal.js values from
 * the request's string to the response's string; a JS float never holds an amount.
 * Precision 60 keeps every product and quotient we form exact or far below any scale we round to.
 */
export const Money = Decimal.clone({ precision: 60, rounding: Decimal.ROUND_HALF_EVEN, toExpNeg: -60, toExpPos: 60 });
export type Money = Decimal;

export const ZERO = new Money(0);

/**
 * Parses a decimal string that the spec's pattern already admitted. decimal.js reads a string's
 * digits into an array one push at a time, and V8 leaves such an array room for many more digits
 * than an amount has. Copied (decimal.js copies the digits by slice), it keeps only its own: a
 * 100,000-line payroll holds as many parsed amounts.
 */
export function parseAmount(text: string): Decimal {
  return new Money(new Money(text));
}

export function sum(values: Iterable<Decimal>): Decimal {
  let total: Decimal = ZERO;
  for (const value of values) total = total.plus(value);
  return total;
}

/** "1 decimal place", "3 decimal places": for validation messages. */
export function decimalPlacesText(count: number): string {
  return `${count} decimal place${count === 1 ? '' : 's'}`;
}

/**
 * The exact value as a plain decimal string (never an exponent), with at least `minScale`
 * decimals so that "1500" in USD reads "1500.00"; more decimals only where the value has them.
 */
export function formatAmount(value: Decimal, minScale = 0): string {
  return value.toFixed(Math.max(minScale, value.decimalPlaces()));
}

/** A rate or other exact figure, shown with exactly the decimals it has. */
export function formatExact(value: Decimal): string {
  return value.toFixed();
}

const TRAILING_FRACTION_ZEROS = /\.?0+$/;

/**
 * An AmountString (the spec's pattern: digits without sign, exponent or leading zeros, then at
 * most 8 decimals) written as formatExact writes its value, without parsing it: "1000.50" reads
 * "1000.5" and "7.00" reads "7". For comparing 100,000 amounts with their stored exact form.
 */
export function exactAmountText(text: string): string {
  return text.includes('.') ? text.replace(TRAILING_FRACTION_ZEROS, '') : text;
}

/** A JSON number from a value already rounded to its currency's minor units. */
export function toJsonNumber(value: Decimal): number {
  return value.toNumber();
}

export function clamp(value: Decimal, min: Decimal, max: Decimal): Decimal {
  return Decimal.min(Decimal.max(value, min), max);
}

export function bipsFraction(bips: Decimal.Value): Decimal {
  return new Money(bips).dividedBy(10_000);
}
