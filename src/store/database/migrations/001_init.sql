-- Reference data and the fee engine. Money is numeric (never float); ids are uuid.
CREATE TABLE currencies (
  id uuid PRIMARY KEY,
  code text NOT NULL UNIQUE,
  name text NOT NULL,
  symbol text NOT NULL,
  decimals integer NOT NULL CHECK (decimals BETWEEN 0 AND 18)
);

CREATE TABLE customers (
  id uuid PRIMARY KEY,
  first_name text NOT NULL,
  last_name text NOT NULL,
  company_legal_name text NOT NULL,
  spread_bips integer CHECK (spread_bips IS NULL OR spread_bips BETWEEN 0 AND 10000)
);

CREATE TABLE users (
  id uuid PRIMARY KEY,
  first_name text NOT NULL,
  last_name text NOT NULL,
  email text NOT NULL,
  role text NOT NULL CHECK (role IN ('customer', 'admin')),
  customer_id uuid REFERENCES customers(id),
  CHECK ((role = 'customer') = (customer_id IS NOT NULL))
);

-- customer_id NULL marks a platform partner-bank account every customer may use as a payroll account.
CREATE TABLE accounts (
  id uuid PRIMARY KEY,
  account_provider text NOT NULL,
  customer_id uuid REFERENCES customers(id)
);

CREATE TABLE account_currencies (
  id uuid PRIMARY KEY,
  account_id uuid NOT NULL REFERENCES accounts(id),
  currency_code text NOT NULL REFERENCES currencies(code),
  balance numeric NOT NULL,
  available numeric NOT NULL,
  UNIQUE (account_id, currency_code)
);

-- Every balance change of an account currency; balance/available always equal what the ledger says.
CREATE TABLE ledger_entries (
  id bigserial PRIMARY KEY,
  account_currency_id uuid NOT NULL REFERENCES account_currencies(id),
  balance_delta numeric NOT NULL,
  available_delta numeric NOT NULL,
  reason text NOT NULL,
  payroll_request_id uuid,
  transfer_id uuid,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX ledger_entries_account_currency ON ledger_entries (account_currency_id);

CREATE TABLE beneficiaries (
  id uuid PRIMARY KEY,
  customer_id uuid NOT NULL REFERENCES customers(id),
  first_name text NOT NULL,
  last_name text NOT NULL,
  display_name text NOT NULL,
  type text NOT NULL,
  nationality text NOT NULL,
  bank_name text NOT NULL,
  iban text,
  account_number text,
  reference text,
  active boolean NOT NULL DEFAULT true
);
CREATE INDEX beneficiaries_customer ON beneficiaries (customer_id);

-- rate = how many to_code units one from_code unit buys (USD -> AED 3.6725).
CREATE TABLE exchange_rates (
  from_code text NOT NULL REFERENCES currencies(code),
  to_code text NOT NULL REFERENCES currencies(code),
  rate numeric NOT NULL CHECK (rate > 0),
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (from_code, to_code)
);

CREATE TABLE bank_fees (
  currency_code text PRIMARY KEY REFERENCES currencies(code),
  per_beneficiary numeric NOT NULL CHECK (per_beneficiary >= 0)
);

CREATE TABLE processor_fee_schedules (
  account_provider text NOT NULL,
  currency_code text NOT NULL REFERENCES currencies(code),
  percent_bps numeric NOT NULL CHECK (percent_bps >= 0),
  fixed numeric NOT NULL CHECK (fixed >= 0),
  min numeric NOT NULL CHECK (min >= 0),
  max numeric NOT NULL CHECK (max >= min),
  PRIMARY KEY (account_provider, currency_code)
);

CREATE TABLE payout_fee_schedules (
  account_provider text NOT NULL,
  currency_code text NOT NULL REFERENCES currencies(code),
  percent_bps numeric NOT NULL CHECK (percent_bps >= 0),
  fixed numeric NOT NULL CHECK (fixed >= 0),
  min numeric NOT NULL CHECK (min >= 0),
  max numeric NOT NULL CHECK (max >= min),
  settlement_days integer NOT NULL CHECK (settlement_days >= 0),
  PRIMARY KEY (account_provider, currency_code)
);

-- The platform's own payout fee. customer_id NULL is the platform default; a row for a
-- customer is that customer's rule set (reported as ruleSet: true).
CREATE TABLE internal_payout_fee_rules (
  id bigserial PRIMARY KEY,
  customer_id uuid REFERENCES customers(id),
  currency_code text NOT NULL REFERENCES currencies(code),
  percent_bps numeric NOT NULL CHECK (percent_bps >= 0),
  fixed numeric NOT NULL CHECK (fixed >= 0)
);
CREATE UNIQUE INDEX internal_payout_fee_rules_unique
  ON internal_payout_fee_rules (COALESCE(customer_id, '00000000-0000-0000-0000-000000000000'::uuid), currency_code);

-- A locked payroll fee estimate; fee_hash is single-use (consumed_at) and expires.
CREATE TABLE payroll_fee_estimates (
  fee_hash text PRIMARY KEY,
  customer_id uuid NOT NULL REFERENCES customers(id),
  created_by_user_id uuid NOT NULL REFERENCES users(id),
  source_account_currency_id uuid NOT NULL REFERENCES account_currencies(id),
  payroll_account_currency_id uuid NOT NULL REFERENCES account_currencies(id),
  entries jsonb NOT NULL,
  fee_breakdown jsonb NOT NULL,
  source_currency_amount numeric NOT NULL,
  fee_amount numeric NOT NULL,
  total_amount numeric NOT NULL,
  estimated_received_amount numeric NOT NULL,
  created_at timestamptz NOT NULL,
  expires_at timestamptz NOT NULL,
  consumed_at timestamptz,
  consumed_by_request_id uuid
);

-- A locked payout fee estimate; its feeHash is verified by HMAC and consumed once.
CREATE TABLE payout_fee_estimates (
  id uuid PRIMARY KEY,
  customer_id uuid NOT NULL REFERENCES customers(id),
  account_id uuid NOT NULL REFERENCES accounts(id),
  beneficiary_id uuid NOT NULL REFERENCES beneficiaries(id),
  currency_code text NOT NULL REFERENCES currencies(code),
  amount numeric NOT NULL,
  fee numeric NOT NULL,
  internal_fee numeric NOT NULL,
  total_fee numeric NOT NULL,
  total_amount numeric NOT NULL,
  rule_set boolean NOT NULL,
  estimated_date timestamptz NOT NULL,
  created_at timestamptz NOT NULL,
  expires_at timestamptz NOT NULL,
  consumed_at timestamptz
);

CREATE TABLE payroll_requests (
  id uuid PRIMARY KEY,
  customer_id uuid NOT NULL REFERENCES customers(id),
  source_account_currency_id uuid NOT NULL REFERENCES account_currencies(id),
  payroll_account_currency_id uuid NOT NULL REFERENCES account_currencies(id),
  total_amount numeric NOT NULL,
  status text NOT NULL,
  estimated_fx_rate numeric NOT NULL,
  estimated_received_amount numeric NOT NULL,
  source_amount_for_exchange numeric NOT NULL,
  quote_rate numeric,
  quote_expires_at timestamptz,
  quoted_by_user_id uuid REFERENCES users(id),
  quoted_at timestamptz,
  accepted_by_customer_at timestamptz,
  cancellation_reason text,
  failure_reason text,
  metadata jsonb NOT NULL,
  fee_hash text UNIQUE,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL
);
CREATE INDEX payroll_requests_customer_created ON payroll_requests (customer_id, created_at DESC, id DESC);
CREATE INDEX payroll_requests_status ON payroll_requests (status);

CREATE TABLE transfers (
  id uuid PRIMARY KEY,
  payroll_request_id uuid NOT NULL REFERENCES payroll_requests(id),
  transfer_type text NOT NULL CHECK (transfer_type IN ('PROCESSOR_INTERNAL_DEBIT', 'PROCESSOR_TO_BANK', 'BANK_TO_BENEFICIARY')),
  status text NOT NULL CHECK (status IN ('PENDING', 'INITIATED', 'PROCESSING', 'COMPLETED', 'FAILED')),
  external_id text,
  amount numeric NOT NULL,
  currency_code text NOT NULL,
  fee_id uuid,
  fee_amount numeric,
  final_internal_fee numeric,
  amount_split_id uuid,
  executed_at timestamptz,
  completed_at timestamptz,
  failure_reason text,
  created_at timestamptz NOT NULL,
  position integer NOT NULL
);
CREATE INDEX transfers_request ON transfers (payroll_request_id, position);

CREATE TABLE amount_splits (
  id uuid PRIMARY KEY,
  payroll_request_id uuid NOT NULL REFERENCES payroll_requests(id),
  beneficiary_id uuid NOT NULL REFERENCES beneficiaries(id),
  beneficiary_snapshot jsonb NOT NULL,
  source_currency_amount numeric NOT NULL,
  amount numeric NOT NULL,
  purpose_code text NOT NULL,
  payout_transfer_id uuid REFERENCES transfers(id),
  created_at timestamptz NOT NULL,
  position integer NOT NULL
);
CREATE INDEX amount_splits_request ON amount_splits (payroll_request_id, position);

CREATE TABLE fx_exchanges (
  id uuid PRIMARY KEY,
  payroll_request_id uuid NOT NULL UNIQUE REFERENCES payroll_requests(id),
  from_currency_code text NOT NULL,
  to_currency_code text NOT NULL,
  from_amount numeric NOT NULL,
  to_amount numeric NOT NULL,
  exchange_rate numeric NOT NULL,
  fee_id uuid NOT NULL,
  fee_amount numeric NOT NULL,
  final_internal_fee numeric NOT NULL,
  recorded_by_user_id uuid NOT NULL REFERENCES users(id),
  recorded_at timestamptz NOT NULL,
  created_at timestamptz NOT NULL
);
