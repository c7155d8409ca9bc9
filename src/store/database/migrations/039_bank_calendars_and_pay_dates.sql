-- The partner bank's calendar per currency, as a world declares it: a column left null keeps the
-- service's own calendar for the currency (src/domain/calendar/calendarRules.ts). country_declared
-- tells "no country" (true, country null: no public holidays) from "not declared".
CREATE TABLE bank_calendars (
  currency_code text PRIMARY KEY REFERENCES currencies(code),
  country text CHECK (country ~ '^[A-Z]{2}$'),
  country_declared boolean NOT NULL DEFAULT false,
  time_zone text,
  weekend text[],
  cut_off text CHECK (cut_off ~ '^([01][0-9]|2[0-3]):[0-5][0-9]$'),
  added_holidays text[] NOT NULL DEFAULT '{}',
  removed_holidays text[] NOT NULL DEFAULT '{}'
);

-- A payroll with a pay date: the day the bank pays and the deadlines worked back from it on the
-- bank's calendar when the request was created (facts of that moment: a later change of the
-- calendar or of the lead times does not move a request's deadlines). execute_from: when the
-- accepted request starts to execute (the bank's midnight opening its fund-by business day).
-- All null: as soon as possible, as before.
ALTER TABLE payroll_requests
  ADD COLUMN pay_date date,
  ADD COLUMN pay_time_zone text,
  ADD COLUMN approve_by timestamptz,
  ADD COLUMN quote_by timestamptz,
  ADD COLUMN accept_by timestamptz,
  ADD COLUMN fund_by timestamptz,
  ADD COLUMN instruct_by timestamptz,
  ADD COLUMN execute_from timestamptz;
ALTER TABLE payroll_requests ADD CONSTRAINT payroll_requests_pay_schedule_whole CHECK (
  (pay_date IS NULL) = (pay_time_zone IS NULL) AND (pay_date IS NULL) = (approve_by IS NULL) AND (pay_date IS NULL) = (quote_by IS NULL)
  AND (pay_date IS NULL) = (accept_by IS NULL) AND (pay_date IS NULL) = (fund_by IS NULL) AND (pay_date IS NULL) = (instruct_by IS NULL)
  AND (pay_date IS NULL) = (execute_from IS NULL));
