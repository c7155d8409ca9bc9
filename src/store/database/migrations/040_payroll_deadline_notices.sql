-- The deadline events a payroll request with a pay date has had: each (deadline, kind) once, so
-- that the worker's passes, however many and on however many workers, send each at most once.
-- Kept apart from the event log, whose retention may delete the events themselves.
CREATE TABLE payroll_deadline_notices (
  payroll_request_id uuid NOT NULL REFERENCES payroll_requests(id) ON DELETE CASCADE,
  deadline text NOT NULL CHECK (deadline IN ('approveBy', 'quoteBy', 'acceptBy', 'fundBy')),
  kind text NOT NULL CHECK (kind IN ('APPROACHING', 'MISSED')),
  noticed_at timestamptz NOT NULL,
  PRIMARY KEY (payroll_request_id, deadline, kind)
);

-- The requests the worker looks at: open ones with a pay date.
CREATE INDEX payroll_requests_open_pay_dates ON payroll_requests (pay_date)
  WHERE pay_date IS NOT NULL AND status IN ('AWAITING_APPROVAL', 'PENDING', 'QUOTE_PROVIDED', 'QUOTE_ACCEPTED');
