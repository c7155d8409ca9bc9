import type { IsoDay } from './timeZones.js';

/**
 * The partner bank's calendar for one currency: where it is (the country whose public holidays
 * close it, its time zone), its weekend, its daily cut-off, and the days the world adds or removes
 * (an Eid announced on the moon sighting moves: the old day is removed, the new one added).
 */
export interface CalendarRules {
  currencyCode: string;
  /** ISO 3166-1 alpha-2 country whose public and bank holidays close the bank; null: none. */
  country: string | null;
  /** IANA time zone of the bank (Asia/Dubai). */
  timeZone: string;
  /** Weekdays the bank is closed, 0 Sunday to 6 Saturday. */
  weekend: readonly number[];
  /** The bank's daily cut-off, `HH:MM` on its own clock: an instruction for a day must reach it by then. */
  cutOff: string;
  /** Extra closing days (announced holidays). */
  addedHolidays: readonly IsoDay[];
  /** Days the library names as holidays on which the bank opens after all (a holiday that moved). */
  removedHolidays: readonly IsoDay[];
}

/** A calendar for a currency without one: Saturday and Sunday off in UTC, no holidays, a cut-off at the day's end. */
const PLAIN: Omit<CalendarRules, 'currencyCode'> = {
  country: null,
  timeZone: 'UTC',
  weekend: [0, 6],
  cutOff: '23:59',
  addedHolidays: [],
  removedHolidays: [],
};

/**
 * The partner banks' calendars the service knows without a world saying more. The UAE has worked
 * Monday to Friday since 2022, on Gulf Standard Time (UTC+4, no daylight saving).
 */
const KNOWN: Record<string, Omit<CalendarRules, 'currencyCode' | 'addedHolidays' | 'removedHolidays'>> = {
  AED: { country: 'AE', timeZone: 'Asia/Dubai', weekend: [0, 6], cutOff: '15:00' },
  USD: { country: 'US', timeZone: 'America/New_York', weekend: [0, 6], cutOff: '17:00' },
  EUR: { country: 'DE', timeZone: 'Europe/Berlin', weekend: [0, 6], cutOff: '16:00' },
  GBP: { country: 'GB', timeZone: 'Europe/London', weekend: [0, 6], cutOff: '16:00' },
};

/** The calendar of `currencyCode`: the world's own when it declares one, else the known one, else the plain one. */
export function calendarRulesFor(currencyCode: string, declared?: Partial<Omit<CalendarRules, 'currencyCode'>>): CalendarRules {
  const base = { ...PLAIN, ...KNOWN[currencyCode] };
  return { ...base, ...stripUndefined(declared ?? {}), currencyCode };
}

function stripUndefined<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, entry]) => entry !== undefined)) as Partial<T>;
}

/** `HH:MM` as minutes past midnight. */
export function minutesOf(clock: string): number {
  const [hours, minutes] = clock.split(':').map(Number);
  return hours! * 60 + minutes!;
}
