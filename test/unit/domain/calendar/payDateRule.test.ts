import { describe, expect, it } from 'vitest';
import { BankCalendar } from '../../../../src/domain/calendar/bankCalendar.js';
import { calendarRulesFor } from '../../../../src/domain/calendar/calendarRules.js';
import { nextTemplateRun, payDateInMonth } from '../../../../src/domain/calendar/payDateRule.js';
import type { LeadTimes } from '../../../../src/domain/calendar/paySchedule.js';

const aed = new BankCalendar(calendarRulesFor('AED'));
const leads: LeadTimes = { approve: 3, quote: 2, accept: 1, fund: 1, instruct: 1 };
const lastBusinessDay = { kind: 'LAST_BUSINESS_DAY' } as const;

describe('a template pay date rule on the AED calendar', () => {
  it('pays on the last business day, moved back from a weekend', () => {
    expect(payDateInMonth(aed, lastBusinessDay, 2026, 12)).toBe('2026-12-31'); // Thursday
    expect(payDateInMonth(aed, lastBusinessDay, 2027, 1)).toBe('2027-01-29'); // the 31st is a Sunday
  });

  it('pays on a day of the month, moved back from a holiday and clipped to a short month', () => {
    expect(payDateInMonth(aed, { kind: 'DAY_OF_MONTH', dayOfMonth: 2 }, 2026, 12)).toBe('2026-12-01'); // National Day
    expect(payDateInMonth(aed, { kind: 'DAY_OF_MONTH', dayOfMonth: 31 }, 2027, 2)).toBe('2027-02-26'); // 28th: Sunday
  });

  it('runs the first possible pay date, its draft a lead of business days before approve-by', () => {
    const run = nextTemplateRun(aed, lastBusinessDay, new Date('2026-11-26T06:00:00Z'), leads, 2);
    // Approve-by: three business days before Thursday 31 December, at the 15:00 cut-off in Dubai;
    // the draft two business days before that day, at the bank's midnight.
    expect(run).toEqual({
      payDate: '2026-12-31',
      approveBy: new Date('2026-12-28T11:00:00Z'),
      draftAt: new Date('2026-12-23T20:00:00Z'),
    });
  });

  it('skips a pay date whose deadlines have passed, and one already run', () => {
    // 29 December: the 31st's approve-by (28th) has passed; the next is January's.
    expect(nextTemplateRun(aed, lastBusinessDay, new Date('2026-12-29T06:00:00Z'), leads, 2).payDate).toBe('2027-01-29');
    expect(nextTemplateRun(aed, lastBusinessDay, new Date('2026-11-26T06:00:00Z'), leads, 2, '2026-12-31').payDate).toBe('2027-01-29');
    // 1 December: November's last business day (Friday 27th) is behind; December's is next.
    expect(nextTemplateRun(aed, lastBusinessDay, new Date('2026-12-01T06:00:00Z'), leads, 0).payDate).toBe('2026-12-31');
  });
});
