import Holidays from 'date-holidays';
import type { IsoDay } from './timeZones.js';

/** The kinds of date-holidays' days on which banks close; observances and optional days keep them open. */
const CLOSING_TYPES = new Set(['public', 'bank']);

const byCountryYear = new Map<string, ReadonlySet<IsoDay>>();

/**
 * A country's public and bank holidays of one year, as the country's own calendar days, from
 * date-holidays (kept per country and year: the library's rules are computed once).
 */
export function publicHolidays(country: string, year: number): ReadonlySet<IsoDay> {
  const key = `${country}:${year}`;
  let days = byCountryYear.get(key);
  if (!days) {
    const holidays = new Holidays(country);
    // date-holidays writes each day as `YYYY-MM-DD hh:mm:ss[ offset]` in the country's own time.
    days = new Set((holidays.getHolidays(year) || []).filter((holiday) => CLOSING_TYPES.has(holiday.type)).map((holiday) => holiday.date.slice(0, 10)));
    byCountryYear.set(key, days);
  }
  return days;
}
