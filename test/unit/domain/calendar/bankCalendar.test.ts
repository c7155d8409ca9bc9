import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { BankCalendar } from '../../../../src/domain/calendar/bankCalendar.js';
import { calendarRulesFor } from '../../../../src/domain/calendar/calendarRules.js';
import { type LeadTimes, checkedPaySchedule, earliestPayDate } from '../../../../src/domain/calendar/paySchedule.js';
import { DomainError } from '../../../../src/domain/errors.js';

const aed = new BankCalendar(calendarRulesFor('AED'));
const leads: LeadTimes = { approve: 3, quote: 2, accept: 1, fund: 1, instruct: 1 };

describe('the AED partner bank calendar', () => {
  it('works Monday to Friday and closes on UAE public holidays', () => {
    expect(aed.isBusinessDay('2026-11-27')).toBe(true); // Friday
    expect(aed.isBusinessDay('2026-11-28')).toBe(false); // Saturday
    expect(aed.isBusinessDay('2026-11-29')).toBe(false); // Sunday
    expect(aed.isBusinessDay('2026-12-02')).toBe(false); // National Day
    expect(aed.isHoliday('2026-12-02')).toBe(true);
  });

  it('answers the next and previous business day', () => {
    expect(aed.nextBusinessDay('2026-11-27')).toBe('2026-11-30');
    expect(aed.nextBusinessDay('2026-12-01')).toBe('2026-12-03');
    expect(aed.previousBusinessDay('2026-12-03')).toBe('2026-12-01');
    expect(aed.addBusinessDays('2026-11-26', 4)).toBe('2026-12-03');
    expect(aed.addBusinessDays('2026-12-03', -4)).toBe('2026-11-26');
  });

  it('keeps its days and cut-off in Gulf time (UTC+4)', () => {
    expect(aed.dayAt(new Date('2026-11-28T20:30:00Z'))).toBe('2026-11-29');
    expect(aed.cutOffOn('2026-11-30').toISOString()).toBe('2026-11-30T11:00:00.000Z');
    expect(aed.latestMomentFor('2026-12-03', 2).toISOString()).toBe('2026-11-30T11:00:00.000Z');
    expect(aed.firstActionableDay(new Date('2026-11-30T10:59:00Z'))).toBe('2026-11-30');
    expect(aed.firstActionableDay(new Date('2026-11-30T11:01:00Z'))).toBe('2026-12-01');
  });

  it('takes the world’s changes: an announced holiday added, a library holiday removed, another weekend', () => {
    const moved = new BankCalendar(calendarRulesFor('AED', { addedHolidays: ['2026-12-03'], removedHolidays: ['2026-12-02'] }));
    expect(moved.isBusinessDay('2026-12-02')).toBe(true);
    expect(moved.isBusinessDay('2026-12-03')).toBe(false);
    const fridayOff = new BankCalendar(calendarRulesFor('XYZ', { weekend: [5, 6], timeZone: 'Asia/Riyadh' }));
    expect(fridayOff.isBusinessDay('2026-11-27')).toBe(false);
    expect(fridayOff.isBusinessDay('2026-11-29')).toBe(true);
  });

  it('a currency without a known bank: Saturday and Sunday off in UTC', () => {
    const plain = new BankCalendar(calendarRulesFor('USDC'));
    expect(plain.timeZone).toBe('UTC');
    expect(plain.isBusinessDay('2026-12-02')).toBe(true);
    expect(plain.isBusinessDay('2026-11-28')).toBe(false);
  });

  it('follows daylight saving where the bank’s zone has it (New York)', () => {
    const usd = new BankCalendar(calendarRulesFor('USD'));
    expect(usd.cutOffOn('2026-07-01').toISOString()).toBe('2026-07-01T21:00:00.000Z');
    expect(usd.cutOffOn('2026-12-01').toISOString()).toBe('2026-12-01T22:00:00.000Z');
    expect(usd.isBusinessDay('2026-11-26')).toBe(false); // Thanksgiving
  });
});

describe('a pay date and its schedule', () => {
  const monday = new Date('2026-11-23T06:00:00Z');

  it('works back from the pay date at the bank’s cut-off', () => {
    const schedule = checkedPaySchedule(aed, '2026-12-01', monday, leads);
    expect(schedule.approveBy.toISOString()).toBe('2026-11-26T11:00:00.000Z');
    expect(schedule.quoteBy.toISOString()).toBe('2026-11-27T11:00:00.000Z');
    expect(schedule.acceptBy.toISOString()).toBe('2026-11-30T11:00:00.000Z');
    expect(schedule.instructBy.toISOString()).toBe('2026-11-30T11:00:00.000Z');
    expect(schedule.executeFrom.toISOString()).toBe('2026-11-29T20:00:00.000Z');
  });

  it('refuses a holiday or a weekend day, naming the nearest possible date', () => {
    const refusal = (payDate: string, now = monday) => {
      try {
        checkedPaySchedule(aed, payDate, now, leads);
      } catch (error) {
        return error as DomainError;
      }
      throw new Error(`${payDate} was accepted`);
    };
    expect(refusal('2026-12-02')).toMatchObject({ code: 'VALIDATION_ERROR', reason: 'PAY_DATE_NOT_BUSINESS_DAY', field: '/payDate' });
    expect(refusal('2026-12-02').details?.[0]?.nearestPayDate).toBe('2026-12-01');
    expect(refusal('2026-11-29').details?.[0]?.nearestPayDate).toBe('2026-11-30');
    expect(refusal('2026-11-24')).toMatchObject({ reason: 'PAY_DATE_TOO_SOON' });
    expect(refusal('2026-11-22').details?.[0]).toMatchObject({ reason: 'PAY_DATE_NOT_BUSINESS_DAY', nearestPayDate: '2026-11-26' });
    expect(refusal('2026-11-24').details?.[0]?.nearestPayDate).toBe(earliestPayDate(aed, monday, leads));
    expect(earliestPayDate(aed, monday, leads)).toBe('2026-11-26');
    expect(refusal('2026-13-01')).toMatchObject({ code: 'VALIDATION_ERROR', field: '/payDate' });
    expect(refusal('9999-12-31')).toMatchObject({ reason: 'PAY_DATE_TOO_FAR' });
    expect(refusal('9999-12-31').details?.[0]?.nearestPayDate).toBe('2027-11-24');
  });
});

describe('calendar properties', () => {
  const day = fc
    .date({ min: new Date('2025-01-01T00:00:00Z'), max: new Date('2028-12-31T00:00:00Z'), noInvalidDate: true })
    .map((d) => d.toISOString().slice(0, 10));

  it('the next business day is one, is later, and nothing between is', () => {
    fc.assert(
      fc.property(day, (d) => {
        const next = aed.nextBusinessDay(d);
        expect(next > d && aed.isBusinessDay(next)).toBe(true);
        expect(aed.previousBusinessDay(next) <= d || !aed.isBusinessDay(d)).toBe(true);
        expect(aed.previousBusinessDay(next) < next).toBe(true);
      }),
      { numRuns: 300 },
    );
  });

  it('adding then subtracting business days returns to a business day', () => {
    fc.assert(
      fc.property(day, fc.integer({ min: 0, max: 30 }), (d, n) => {
        const start = aed.businessDayOnOrAfter(d);
        expect(aed.addBusinessDays(aed.addBusinessDays(start, n), -n)).toBe(start);
      }),
      { numRuns: 300 },
    );
  });

  it('every accepted pay date has its deadlines in order, all still ahead; every refusal names a date that is accepted', () => {
    const instant = fc.date({ min: new Date('2026-01-01T00:00:00Z'), max: new Date('2027-12-01T00:00:00Z'), noInvalidDate: true });
    fc.assert(
      fc.property(instant, fc.integer({ min: 0, max: 20 }), (now, ahead) => {
        const asked = new Date(now.getTime() + ahead * 86_400_000).toISOString().slice(0, 10);
        let payDate = asked;
        try {
          checkedPaySchedule(aed, asked, now, leads);
        } catch (error) {
          payDate = (error as DomainError).details![0]!.nearestPayDate!;
        }
        const s = checkedPaySchedule(aed, payDate, now, leads);
        const order = [s.approveBy, s.quoteBy, s.acceptBy, s.fundBy, s.instructBy].map((d) => d.getTime());
        expect(order).toEqual([...order].sort((a, b) => a - b));
        expect(s.approveBy.getTime()).toBeGreaterThan(now.getTime() - 1);
        expect(s.executeFrom.getTime()).toBeLessThanOrEqual(s.fundBy.getTime());
        expect(aed.isBusinessDay(s.payDate)).toBe(true);
      }),
      { numRuns: 200 },
    );
  });
});
