-- The UAE Wage Protection System (docs/wps.md): an employer's registration, an employee's labour
-- card and bank routing code, a salary's period and parts, and the Salary Information File written
-- beside a payroll's payment file. Every column is nullable: a customer, beneficiary or split
-- without them is what it was before.
ALTER TABLE customers ADD COLUMN wps_establishment_id text, ADD COLUMN wps_agent_routing_code text;
ALTER TABLE beneficiaries ADD COLUMN labour_card_person_id text, ADD COLUMN wps_routing_code text;

-- A split keeps the beneficiary's WPS ids as they were when the request was created (as its
-- beneficiary_snapshot keeps the rest), with the salary's period and parts.
ALTER TABLE amount_splits
  ADD COLUMN wps_person_id text,
  ADD COLUMN wps_routing_code text,
  ADD COLUMN wps_pay_period_start date,
  ADD COLUMN wps_pay_period_end date,
  ADD COLUMN wps_fixed_amount numeric,
  ADD COLUMN wps_variable_amount numeric,
  ADD COLUMN wps_leave_days integer;

-- One SIF per payment file, recorded (name, figures) before it is written and its SHA-256 kept:
-- a worker resumed after a crash finds the name and writes nothing twice. What the agent answered
-- (ACCEPTED, REJECTED) is kept on it for the operator.
CREATE TABLE wps_salary_files (
  batch_id uuid PRIMARY KEY REFERENCES bank_file_batches(batch_id),
  file_name text NOT NULL UNIQUE,
  payroll_request_id uuid REFERENCES payroll_requests(id),
  edr_count integer NOT NULL,
  total numeric NOT NULL,
  sha256 text NOT NULL,
  created_at timestamptz NOT NULL,
  written_at timestamptz,
  agent_status text CHECK (agent_status IN ('ACCEPTED', 'REJECTED')),
  agent_reason text,
  answered_at timestamptz
);

-- Each refund the agent returned, once (the refund file's SIF name and the payout it matched).
CREATE TABLE wps_refunds (
  file_name text NOT NULL,
  transfer_id uuid NOT NULL REFERENCES transfers(id),
  refund_code text NOT NULL,
  amount numeric NOT NULL,
  applied_at timestamptz NOT NULL,
  PRIMARY KEY (file_name, transfer_id)
);
