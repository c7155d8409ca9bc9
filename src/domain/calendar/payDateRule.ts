import type { BankCalendar } from './bankCalendar.js';
import { type LeadTimes, earliestPayDate } from './paySchedule.js';
import type { IsoDay } from './timeZones.js';

/** How a template's pay date falls each month. */
export type PayDateRule = { kind: 'DAY_OF_MONTH'; dayOfMonth: number } | { kind: 'LAST_BUSINESS_DAY' };

/** A template's run: a pay date, when its draft is created and the pay date's approve-by. */
export interface TemplateRun {
  payDate: IsoDay;
  draftAt: Date;
  approveBy: Date;
}

/** The months a search for a run looks at before giving up: a rule with no possible date within a year is a mistake. */
const MAX_MONTHS = 13;

const pad = (n: number) => String(n).padStart(2, '0');

function lastDayOfMonth(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

/** The rule's pay date in `year`-`month` (1-12): the rule's day, moved to the previous business day when the bank does not pay on it. */
export function payDateInMonth(calendar: BankCalendar, rule: PayDateRule, year: number, month: number): IsoDay {
  const last = lastDayOfMonth(year, month);
  const day = rule.kind === 'LAST_BUSINESS_DAY' ? last : Math.min(rule.dayOfMonth, last);
  const iso = `${year}-${pad(month)}-${pad(day)}`;
  return calendar.isBusinessDay(iso) ? iso : calendar.previousBusinessDay(iso);
}

/** The run of `payDate`: its draft is created at the bank's midnight opening the business day `draftLeadDays` before the approve-by day. */
function templateRun(calendar: BankCalendar, payDate: IsoDay, leads: LeadTimes, draftLeadDays: number): TemplateRun {
  return {
    payDate,
    draftAt: calendar.startOf(calendar.addBusinessDays(payDate, -(leads.approve + draftLeadDays))),
    approveBy: calendar.latestMomentFor(payDate, leads.approve),
  };
}

/**
 * The next run at `now`: the rule's first pay date after `after` (the last run's pay date, if any)
 * that is still possible (its deadlines ahead, as a request's pay date must be).
 */
export function nextTemplateRun(calendar: BankCalendar, rule: PayDateRule, now: Date, leads: LeadTimes, draftLeadDays: number, after?: IsoDay): TemplateRun {
  const earliest = earliestPayDate(calendar, now, leads);
  let year = Number(earliest.slice(0, 4));
  let month = Number(earliest.slice(5, 7));
  // A pay date moved back to the previous month's end may sit in the month before `earliest`'s.
  month -= 1;
  if (month === 0) [year, month] = [year - 1, 12];
  for (let i = 0; i < MAX_MONTHS; i++) {
    const payDate = payDateInMonth(calendar, rule, year, month);
    if (payDate >= earliest && (after === undefined || payDate > after)) return templateRun(calendar, payDate, leads, draftLeadDays);
    month += 1;
    if (month === 13) [year, month] = [year + 1, 1];
  }
  throw new Error(`No pay date within ${MAX_MONTHS} months for the rule ${JSON.stringify(rule)}`);
}
