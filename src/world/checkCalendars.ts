/** The second check of a world file: the partner banks' calendars name known currencies and real time zones. */
import { requireCurrency, type WorldIndex } from './referenceIndex.js';
import type { World } from './types.js';
import { fail, uniqueIndex } from './validationError.js';

export function checkCalendars(world: World, index: WorldIndex): void {
  const calendars = world.calendars ?? [];
  uniqueIndex(
    calendars,
    (c) => c.currency,
    (i) => ['calendars', i],
    'calendar',
  );
  calendars.forEach((calendar, i) => {
    requireCurrency(index, calendar.currency, ['calendars', i, 'currency']);
    if (calendar.timeZone !== undefined && !isTimeZone(calendar.timeZone)) fail(['calendars', i, 'timeZone'], 'must be an IANA time zone (Asia/Dubai)');
    calendar.addedHolidays?.forEach((day, j) => {
      if (calendar.removedHolidays?.includes(day)) fail(['calendars', i, 'addedHolidays', j], 'is also in removedHolidays');
    });
  });
}

function isTimeZone(name: string): boolean {
  try {
    new Intl.DateTimeFormat('en', { timeZone: name });
    return true;
  } catch {
    return false;
  }
}
