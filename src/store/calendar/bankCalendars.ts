import { type CalendarRules, calendarRulesFor } from '../../domain/calendar/calendarRules.js';
import type { Queryable } from '../database/db.js';

const WEEKDAYS = ['SUN', 'MON', 'TUE', 'WED', 'THU', 'FRI', 'SAT'];

interface DeclaredCalendar {
  country: string | null;
  countryDeclared: boolean;
  timeZone: string | null;
  weekend: string[] | null;
  cutOff: string | null;
  addedHolidays: string[];
  removedHolidays: string[];
}

/** The calendar of `currencyCode`'s partner bank: what the world declared over the service's own. */
export async function calendarRulesOf(q: Queryable, currencyCode: string): Promise<CalendarRules> {
  const [row] = await q.query<DeclaredCalendar>(
    `SELECT country, country_declared AS "countryDeclared", time_zone AS "timeZone", weekend, cut_off AS "cutOff",
            added_holidays AS "addedHolidays", removed_holidays AS "removedHolidays"
       FROM bank_calendars WHERE currency_code = $1`,
    [currencyCode],
  );
  if (!row) return calendarRulesFor(currencyCode);
  return calendarRulesFor(currencyCode, {
    ...(row.countryDeclared ? { country: row.country } : {}),
    ...(row.timeZone === null ? {} : { timeZone: row.timeZone }),
    ...(row.weekend === null ? {} : { weekend: row.weekend.map((day) => WEEKDAYS.indexOf(day)) }),
    ...(row.cutOff === null ? {} : { cutOff: row.cutOff }),
    addedHolidays: row.addedHolidays,
    removedHolidays: row.removedHolidays,
  });
}
