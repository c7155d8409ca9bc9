-- The payroll lifecycle: worker leases on transfers, single payouts, idempotency keys, and the
-- simulated processor's and bank's own books.

-- A worker holds a transfer until locked_until; another worker skips it (FOR UPDATE SKIP LOCKED
-- guards the claim itself, the lease guards the adapter call made between two transactions).
ALTER TABLE transfers ADD COLUMN locked_until timestamptz;
CREATE INDEX transfers_open ON transfers (created_at) WHERE status IN ('PENDING', 'INITIATED', 'PROCESSING');

-- A payout feeHash of an estimate that had no schedule cannot create a payout.
ALTER TABLE payout_fee_estimates ADD COLUMN estimate_available boolean NOT NULL DEFAULT true;

CREATE TABLE payouts (
  id uuid PRIMARY KEY,
  customer_id uuid NOT NULL REFERENCES customers(id),
  account_id uuid NOT NULL REFERENCES accounts(id),
  account_currency_id uuid NOT NULL REFERENCES account_currencies(id),
  beneficiary_id uuid NOT NULL REFERENCES beneficiaries(id),
  beneficiary_snapshot jsonb NOT NULL,
  fee_estimate_id uuid NOT NULL UNIQUE REFERENCES payout_fee_estimates(id),
  currency_code text NOT NULL,
  amount numeric NOT NULL,
  fee numeric NOT NULL,
  internal_fee numeric NOT NULL,
  total_fee numeric NOT NULL,
  total_amount numeric NOT NULL,
  status text NOT NULL CHECK (status IN ('PENDING', 'INITIATED', 'PROCESSING', 'COMPLETED', 'FAILED')),
  external_id text,
  failure_reason text,
  executed_at timestamptz,
  completed_at timestamptz,
  locked_until timestamptz,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL
);
CREATE INDEX payouts_open ON payouts (created_at) WHERE status IN ('PENDING', 'INITIATED', 'PROCESSING');

-- Idempotency-Key: the first response to (user, key) is kept and replayed for 24 hours.
CREATE TABLE idempotency_keys (
  user_id uuid NOT NULL,
  key text NOT NULL,
  request_hash text NOT NULL,
  status text NOT NULL CHECK (status IN ('IN_PROGRESS', 'COMPLETED')),
  response_status integer,
  response_body jsonb,
  created_at timestamptz NOT NULL,
  locked_at timestamptz NOT NULL,
  PRIMARY KEY (user_id, key)
);

-- What the simulated processor and bank were asked to do, keyed by our transfer id: their
-- idempotency key, so a retried call never pays twice.
CREATE TABLE simulated_operations (
  transfer_id uuid PRIMARY KEY,
  kind text NOT NULL,
  external_id text NOT NULL UNIQUE,
  amount numeric NOT NULL,
  currency_code text NOT NULL,
  outcome text NOT NULL CHECK (outcome IN ('COMPLETED', 'FAILED')),
  failure_reason text,
  calls integer NOT NULL DEFAULT 1,
  submitted_at timestamptz NOT NULL,
  settles_at timestamptz NOT NULL
);
