/**
 * A request's pay date and the deadlines worked back from it on the partner bank's calendar: which
 * step is due by when, and which the request still waits on.
 */
import { type components } from 'payroll-fee-service';
import { Time } from '../ui.js';

type PayrollRequest = components['schemas']['PayrollRequest'];
type Deadline = 'approveBy' | 'quoteBy' | 'acceptBy' | 'fundBy' | 'instructBy';

const STEPS: [Deadline, string][] = [
  ['approveBy', 'Approve by'],
  ['quoteBy', 'Quote by'],
  ['acceptBy', 'Accept by'],
  ['fundBy', 'Funded by'],
  ['instructBy', 'Sent to the bank by'],
];

/** The deadline each waiting status waits on (the deadline events watch the same one). */
const WAITING_ON: Partial<Record<PayrollRequest['status'], Deadline>> = {
  AWAITING_APPROVAL: 'approveBy',
  PENDING: 'quoteBy',
  QUOTE_PROVIDED: 'acceptBy',
  QUOTE_ACCEPTED: 'fundBy',
};

export function PaySchedule({ request }: { request: PayrollRequest }) {
  const schedule = request.schedule;
  if (!schedule) return null;
  const next = WAITING_ON[request.status];
  return (
    <section aria-labelledby="schedule-heading">
      <h2 id="schedule-heading">Pay date {schedule.payDate}</h2>
      <p class="muted">Deadlines at the partner bank's cut-off, on its calendar ({schedule.timeZone}).</p>
      <dl>
        {STEPS.map(([step, label]) => (
          <div key={step}>
            <dt>
              {label}
              {step === next ? ' (next)' : ''}
            </dt>
            <dd>
              <Time value={schedule[step]} />
            </dd>
          </div>
        ))}
      </dl>
    </section>
  );
}
