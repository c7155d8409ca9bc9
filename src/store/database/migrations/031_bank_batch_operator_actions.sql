-- What an operator did about a payment file the bank never answered (docs/bank-files.md, "When the
-- bank does not answer"): the same file resent, or named payouts failed on the bank's written
-- confirmation. Each action is kept with who, when, why and the bank's reference: the audit trail.
CREATE TABLE bank_file_batch_actions (
  id uuid PRIMARY KEY,
  batch_id uuid NOT NULL REFERENCES bank_file_batches (batch_id),
  action text NOT NULL CHECK (action IN ('RESEND', 'FAIL_PAYOUTS')),
  -- RESEND: WRITTEN (the file put back in the outbox) or ALREADY_IN_OUTBOX (nothing written).
  outcome text NOT NULL CHECK (outcome IN ('WRITTEN', 'ALREADY_IN_OUTBOX', 'FAILED')),
  user_id uuid NOT NULL REFERENCES users (id),
  reason text,
  bank_reference text,
  transfer_ids uuid[] NOT NULL DEFAULT '{}',
  file_sha256 text,
  at timestamptz NOT NULL,
  CHECK (action <> 'FAIL_PAYOUTS' OR (reason IS NOT NULL AND bank_reference IS NOT NULL))
);
CREATE INDEX bank_file_batch_actions_batch ON bank_file_batch_actions (batch_id, at);

-- A payout an operator failed keeps the action that failed it (a report's are in report_msg_id).
ALTER TABLE bank_file_items ADD COLUMN failed_by_action_id uuid REFERENCES bank_file_batch_actions (id);

-- The batches still waiting for the bank, found without reading the answered ones.
CREATE INDEX bank_file_items_open ON bank_file_items (batch_id) WHERE status = 'PROCESSING';
CREATE INDEX bank_file_batches_created ON bank_file_batches (created_at, batch_id);
