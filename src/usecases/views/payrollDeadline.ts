import type { components } from '../../../generated/api.js';
import type { DeadlineNotice } from '../../domain/calendar/deadlines.js';
import type { ScheduledRequest } from '../../store/payroll/payrollDeadlines.js';
import { toPaySchedule } from './paySchedule.js';

/** The one writer of a PayrollDeadline: the data of the deadline events. */
export function toPayrollDeadline(request: ScheduledRequest, notice: DeadlineNotice): components['schemas']['PayrollDeadline'] {
  return {
    id: request.id,
    status: request.status,
    deadline: notice.deadline,
    dueAt: notice.dueAt.toISOString(),
    schedule: toPaySchedule(request.schedule),
  };
}
