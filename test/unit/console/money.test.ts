// The console's amounts: grouped as people read them, exactly the API's digits (no float, no rounding).
import { describe, expect, it } from 'vitest';
import { formatDecimal, isZero, magnitude, sumDecimals } from '../../../console/src/money.js';

describe('formatDecimal', () => {
  it('groups the whole part by thousands and keeps every digit of the fraction', () => {
    expect(formatDecimal('172053.81285438')).toBe('172,053.81285438');
    expect(formatDecimal('1000.00')).toBe('1,000.00');
    expect(formatDecimal('999.99')).toBe('999.99');
    expect(formatDecimal('1234567890')).toBe('1,234,567,890');
    expect(formatDecimal('0.00000001')).toBe('0.00000001');
  });

  it('keeps the sign of a signed amount', () => {
    expect(formatDecimal('-2370.5')).toBe('-2,370.5');
    expect(formatDecimal('+12.00')).toBe('12.00');
  });

  it('pads to the minor units with zeros and never cuts a digit', () => {
    expect(formatDecimal('1000', 2)).toBe('1,000.00');
    expect(formatDecimal('5.1', 2)).toBe('5.10');
    expect(formatDecimal('5.125', 2)).toBe('5.125');
    expect(formatDecimal('7', 0)).toBe('7');
  });

  it('returns what is no decimal string as it is', () => {
    expect(formatDecimal('n/a')).toBe('n/a');
    expect(formatDecimal('1e5')).toBe('1e5');
  });

  it('never goes through a float: figures beyond 2^53 keep their digits', () => {
    expect(formatDecimal('90071992547409931.123456789')).toBe('90,071,992,547,409,931.123456789');
  });
});

describe('sumDecimals', () => {
  it('adds exactly, to the longest fraction', () => {
    expect(sumDecimals(['0.1', '0.2'])).toBe('0.3');
    expect(sumDecimals(['3670.00', '2000.00'])).toBe('5670.00');
    expect(sumDecimals(['1.005', '2.1', '-0.105'])).toBe('3.000');
    expect(sumDecimals([])).toBe('0');
    expect(sumDecimals(['-5.00', '2.50'])).toBe('-2.50');
  });
});

describe('magnitude and isZero', () => {
  it('splits the sign off and recognises zero', () => {
    expect(magnitude('-2.37')).toEqual({ negative: true, absolute: '2.37' });
    expect(magnitude('2.13')).toEqual({ negative: false, absolute: '2.13' });
    expect(isZero('0.00')).toBe(true);
    expect(isZero('-0')).toBe(true);
    expect(isZero('0.01')).toBe(false);
  });
});
