import { BankCalendar } from '../../domain/calendar/bankCalendar.js';
import { type PaySchedule, checkedPaySchedule } from '../../domain/calendar/paySchedule.js';
import { calendarRulesOf } from '../../store/calendar/bankCalendars.js';
import type { Queryable } from '../../store/database/db.js';
import type { UseCaseDeps } from '../deps.js';

/**
 * The schedule of a payroll paid in `payrollCurrency` on `payDate`, on that currency's partner bank
 * calendar and the configured lead times; refused (400, with the nearest possible date) when the
 * bank does not pay that day or its first deadline has passed. No pay date: none.
 */
export async function payScheduleOf(
  q: Queryable,
  deps: Pick<UseCaseDeps, 'clock' | 'config'>,
  payrollCurrency: string,
  payDate: string | undefined,
): Promise<PaySchedule | null> {
  if (payDate === undefined) return null;
  const calendar = new BankCalendar(await calendarRulesOf(q, payrollCurrency));
  return checkedPaySchedule(calendar, payDate, deps.clock(), deps.config.payCalendar.leads);
}
