import type { PaySchedule } from '../../domain/calendar/paySchedule.js';
import type { Queryable } from '../database/db.js';

/** A new request's pay date and the deadlines worked back from it, written with it (in its transaction). */
export async function setPaySchedule(tx: Queryable, requestId: string, schedule: PaySchedule): Promise<void> {
  const { payDate, timeZone, approveBy, quoteBy, acceptBy, fundBy, instructBy, executeFrom } = schedule;
  await tx.query(
    `UPDATE payroll_requests SET pay_date = $2::date, pay_time_zone = $3, approve_by = $4, quote_by = $5, accept_by = $6, fund_by = $7,
            instruct_by = $8, execute_from = $9
      WHERE id = $1`,
    [requestId, payDate, timeZone, approveBy, quoteBy, acceptBy, fundBy, instructBy, executeFrom],
  );
}
