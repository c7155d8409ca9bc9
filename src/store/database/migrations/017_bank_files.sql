-- The ISO 20022 bank rail's own books (BANK_RAIL=iso20022, docs/bank-files.md): one row per payment
-- file, one per payout in it, one per status report applied.
--
-- bank_file_batches is recorded before its file is written (written_at null until the rail has seen
-- the file in the outbox): a rail resumed after a crash finds the row, looks for the file under its
-- MsgId, which is derived from batch_id alone, and never writes a second file for the batch.
CREATE TABLE bank_file_batches (
  batch_id uuid PRIMARY KEY,
  msg_id text NOT NULL UNIQUE,
  payroll_request_id uuid,
  currency_code text NOT NULL,
  transaction_count integer NOT NULL CHECK (transaction_count > 0),
  control_sum numeric NOT NULL,
  created_at timestamptz NOT NULL,
  written_at timestamptz,
  -- Why no file could be written (the paying account has no IBAN, …): its payouts fail with it.
  refusal text
);

-- A payout is in at most one file (transfer_id unique), and is named in it by its EndToEndId.
-- status only ever leaves PROCESSING once: a report applied again, or a late one, changes nothing.
CREATE TABLE bank_file_items (
  end_to_end_id text PRIMARY KEY,
  transfer_id uuid NOT NULL UNIQUE,
  batch_id uuid NOT NULL REFERENCES bank_file_batches (batch_id),
  amount numeric NOT NULL,
  status text NOT NULL DEFAULT 'PROCESSING' CHECK (status IN ('PROCESSING', 'COMPLETED', 'FAILED')),
  failure_reason text,
  report_msg_id text,
  settled_at timestamptz,
  CHECK ((status = 'FAILED') = (failure_reason IS NOT NULL))
);
CREATE INDEX bank_file_items_batch ON bank_file_items (batch_id);

-- Each pain.002 applied, by its MsgId: the same report dropped twice is recognised and changes nothing.
CREATE TABLE bank_status_reports (
  msg_id text PRIMARY KEY,
  original_msg_id text NOT NULL,
  file_name text NOT NULL,
  sha256 text NOT NULL,
  settled_items integer NOT NULL,
  applied_at timestamptz NOT NULL
);

-- An account's identity at its bank (world file: accounts[].iban, accounts[].bic): the debtor of the
-- payment files. Optional: only the accounts the ISO 20022 rail pays from need them.
ALTER TABLE accounts ADD COLUMN iban text, ADD COLUMN bic text;
