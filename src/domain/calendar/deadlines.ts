import type { PayrollRequestStatus } from '../payroll/payrollStatus.js';

/** The deadlines a request can be waiting on, by the status that waits on each. */
export type DeadlineName = 'approveBy' | 'quoteBy' | 'acceptBy' | 'fundBy';
export type NoticeKind = 'APPROACHING' | 'MISSED';

const WAITING_ON: Partial<Record<PayrollRequestStatus, DeadlineName>> = {
  AWAITING_APPROVAL: 'approveBy',
  PENDING: 'quoteBy',
  QUOTE_PROVIDED: 'acceptBy',
  QUOTE_ACCEPTED: 'fundBy',
};

/** The statuses that wait on a deadline. */
export const WAITING_STATUSES = Object.keys(WAITING_ON) as PayrollRequestStatus[];

export interface ScheduledRequestState {
  status: PayrollRequestStatus;
  deadlines: Record<DeadlineName, Date>;
  /** Notices already given, as `deadline:kind`. */
  noticed: readonly string[];
}

export interface DeadlineNotice {
  deadline: DeadlineName;
  kind: NoticeKind;
  dueAt: Date;
}

/**
 * The notice due for a request at `now`, if any: the deadline its status waits on is missed once
 * passed, approaching once within `warningMs`; each is given once. A missed deadline whose
 * approaching notice was never given (the worker was away) gets the missed one only. The pay date
 * is never moved here: a missed deadline is the customer's to act on.
 */
export function dueDeadlineNotice(request: ScheduledRequestState, now: Date, warningMs: number): DeadlineNotice | null {
  const deadline = WAITING_ON[request.status];
  if (!deadline) return null;
  const dueAt = request.deadlines[deadline];
  const given = (kind: NoticeKind) => request.noticed.includes(`${deadline}:${kind}`);
  if (now.getTime() >= dueAt.getTime()) return given('MISSED') ? null : { deadline, kind: 'MISSED', dueAt };
  if (now.getTime() >= dueAt.getTime() - warningMs && !given('APPROACHING')) return { deadline, kind: 'APPROACHING', dueAt };
  return null;
}
