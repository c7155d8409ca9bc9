/**
 * Dates and wall-clock times in a named time zone, from the runtime's own time-zone database
 * (Intl), so that a bank's day and cut-off are its own whatever zone the server runs in.
 */

/** A calendar day as `YYYY-MM-DD`. */
export type IsoDay = string;

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterOf(timeZone: string): Intl.DateTimeFormat {
  let formatter = formatters.get(timeZone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-CA', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    formatters.set(timeZone, formatter);
  }
  return formatter;
}

/** The wall clock in `timeZone` at `at`, as the milliseconds of the same reading in UTC. */
function wallClockMs(at: Date, timeZone: string): number {
  const parts: Record<string, number> = {};
  for (const part of formatterOf(timeZone).formatToParts(at)) if (part.type !== 'literal') parts[part.type] = Number(part.value);
  return Date.UTC(parts.year!, parts.month! - 1, parts.day!, parts.hour!, parts.minute!, parts.second!, at.getUTCMilliseconds());
}

/** The day `at` falls on in `timeZone`. */
export function dayIn(at: Date, timeZone: string): IsoDay {
  return new Date(wallClockMs(at, timeZone)).toISOString().slice(0, 10);
}

/** Minutes since midnight of the wall clock in `timeZone` at `at`. */
export function minutesIn(at: Date, timeZone: string): number {
  const wall = new Date(wallClockMs(at, timeZone));
  return wall.getUTCHours() * 60 + wall.getUTCMinutes();
}

/**
 * The instant the wall clock in `timeZone` reads `minutes` past midnight of `day`. Twice corrected,
 * so that a day on which the zone's offset changes lands on the reading after the change.
 */
export function instantIn(day: IsoDay, minutes: number, timeZone: string): Date {
  const reading = Date.parse(`${day}T00:00:00.000Z`) + minutes * 60_000;
  let guess = reading;
  for (let round = 0; round < 2; round++) guess = reading - (wallClockMs(new Date(guess), timeZone) - guess);
  return new Date(guess);
}

/** `day` moved by `days` calendar days. */
export function shiftDay(day: IsoDay, days: number): IsoDay {
  return new Date(Date.parse(`${day}T00:00:00.000Z`) + days * 86_400_000).toISOString().slice(0, 10);
}

/** 0 (Sunday) to 6 (Saturday). */
export function weekdayOf(day: IsoDay): number {
  return new Date(`${day}T00:00:00.000Z`).getUTCDay();
}

/** True for a real calendar day written `YYYY-MM-DD` (not `2026-02-30`). */
export function isIsoDay(text: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(text)) return false;
  const at = Date.parse(`${text}T00:00:00.000Z`);
  return !Number.isNaN(at) && new Date(at).toISOString().slice(0, 10) === text;
}
