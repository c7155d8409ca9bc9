import type { DeadlineName, DeadlineNotice, NoticeKind, ScheduledRequestState } from '../../domain/calendar/deadlines.js';
import type { PaySchedule } from '../../domain/calendar/paySchedule.js';
import type { PayrollRequestStatus } from '../../domain/payroll/payrollStatus.js';
import type { Queryable } from '../database/db.js';

export interface ScheduledRequest extends ScheduledRequestState {
  id: string;
  customerId: string;
  schedule: Omit<PaySchedule, 'executeFrom'>;
}

interface Row {
  id: string;
  customerId: string;
  status: PayrollRequestStatus;
  payDate: string;
  timeZone: string;
  approveBy: Date;
  quoteBy: Date;
  acceptBy: Date;
  fundBy: Date;
  instructBy: Date;
  noticed: string[];
}

/** Requests with a pay date in one of `statuses` (those that wait on a deadline), with the notices they have had. */
export async function scheduledRequestsIn(q: Queryable, statuses: readonly PayrollRequestStatus[], limit: number): Promise<ScheduledRequest[]> {
  const rows = await q.query<Row>(
    `SELECT r.id, r.customer_id AS "customerId", r.status, to_char(r.pay_date, 'YYYY-MM-DD') AS "payDate", r.pay_time_zone AS "timeZone",
            r.approve_by AS "approveBy", r.quote_by AS "quoteBy", r.accept_by AS "acceptBy", r.fund_by AS "fundBy", r.instruct_by AS "instructBy",
            ARRAY(SELECT n.deadline || ':' || n.kind FROM payroll_deadline_notices n WHERE n.payroll_request_id = r.id) AS noticed
       FROM payroll_requests r
      WHERE r.pay_date IS NOT NULL AND r.status = ANY($1::text[])
      ORDER BY r.pay_date, r.id
      LIMIT $2`,
    [statuses, limit],
  );
  return rows.map(({ id, customerId, status, noticed, ...schedule }) => ({
    id,
    customerId,
    status,
    noticed,
    schedule,
    deadlines: { approveBy: schedule.approveBy, quoteBy: schedule.quoteBy, acceptBy: schedule.acceptBy, fundBy: schedule.fundBy } satisfies Record<
      DeadlineName,
      Date
    >,
  }));
}

/**
 * Records a notice once, while the request is still in `status`: false when another worker gave it
 * first or the request has moved on meanwhile (then no event is due).
 */
export async function insertDeadlineNotice(
  tx: Queryable,
  request: { id: string; status: PayrollRequestStatus },
  notice: Pick<DeadlineNotice, 'deadline'> & { kind: NoticeKind },
  at: Date,
): Promise<boolean> {
  const rows = await tx.query(
    `INSERT INTO payroll_deadline_notices (payroll_request_id, deadline, kind, noticed_at)
     SELECT r.id, $3, $4, $5 FROM payroll_requests r WHERE r.id = $1 AND r.status = $2
     ON CONFLICT DO NOTHING
     RETURNING 1`,
    [request.id, request.status, notice.deadline, notice.kind, at],
  );
  return rows.length > 0;
}
