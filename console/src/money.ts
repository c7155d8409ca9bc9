/**
 * Amounts as people read them, from the API's decimal strings and never through a float: the
 * digits the API wrote, grouped by thousands. A figure is never rounded to another amount; padding
 * to the currency's minor units only adds zeros.
 */

const DECIMAL = /^([+-]?)(\d+)(?:\.(\d+))?$/;

/** `172053.81285438` → `172,053.81285438`; `decimals` pads the fraction with zeros, never cuts it. A string that is no decimal is returned as it is. */
export function formatDecimal(value: string, decimals?: number): string {
  const match = DECIMAL.exec(value.trim());
  if (!match) return value;
  const [, sign = '', whole = '', given = ''] = match;
  const fraction = decimals !== undefined && given.length < decimals ? given.padEnd(decimals, '0') : given;
  const grouped = whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return `${sign === '-' ? '-' : ''}${grouped}${fraction ? `.${fraction}` : ''}`;
}

function scaled(value: string, places: number): bigint {
  const match = DECIMAL.exec(value.trim());
  if (!match) throw new Error(`Not a decimal string: ${value}`);
  const [, sign = '', whole = '', fraction = ''] = match;
  const units = BigInt(whole + fraction.padEnd(places, '0'));
  return sign === '-' ? -units : units;
}

function unscaled(units: bigint, places: number): string {
  const negative = units < 0n;
  const digits = (negative ? -units : units).toString().padStart(places + 1, '0');
  const whole = digits.slice(0, digits.length - places);
  const fraction = digits.slice(digits.length - places);
  return `${negative ? '-' : ''}${whole}${places > 0 ? `.${fraction}` : ''}`;
}

/** The exact sum of decimal strings, with as many places as the longest of them (`'0'` for none). */
export function sumDecimals(values: readonly string[]): string {
  const places = Math.max(0, ...values.map((value) => value.split('.')[1]?.length ?? 0));
  return unscaled(
    values.reduce((sum, value) => sum + scaled(value, places), 0n),
    places,
  );
}

/** The absolute value of a decimal string, and whether it was below zero. */
export function magnitude(value: string): { negative: boolean; absolute: string } {
  const trimmed = value.trim();
  return trimmed.startsWith('-') ? { negative: true, absolute: trimmed.slice(1) } : { negative: false, absolute: trimmed.replace(/^\+/, '') };
}

/** Whether a decimal string is zero (`0`, `0.00`, `-0.0`). */
export function isZero(value: string): boolean {
  return /^[+-]?0+(\.0+)?$/.test(value.trim());
}
