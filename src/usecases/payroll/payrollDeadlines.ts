import { randomUUID } from 'node:crypto';
import { WAITING_STATUSES, dueDeadlineNotice } from '../../domain/calendar/deadlines.js';
import { metrics } from '../../observability/telemetry.js';
import { insertDeadlineNotice, scheduledRequestsIn } from '../../store/payroll/payrollDeadlines.js';
import { recordEvents } from '../../store/webhooks/events.js';
import type { UseCaseDeps } from '../deps.js';
import { toPayrollDeadline } from '../views/payrollDeadline.js';

/** Requests looked at per pass; the rest wait for the next pass. */
const PER_PASS = 500;

/**
 * Milestones, not surprises: each deadline a request with a pay date waits on is announced once
 * as it approaches (PAYROLL_DEADLINE_WARNING_HOURS before) and once if it passes, each notice and
 * its event in one transaction. Nothing here moves a pay date or a status: a missed deadline is
 * the customer's to act on. Returns how many notices it gave.
 */
export async function noticePayrollDeadlines(deps: UseCaseDeps): Promise<number> {
  const now = deps.clock();
  const warningMs = deps.config.payCalendar.warningHours * 3_600_000;
  let noticed = 0;
  for (const request of await scheduledRequestsIn(deps.db, WAITING_STATUSES, PER_PASS)) {
    const notice = dueDeadlineNotice(request, now, warningMs);
    if (!notice) continue;
    const given = await deps.db.transaction(async (tx) => {
      if (!(await insertDeadlineNotice(tx, request, notice, now))) return false;
      const type = notice.kind === 'MISSED' ? 'payroll_request.deadline_missed' : 'payroll_request.deadline_approaching';
      const payloadJson = JSON.stringify(toPayrollDeadline(request, notice));
      await recordEvents(tx, [{ id: randomUUID(), customerId: request.customerId, type, resourceId: request.id, payloadJson }], now);
      tx.afterCommit(() => metrics.payrollDeadline(notice.deadline, notice.kind));
      return true;
    });
    if (given) noticed += 1;
  }
  return noticed;
}
