import { DomainError, validationError } from '../errors.js';
import type { BankCalendar } from './bankCalendar.js';
import { type IsoDay, isIsoDay, shiftDay } from './timeZones.js';

/**
 * How many of the bank's business days before the pay date each step must be done, each at the
 * bank's cut-off on that day. Non-increasing in the order of the steps: a request is approved,
 * then quoted, accepted, funded (the source debit) and instructed (the payment file).
 */
export interface LeadTimes {
  approve: number;
  quote: number;
  accept: number;
  fund: number;
  instruct: number;
}

/** The moments a payroll with a pay date must keep, each the latest moment for its step. */
export interface PaySchedule {
  payDate: IsoDay;
  /** The bank's time zone, in which its days and cut-off are reckoned. */
  timeZone: string;
  approveBy: Date;
  quoteBy: Date;
  acceptBy: Date;
  fundBy: Date;
  instructBy: Date;
  /** When an accepted request starts to execute: the bank's midnight opening the fund-by day. */
  executeFrom: Date;
}

/** The schedule of a payroll paid on `payDate` (a business day of `calendar`). */
function payScheduleFor(calendar: BankCalendar, payDate: IsoDay, leads: LeadTimes): PaySchedule {
  const fundDay = calendar.addBusinessDays(payDate, -leads.fund);
  return {
    payDate,
    timeZone: calendar.timeZone,
    approveBy: calendar.latestMomentFor(payDate, leads.approve),
    quoteBy: calendar.latestMomentFor(payDate, leads.quote),
    acceptBy: calendar.latestMomentFor(payDate, leads.accept),
    fundBy: calendar.latestMomentFor(payDate, leads.fund),
    instructBy: calendar.latestMomentFor(payDate, leads.instruct),
    executeFrom: calendar.startOf(fundDay),
  };
}

/** A pay date is at most a year ahead: a calendar's holidays beyond are guesses, and a request should not wait longer. */
const MAX_DAYS_AHEAD = 366;

/** The first step's lead: a pay date is possible while its earliest deadline is still ahead. */
const firstLead = (leads: LeadTimes): number => Math.max(leads.approve, leads.quote, leads.accept, leads.fund, leads.instruct);

/** The earliest pay date whose every deadline is still ahead at `now`. */
export function earliestPayDate(calendar: BankCalendar, now: Date, leads: LeadTimes): IsoDay {
  return calendar.addBusinessDays(calendar.firstActionableDay(now), firstLead(leads));
}

/**
 * The schedule of `payDate` asked for at `now`, or the refusal naming the nearest possible pay date:
 * a day the bank does not pay on (PAY_DATE_NOT_BUSINESS_DAY: the nearest business day that is
 * still possible), one whose first deadline has passed (PAY_DATE_TOO_SOON: the earliest possible), or
 * one more than MAX_DAYS_AHEAD days ahead (PAY_DATE_TOO_FAR: the latest possible).
 */
export function checkedPaySchedule(calendar: BankCalendar, payDate: string, now: Date, leads: LeadTimes, field = '/payDate'): PaySchedule {
  if (!isIsoDay(payDate)) throw validationError(`payDate ${payDate} is not a calendar day (YYYY-MM-DD)`, { field });
  const earliest = earliestPayDate(calendar, now, leads);
  const refuse = (reason: 'PAY_DATE_NOT_BUSINESS_DAY' | 'PAY_DATE_TOO_SOON' | 'PAY_DATE_TOO_FAR', why: string, nearest: IsoDay) => {
    const message = `payDate ${payDate} ${why}; the nearest possible pay date is ${nearest}`;
    return new DomainError('VALIDATION_ERROR', message, { reason, field, details: [{ message, reason, field, nearestPayDate: nearest }] });
  };
  const latest = shiftDay(calendar.dayAt(now), MAX_DAYS_AHEAD);
  if (payDate > latest) {
    throw refuse(
      'PAY_DATE_TOO_FAR',
      `is more than ${MAX_DAYS_AHEAD} days ahead`,
      calendar.isBusinessDay(latest) ? latest : calendar.previousBusinessDay(latest),
    );
  }
  if (!calendar.isBusinessDay(payDate)) {
    const kind = calendar.isHoliday(payDate) ? 'a holiday' : 'a weekend day';
    throw refuse('PAY_DATE_NOT_BUSINESS_DAY', `is ${kind} of the ${calendar.rules.currencyCode} partner bank`, nearestBusinessDay(calendar, payDate, earliest));
  }
  if (payDate < earliest)
    throw refuse('PAY_DATE_TOO_SOON', `is too soon: its first deadline has passed (${calendar.rules.currencyCode} bank's cut-off)`, earliest);
  return payScheduleFor(calendar, payDate, leads);
}

/** The business day nearest `day` (the earlier on a tie), never before `earliest`. */
function nearestBusinessDay(calendar: BankCalendar, day: IsoDay, earliest: IsoDay): IsoDay {
  const before = calendar.previousBusinessDay(day);
  const after = calendar.nextBusinessDay(day);
  if (after < earliest) return earliest;
  if (before < earliest) return after;
  const gap = (other: IsoDay) => Math.abs(Date.parse(other) - Date.parse(day));
  return gap(before) <= gap(after) ? before : after;
}
