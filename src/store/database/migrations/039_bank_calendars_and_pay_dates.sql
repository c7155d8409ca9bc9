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

-- A payroll with a pay date: the day the bank pays, and the moment its accepted request starts to
-- execute (the bank's midnight opening its fund-by business day). Both null: as soon as possible.
ALTER TABLE payroll_requests ADD COLUMN pay_date date, ADD COLUMN execute_from timestamptz;
ALTER TABLE payroll_requests ADD CONSTRAINT payroll_requests_pay_date_together CHECK ((pay_date IS NULL) = (execute_from IS NULL));
