-- Payroll templates: the monthly run prepared ahead. A template keeps a payroll's entries and the
-- rule of its pay date; the worker turns each of its pay dates into a draft request awaiting a
-- person's approval, draft_lead_days business days before that date's approve-by deadline.
CREATE TABLE payroll_templates (
  id uuid PRIMARY KEY,
  customer_id uuid NOT NULL REFERENCES customers(id),
  created_by_user_id uuid NOT NULL REFERENCES users(id),
  name text NOT NULL,
  source_account_currency_id uuid NOT NULL,
  payroll_account_currency_id uuid NOT NULL,
  payroll_currency_code text NOT NULL,
  entries jsonb NOT NULL,
  rule_kind text NOT NULL CHECK (rule_kind IN ('DAY_OF_MONTH', 'LAST_BUSINESS_DAY')),
  day_of_month integer CHECK (day_of_month BETWEEN 1 AND 31),
  draft_lead_days integer NOT NULL CHECK (draft_lead_days BETWEEN 0 AND 20),
  next_pay_date date NOT NULL,
  next_draft_at timestamptz NOT NULL,
  next_approve_by timestamptz NOT NULL,
  -- Why the next run's draft could not be created on its last try; cleared when it is.
  next_run_problem text,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL,
  CHECK ((rule_kind = 'DAY_OF_MONTH') = (day_of_month IS NOT NULL))
);
CREATE INDEX payroll_templates_customer ON payroll_templates (customer_id, created_at, id);
CREATE INDEX payroll_templates_due ON payroll_templates (next_draft_at);

-- Each pay date of a template becomes at most one draft request, however many workers pass.
CREATE TABLE payroll_template_runs (
  template_id uuid NOT NULL REFERENCES payroll_templates(id) ON DELETE CASCADE,
  pay_date date NOT NULL,
  payroll_request_id uuid NOT NULL REFERENCES payroll_requests(id),
  draft_at timestamptz NOT NULL,
  approve_by timestamptz NOT NULL,
  created_at timestamptz NOT NULL,
  PRIMARY KEY (template_id, pay_date)
);
