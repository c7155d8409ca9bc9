-- Payouts as one batch: the BANK_TO_BENEFICIARY transfers of a payroll request go to the bank
-- together (src/adapters/bank/batchRails.ts), and the worker moves them set-based (docs/payroll-at-scale.md).
--
-- A batch row is written before the rail is called: its id is the bank's idempotency key, so a
-- worker that dies between the submission and its record submits the same batch again and the
-- bank pays nothing twice. status: CREATED (not yet known to the bank), SUBMITTED (the bank
-- accepted it; its items are PROCESSING until the bank reports them), CLOSED (every item settled).
CREATE TABLE payout_batches (
  id uuid PRIMARY KEY,
  payroll_request_id uuid NOT NULL UNIQUE REFERENCES payroll_requests(id),
  currency_code text NOT NULL,
  status text NOT NULL CHECK (status IN ('CREATED', 'SUBMITTED', 'CLOSED')),
  item_count integer NOT NULL,
  external_batch_id text,
  created_at timestamptz NOT NULL,
  submitted_at timestamptz,
  closed_at timestamptz,
  -- The worker's lease while it talks to the bank between transactions (as transfers.locked_until).
  locked_until timestamptz
);
CREATE INDEX payout_batches_open ON payout_batches (created_at) WHERE status <> 'CLOSED';

ALTER TABLE transfers ADD COLUMN batch_id uuid REFERENCES payout_batches(id);
-- A batch's items still open: the worker's "is anything left?" reads this index, not the batch.
CREATE INDEX transfers_batch_open ON transfers (batch_id, position) WHERE status IN ('PENDING', 'INITIATED', 'PROCESSING');
-- Payouts created before batches existed (or by the world loader) still open and in no batch: the
-- worker gives each request's its batch.
CREATE INDEX transfers_unbatched_payouts ON transfers (payroll_request_id)
  WHERE batch_id IS NULL AND transfer_type = 'BANK_TO_BENEFICIARY' AND status IN ('PENDING', 'INITIATED', 'PROCESSING');

-- The simulated bank's own record of the batches it was sent (its operations stay one per transfer).
CREATE TABLE simulated_batches (
  batch_id uuid PRIMARY KEY,
  external_batch_id text NOT NULL UNIQUE,
  item_count integer NOT NULL,
  calls integer NOT NULL DEFAULT 1,
  submitted_at timestamptz NOT NULL
);
ALTER TABLE simulated_operations ADD COLUMN batch_id uuid;
CREATE INDEX simulated_operations_batch ON simulated_operations (batch_id, settles_at) WHERE batch_id IS NOT NULL;

-- How many splits a request has, kept on the request: the payroll list shows it without reading
-- the splits of a 100,000-line request.
ALTER TABLE payroll_requests ADD COLUMN split_count integer;
UPDATE payroll_requests r SET split_count = (SELECT count(*) FROM amount_splits s WHERE s.payroll_request_id = r.id);

-- An event's payload is the resource as its GET returns it: for a payroll request of 100,000 splits
-- and as many transfers, over 100 MB, written at each of its status changes. Compressing it cost
-- seconds per event; kept out of line and uncompressed, as the locked estimate entries are
-- (migration 013). A small payload stays in its row as before.
ALTER TABLE events ALTER COLUMN payload SET STORAGE EXTERNAL;
