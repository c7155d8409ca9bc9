import { type CalendarRules, minutesOf } from './calendarRules.js';
import { publicHolidays } from './publicHolidays.js';
import { type IsoDay, dayIn, instantIn, minutesIn, shiftDay, weekdayOf } from './timeZones.js';

/** A search for a business day gives up after this many calendar days: a calendar closed for a year is a mistake in it. */
const MAX_SEARCH_DAYS = 366;

/**
 * The partner bank's business days for one currency, in the bank's own time zone: weekends,
 * public holidays (date-holidays, for the bank's country) and the world's changes to them, and
 * the bank's daily cut-off. Every answer about "when" is one of these.
 */
export class BankCalendar {
  private readonly added: ReadonlySet<IsoDay>;
  private readonly removed: ReadonlySet<IsoDay>;
  private readonly cutOffMinutes: number;

  constructor(readonly rules: CalendarRules) {
    this.added = new Set(rules.addedHolidays);
    this.removed = new Set(rules.removedHolidays);
    this.cutOffMinutes = minutesOf(rules.cutOff);
  }

  get timeZone(): string {
    return this.rules.timeZone;
  }

  /** The bank's day at `at`. */
  dayAt(at: Date): IsoDay {
    return dayIn(at, this.rules.timeZone);
  }

  isHoliday(day: IsoDay): boolean {
    if (this.added.has(day)) return true;
    if (this.removed.has(day) || !this.rules.country) return false;
    return publicHolidays(this.rules.country, Number(day.slice(0, 4))).has(day);
  }

  isBusinessDay(day: IsoDay): boolean {
    return !this.rules.weekend.includes(weekdayOf(day)) && !this.isHoliday(day);
  }

  /** The first business day after `day`. */
  nextBusinessDay(day: IsoDay): IsoDay {
    return this.step(day, 1);
  }

  /** The last business day before `day`. */
  previousBusinessDay(day: IsoDay): IsoDay {
    return this.step(day, -1);
  }

  /** `day` itself when it is a business day, else the next one. */
  businessDayOnOrAfter(day: IsoDay): IsoDay {
    return this.isBusinessDay(day) ? day : this.nextBusinessDay(day);
  }

  /** `count` business days after (or, negative, before) `day`. */
  addBusinessDays(day: IsoDay, count: number): IsoDay {
    let result = day;
    for (let left = Math.abs(count); left > 0; left--) result = this.step(result, Math.sign(count));
    return result;
  }

  /** The bank's midnight opening `day`, as an instant. */
  startOf(day: IsoDay): Date {
    return instantIn(day, 0, this.rules.timeZone);
  }

  /** The bank's cut-off on `day`, as an instant. */
  cutOffOn(day: IsoDay): Date {
    return instantIn(day, this.cutOffMinutes, this.rules.timeZone);
  }

  /**
   * The latest moment to act for a payment the bank makes on `payDay`: the cut-off of the business
   * day `leadBusinessDays` before it (0: the pay day's own cut-off).
   */
  latestMomentFor(payDay: IsoDay, leadBusinessDays = 0): Date {
    return this.cutOffOn(this.addBusinessDays(payDay, -leadBusinessDays));
  }

  /**
   * The first business day on which the bank can act from `at`: today while its cut-off has not
   * passed, else the next business day.
   */
  firstActionableDay(at: Date): IsoDay {
    const today = this.dayAt(at);
    if (this.isBusinessDay(today) && at.getTime() <= this.cutOffOn(today).getTime()) return today;
    return this.nextBusinessDay(today);
  }

  /**
   * `at` plus `days` business days, counted from the first day the bank can act, at the same time
   * on the bank's clock (a settlement estimate).
   */
  afterBusinessDays(at: Date, days: number): Date {
    if (days === 0) return at;
    return this.atSameTime(at, this.addBusinessDays(this.firstActionableDay(at), days));
  }

  /** `at` moved `days` business days on from the bank's day at `at`, at the same time on its clock (a grace period). */
  plusBusinessDays(at: Date, days: number): Date {
    if (days === 0) return at;
    return this.atSameTime(at, this.addBusinessDays(this.dayAt(at), days));
  }

  private atSameTime(at: Date, day: IsoDay): Date {
    return new Date(instantIn(day, minutesIn(at, this.rules.timeZone), this.rules.timeZone).getTime() + (at.getTime() % 60_000));
  }

  private step(day: IsoDay, direction: number): IsoDay {
    let result = day;
    for (let tried = 0; tried < MAX_SEARCH_DAYS; tried++) {
      result = shiftDay(result, direction);
      if (this.isBusinessDay(result)) return result;
    }
    throw new Error(`The ${this.rules.currencyCode} calendar has no business day within ${MAX_SEARCH_DAYS} days of ${day}`);
  }
}
