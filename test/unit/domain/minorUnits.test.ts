import { describe, expect, it } from 'vitest';
import { DomainError } from '../../../src/domain/errors.js';
import {
  assertBelowAmountLimit,
  assertJsonExact,
  assertRate,
  assertScale,
  roundCharge,
  formatAtScale,
  payrollScaleOf,
  roundPayout,
  settlementScales,
  sourceScaleOf,
} from '../../../src/domain/money/minorUnits.js';
import fc from 'fast-check';
import { Money, exactAmountText, formatExact } from '../../../src/domain/money/money.js';

const m = (text: string) => new Money(text);

/** The VALIDATION_ERROR of `reason` (at `field`, where the rule has one), as a thrown error is matched. */
const refusal = (reason: string, field?: string) => expect.objectContaining({ code: 'VALIDATION_ERROR', reason, ...(field && { field }) });

describe('scales per currency', () => {
  it.each([
    // [currency, decimals, source scale = min(8, d), payroll scale = min(2, d)]
    ['USD', 2, 2, 2],
    ['USDC (real life)', 6, 6, 2],
    ['USDC (demo world)', 8, 8, 2],
    ['JPY', 0, 0, 0],
    ['KWD', 3, 3, 2],
    ['ETH', 18, 8, 2],
  ])('%s with %i decimals: source %i, payroll %i', (_name, decimals, source, payroll) => {
    expect(sourceScaleOf(decimals)).toBe(source);
    expect(payrollScaleOf(decimals)).toBe(payroll);
  });

  it('pairs the scales with the codes messages name', () => {
    expect(settlementScales({ code: 'USD', decimals: 2 }, { code: 'JPY', decimals: 0 })).toEqual({
      source: 2,
      payroll: 0,
      sourceCode: 'USD',
      payrollCode: 'JPY',
    });
  });
});

describe('rounding directions', () => {
  it.each([
    // value, scale, what the customer pays (up), what is promised (down)
    ['547.3247791031', 2, '547.33', '547.32'], // 2000 AED ÷ 3.6541375
    ['547.3247791031', 6, '547.32478', '547.324779'], // the same in USDC with 6 places (547.324780 = 547.32478)
    ['15049.375', 0, '15050', '15049'], // 100 USD × 150.49375 in JPY
    ['2.5', 2, '2.5', '2.5'], // already at scale: unchanged
  ])('%s at %i places: up %s, down %s', (value, scale, up, down) => {
    expect(roundCharge(m(value), scale).toFixed()).toBe(up);
    expect(roundPayout(m(value), scale).toFixed()).toBe(down);
  });
});

describe('formatAtScale', () => {
  it('writes exactly the scale, zero without a sign', () => {
    expect(formatAtScale(m('1512.74'), 2)).toBe('1512.74');
    expect(formatAtScale(m('1500'), 2)).toBe('1500.00');
    expect(formatAtScale(m('15049'), 0)).toBe('15049');
    expect(formatAtScale(m('-2.37'), 2)).toBe('-2.37');
    expect(formatAtScale(m('0').negated(), 2)).toBe('0.00');
  });

  it('pads a value with fewer places than the scale, whatever its sign or size', () => {
    expect(formatAtScale(m('1.5'), 2)).toBe('1.50');
    expect(formatAtScale(m('-3.1'), 8)).toBe('-3.10000000');
    expect(formatAtScale(m('-40'), 2)).toBe('-40.00');
    expect(formatAtScale(m('0'), 0)).toBe('0');
    expect(formatAtScale(m('0.00000001'), 8)).toBe('0.00000001');
    expect(formatAtScale(m('999999999999999.9'), 2)).toBe('999999999999999.90');
    expect(formatAtScale(m('1e-7'), 8)).toBe('0.00000010');
  });

  it('refuses to round silently', () => {
    expect(() => formatAtScale(m('1.005'), 2)).toThrow(Error);
  });
});

describe('assertScale', () => {
  it('says the rule, the field and the entry as data', () => {
    expect(() => assertScale(m('1000.005'), 2, 'amountSplitDetails[0].amount', 'SOURCE', 'USD', { entryIndex: 0 })).toThrow(
      expect.objectContaining({ code: 'VALIDATION_ERROR', reason: 'TOO_MANY_DECIMALS', field: '/amountSplitDetails/0/amount', entryIndex: 0 }),
    );
    expect(() => assertScale(m('10000.5'), 0, 'amountSplitDetails[1].amount', 'PAYROLL', 'JPY')).toThrow(
      refusal('TOO_MANY_DECIMALS', '/amountSplitDetails/1/amount'),
    );
  });

  it('accepts an amount within the scale', () => {
    expect(() => assertScale(m('0.123456'), 6, 'x', 'SOURCE', 'USDC')).not.toThrow();
  });
});

describe('assertRate (RateString bounds)', () => {
  it.each(['3.6725', '0.00000001', '100000000', '151.25', '0.000036725', '3.67250000000000'])('accepts %s', (rate) => {
    expect(() => assertRate(m(rate), 'body.rate')).not.toThrow();
  });

  it.each([
    ['0'],
    ['0.000000000000000000000000000000001'], // the 500
    ['0.000000009'], // below 10^-8
    ['100000000.5'], // above 10^8
    ['3.67251234567891'], // 15 significant digits
  ])('refuses %s', (rate) => {
    expect(() => assertRate(m(rate), 'body.rate')).toThrow(expect.objectContaining({ code: 'VALIDATION_ERROR', reason: 'RATE_OUT_OF_BOUNDS', field: '/rate' }));
  });
});

describe('assertJsonExact (payout estimate)', () => {
  it('counts written digits, integer zeros included', () => {
    expect(() => assertJsonExact(m('1234567.12345678'), 'amount')).not.toThrow(); // 7 + 8 = 15
    expect(() => assertJsonExact(m('100000000000000'), 'amount')).not.toThrow(); // 15 digits
    expect(() => assertJsonExact(m('999999999.12345678'), 'amount')).toThrow(refusal('TOO_MANY_SIGNIFICANT_DIGITS'));
  });
});

describe('assertBelowAmountLimit', () => {
  it('keeps every figure below 10^15', () => {
    expect(() => assertBelowAmountLimit(m('999999999999999.99'), 'totalAmount', 'USD')).not.toThrow();
    expect(() => assertBelowAmountLimit(m('1000000000000000'), 'totalAmount', 'USD')).toThrow(refusal('AMOUNT_LIMIT_EXCEEDED'));
  });

  it('bounds a negative figure by its size too', () => {
    expect(() => assertBelowAmountLimit(m('-999999999999999.99'), 'balance', 'USD')).not.toThrow();
    expect(() => assertBelowAmountLimit(m('-1000000000000000'), 'balance', 'USD')).toThrow(refusal('AMOUNT_LIMIT_EXCEEDED'));
  });

  it('refuses exactly the figures whose size reaches 10^15, at any scale and sign', () => {
    const digits = fc.stringMatching(/^[1-9][0-9]{0,17}$/);
    const figure = fc.record({ digits, scale: fc.integer({ min: 0, max: 20 }), negative: fc.boolean() });
    fc.assert(
      fc.property(figure, ({ digits, scale, negative }) => {
        const value = new Money(`${negative ? '-' : ''}${digits}e-${scale}`);
        const refused = value.abs().greaterThanOrEqualTo('1e15');
        const check = () => assertBelowAmountLimit(value, 'figure', 'USD');
        if (refused) expect(check).toThrow(DomainError);
        else expect(check).not.toThrow();
      }),
      { numRuns: 2000 },
    );
    expect(() => assertBelowAmountLimit(m('0'), 'figure', 'USD')).not.toThrow();
  });
});

describe('exactAmountText', () => {
  it('writes any AmountString as formatExact writes its parsed value', () => {
    const integer = fc.oneof(fc.constant('0'), fc.stringMatching(/^[1-9][0-9]{0,14}$/));
    const fraction = fc.option(fc.stringMatching(/^[0-9]{1,8}$/), { nil: undefined });
    fc.assert(
      fc.property(integer, fraction, (whole, decimals) => {
        const text = decimals === undefined ? whole : `${whole}.${decimals}`;
        expect(exactAmountText(text)).toBe(formatExact(new Money(text)));
      }),
      { numRuns: 2000 },
    );
    expect(['1000.50', '7.00', '0.10', '0.0', '100', '1000.25'].map(exactAmountText)).toEqual(['1000.5', '7', '0.1', '0', '100', '1000.25']);
  });
});
