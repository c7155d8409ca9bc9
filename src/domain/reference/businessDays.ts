/** now + n business days, Saturdays and Sundays skipped (UTC calendar; bank holidays not modelled). */
export function addBusinessDays(now: Date, days: number): Date {
  const result = new Date(now.getTime());
  let remaining = days;
  while (remaining > 0) {
    result.setUTCDate(result.getUTCDate() + 1);
    const weekday = result.getUTCDay();
    if (weekday !== 0 && weekday !== 6) remaining -= 1;
  }
  return result;
}
