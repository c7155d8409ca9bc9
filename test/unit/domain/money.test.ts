import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Money, formatExact, parseAmount } from '../../../src/domain/money/money.js';

/** AmountStrings as the spec admits them: digits without leading zeros, then up to 8 decimals. */
const amountText = fc
  .tuple(fc.bigInt({ min: 0n, max: 10n ** 15n }), fc.option(fc.stringMatching(/^[0-9]{1,8}$/), { nil: undefined }))
  .map(([units, fraction]) => (fraction === undefined ? units.toString() : `${units}.${fraction}`));

describe('parseAmount', () => {
  it('reads exactly the value decimal.js reads, digits and exponent alike', () => {
    fc.assert(
      fc.property(amountText, (text) => {
        const parsed = parseAmount(text);
        const direct = new Money(text);
        expect(parsed.equals(direct)).toBe(true);
        expect(formatExact(parsed)).toBe(formatExact(direct));
        expect(parsed.d).toEqual(direct.d);
      }),
    );
  });
});
