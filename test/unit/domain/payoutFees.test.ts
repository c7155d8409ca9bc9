import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { BankCalendar } from '../../../src/domain/calendar/bankCalendar.js';
import { calendarRulesFor } from '../../../src/domain/calendar/calendarRules.js';
import { signPayoutFeeHash, verifyPayoutFeeHash } from '../../../src/domain/fees/feeHash.js';
import { Money } from '../../../src/domain/money/money.js';
import { checkPayoutAmount, computePayoutFees } from '../../../src/domain/fees/payoutFees.js';

const schedule = { percentBps: new Money(25), fixed: new Money('2.00'), min: new Money('3.00'), max: new Money('40.00'), settlementDays: 2 };
const monday = new Date('2026-11-23T10:00:00Z');
/** The AED partner bank's calendar: Monday to Friday in Gulf time, UAE public holidays, a 15:00 cut-off. */
const calendar = new BankCalendar(calendarRulesFor('AED'));

describe('payout fee formulas', () => {
  it('fee from the schedule, the customer rule set, exact totals', () => {
    const figures = computePayoutFees({
      amount: new Money('1234.56'),
      minorUnits: 2,
      schedule,
      internalRule: { percentBps: new Money(5), fixed: new Money('0.25'), customerSpecific: true },
      now: monday,
      calendar,
    });
    // fee = 1234.56 × 0.0025 + 2 = 5.0864 → up 5.09; internal = 0.617280 + 0.25 = 0.86728 → up 0.87
    expect(figures.fee.toFixed()).toBe('5.09');
    expect(figures.internalFee.toFixed()).toBe('0.87');
    expect(figures.totalFee.toFixed()).toBe('5.96');
    expect(figures.totalAmount.toFixed()).toBe('1240.52');
    expect(figures.ruleSet).toBe(true);
    expect(figures.estimatedDate.toISOString()).toBe('2026-11-25T10:00:00.000Z');
  });

  it('clamps to the schedule minimum and maximum; the platform default is not a rule set', () => {
    const small = computePayoutFees({
      amount: new Money(10),
      minorUnits: 2,
      schedule,
      internalRule: { percentBps: new Money(10), fixed: new Money('0.5'), customerSpecific: false },
      now: monday,
      calendar,
    });
    expect(small.fee.toFixed()).toBe('3'); // 2.025 → min 3
    expect(small.internalFee.toFixed()).toBe('0.51');
    expect(small.ruleSet).toBe(false);
    const large = computePayoutFees({ amount: new Money(100000), minorUnits: 2, schedule, internalRule: null, now: monday, calendar });
    expect(large.fee.toFixed()).toBe('40'); // 252 → max 40
    expect(large.internalFee.toFixed()).toBe('0');
  });

  it('without a schedule no estimate is available', () => {
    const figures = computePayoutFees({ amount: new Money(50), minorUnits: 0, schedule: null, internalRule: null, now: monday, calendar });
    expect(figures).toMatchObject({ isEstimateAvailable: false, ruleSet: false, estimatedDate: monday });
    expect(figures.totalAmount.toFixed()).toBe('50');
  });

  it('checks the amount against the currency', () => {
    const refusal = (reason: string) => expect.objectContaining({ code: 'VALIDATION_ERROR', reason, field: 'amount' });
    expect(() => checkPayoutAmount(new Money('1.005'), 'USD', 2)).toThrow(refusal('TOO_MANY_DECIMALS'));
    expect(() => checkPayoutAmount(new Money('0'), 'USD', 2)).toThrow(refusal('AMOUNT_NOT_POSITIVE'));
    expect(() => checkPayoutAmount(new Money('1000000000000'), 'USD', 2)).toThrow(refusal('AMOUNT_LIMIT_EXCEEDED'));
  });

  it('totals are exact and every figure is a whole number of minor units', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 1n, max: 99_999_999_999_999n }), fc.integer({ min: 0, max: 3 }), (units, minorUnits) => {
        const amount = new Money(units.toString()).dividedBy(new Money(10).pow(minorUnits));
        const f = computePayoutFees({
          amount,
          minorUnits,
          schedule,
          internalRule: { percentBps: new Money(7), fixed: new Money('0.1'), customerSpecific: true },
          now: monday,
          calendar,
        });
        expect(f.totalFee.equals(f.fee.plus(f.internalFee))).toBe(true);
        expect(f.totalAmount.equals(amount.plus(f.totalFee))).toBe(true);
        for (const value of [f.fee, f.internalFee, f.totalAmount]) expect(value.decimalPlaces()).toBeLessThanOrEqual(minorUnits);
        // The JSON number carries the exact value.
        expect(new Money(String(f.totalAmount.toNumber())).equals(f.totalAmount)).toBe(true);
      }),
      { numRuns: 300 },
    );
  });
});

describe('estimated date on the partner bank calendar', () => {
  it('counts business days in Gulf time, skipping the weekend and a UAE holiday', () => {
    const estimate = (now: Date) => computePayoutFees({ amount: new Money(10), minorUnits: 2, schedule, internalRule: null, now, calendar }).estimatedDate;
    // Friday 27 November before the cut-off: Monday 30, then Tuesday 1 December (2 December is National Day).
    expect(estimate(new Date('2026-11-27T09:00:00Z')).toISOString()).toBe('2026-12-01T09:00:00.000Z');
    // Monday 30 November after the 15:00 cut-off (11:00 UTC): counted from Tuesday 1; 2 December is skipped.
    expect(estimate(new Date('2026-11-30T12:00:00Z')).toISOString()).toBe('2026-12-04T12:00:00.000Z');
    // Saturday evening UTC is already Sunday in Dubai: counted from Monday 30; 2 December is skipped.
    expect(estimate(new Date('2026-11-28T21:00:00Z')).toISOString()).toBe('2026-12-02T21:00:00.000Z'); // 01:00 on 3 December in Dubai
  });
});

describe('payout feeHash', () => {
  const secret = 'test-secret';
  const figures = 'acct|ben|USD|100';
  const hash = signPayoutFeeHash(secret, '3f0e8a4e-1b2c-4d5e-8f90-123456789abc', new Date('2026-11-23T10:15:00Z'), figures);

  it('has three colon-separated parts and verifies', () => {
    expect(hash.split(':')).toHaveLength(3);
    expect(verifyPayoutFeeHash(secret, hash, figures, monday)).toMatchObject({ ok: true, estimateId: '3f0e8a4e-1b2c-4d5e-8f90-123456789abc' });
  });

  it('rejects one altered character anywhere, other figures, and expiry', () => {
    for (let index = 0; index < hash.length; index++) {
      if (hash[index] === ':') continue;
      const altered = hash.slice(0, index) + (hash[index] === 'a' ? 'b' : 'a') + hash.slice(index + 1);
      expect(verifyPayoutFeeHash(secret, altered, figures, monday).ok).toBe(false);
    }
    expect(verifyPayoutFeeHash(secret, hash, 'acct|ben|USD|101', monday)).toEqual({ ok: false, reason: 'BAD_SIGNATURE' });
    expect(verifyPayoutFeeHash(secret, hash, figures, new Date('2026-11-23T10:15:00Z'))).toEqual({ ok: false, reason: 'EXPIRED' });
  });
});
