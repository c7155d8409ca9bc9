-- The bank's own books (docs/bank-files.md, "What the bank booked"): the camt.053 statements and
-- camt.054 notifications applied, the bookings and returns they recorded on our payouts, the
-- statements reconciled against the ledger, and the exceptions an operator resolves.

-- Each message applied, by its MsgId: the same message dropped twice is recognised and changes nothing.
CREATE TABLE bank_books_messages (
  msg_id text PRIMARY KEY,
  kind text NOT NULL CHECK (kind IN ('camt.053', 'camt.054')),
  file_name text NOT NULL,
  sha256 text NOT NULL,
  received_at timestamptz NOT NULL,
  applied_at timestamptz NOT NULL,
  entry_count integer NOT NULL DEFAULT 0,
  exception_count integer NOT NULL DEFAULT 0
);

-- One camt.053 statement (one account, one day) and how it compared with the ledger.
CREATE TABLE bank_statements (
  id uuid PRIMARY KEY,
  msg_id text NOT NULL REFERENCES bank_books_messages (msg_id),
  report_id text NOT NULL,
  account_currency_id uuid NOT NULL REFERENCES account_currencies (id),
  iban text NOT NULL,
  currency_code text NOT NULL,
  statement_date date NOT NULL,
  -- The end of the statement (period.to, or the end of the closing balance's day): the ledger is read up to it.
  ends_at timestamptz NOT NULL,
  opening_balance numeric,
  closing_balance numeric,
  ledger_balance numeric NOT NULL,
  entry_count integer NOT NULL,
  exception_count integer NOT NULL DEFAULT 0,
  status text NOT NULL CHECK (status IN ('RECONCILED', 'EXCEPTIONS')),
  created_at timestamptz NOT NULL
);
CREATE INDEX bank_statements_page ON bank_statements (created_at DESC, id DESC);

-- What the bank booked that we matched, once per thing booked (a payout, its return, a credit into
-- the account): the same booking reported in the other kind of message (a camt.054, then the day's
-- camt.053) carries the same bank identity and is recognised; another booking of the same thing,
-- or the same one reported twice in one kind of message, is a DUPLICATE_BOOKING.
CREATE TABLE bank_matched_bookings (
  kind text NOT NULL CHECK (kind IN ('PAYOUT', 'RETURN', 'CREDIT')),
  reference text NOT NULL,
  bank_identity text NOT NULL,
  reported_in text[] NOT NULL,
  msg_id text NOT NULL REFERENCES bank_books_messages (msg_id),
  amount numeric NOT NULL,
  booked_at timestamptz NOT NULL,
  PRIMARY KEY (kind, reference)
);

-- Whatever the bank booked that does not match our books, with its references and amounts.
CREATE TABLE bank_exceptions (
  id uuid PRIMARY KEY,
  kind text NOT NULL CHECK (kind IN ('UNKNOWN_REFERENCE', 'AMOUNT_MISMATCH', 'DUPLICATE_BOOKING', 'UNEXPECTED_CREDIT', 'MISSING_BOOKING', 'BALANCE_DRIFT')),
  status text NOT NULL DEFAULT 'OPEN' CHECK (status IN ('OPEN', 'RESOLVED')),
  msg_id text REFERENCES bank_books_messages (msg_id),
  statement_id uuid REFERENCES bank_statements (id),
  account_currency_id uuid REFERENCES account_currencies (id),
  transfer_id uuid,
  end_to_end_id text,
  account_servicer_reference text,
  entry_reference text,
  credit_debit text CHECK (credit_debit IN ('CRDT', 'DBIT')),
  booked_amount numeric,
  expected_amount numeric,
  difference numeric,
  currency_code text,
  booked_at timestamptz,
  detail text NOT NULL,
  created_at timestamptz NOT NULL,
  resolved_at timestamptz,
  resolved_by_user_id uuid REFERENCES users (id),
  resolution_note text,
  CHECK ((status = 'RESOLVED') = (resolved_at IS NOT NULL))
);
CREATE INDEX bank_exceptions_page ON bank_exceptions (created_at DESC, id DESC);
CREATE INDEX bank_exceptions_open ON bank_exceptions (kind, created_at) WHERE status = 'OPEN';
-- A payout missing from the statements is reported once.
CREATE UNIQUE INDEX bank_exceptions_missing_once ON bank_exceptions (transfer_id) WHERE kind = 'MISSING_BOOKING';

-- A payout the bank booked, and one it returned: JSON objects as Transfer shows them (bankBooking, bankReturn).
ALTER TABLE transfers ADD COLUMN bank_booking jsonb, ADD COLUMN bank_return jsonb;
ALTER TABLE transfers DROP CONSTRAINT transfers_status_check;
ALTER TABLE transfers ADD CONSTRAINT transfers_status_check CHECK (status IN ('PENDING', 'INITIATED', 'PROCESSING', 'COMPLETED', 'FAILED', 'RETURNED'));
-- Payouts the bank has not booked yet, for the MISSING_BOOKING check.
CREATE INDEX transfers_unbooked_payouts ON transfers (completed_at)
  WHERE status = 'COMPLETED' AND transfer_type = 'BANK_TO_BENEFICIARY' AND bank_booking IS NULL;

-- The bank's charges are an expense of the platform; a return credits the customer back.
ALTER TABLE journal_entries DROP CONSTRAINT journal_entries_kind_check;
ALTER TABLE journal_entries ADD CONSTRAINT journal_entries_kind_check CHECK (kind IN (
  'OPENING_BALANCE', 'PAYROLL_CREATED', 'PAYROLL_CANCELLED', 'ACCEPT_TOP_UP', 'ACCEPT_REFUND',
  'PROCESSOR_LEG_COMPLETED', 'PROCESSOR_LEG_FAILED', 'BANK_LEG_COMPLETED', 'BANK_LEG_FAILED',
  'FX_CONVERSION', 'PAYOUT_SENT', 'PAYOUT_FAILED_CREDIT_BACK',
  'SINGLE_PAYOUT_DEBITED', 'SINGLE_PAYOUT_SENT', 'SINGLE_PAYOUT_REFUNDED', 'FUNDING',
  'PAYROLL_FAILED_RETURNED', 'BANK_CHARGES', 'PAYOUT_RETURNED'));
ALTER TABLE postings DROP CONSTRAINT postings_account_key_check;
ALTER TABLE postings ADD CONSTRAINT postings_account_key_check CHECK (account_key ~
  '^(CUSTOMER:|PLATFORM_BANK:|FEE_REVENUE:(SPREAD|PROCESSOR|BANK|PAYOUT|INTERNAL)$|FX_RESULT$|IN_TRANSIT:(PROCESSOR|BANK)$|EXTERNAL$|BANK_CHARGES$)');

-- Transfer gains bankBooking and bankReturn: the trigger function that writes a transfer's JSON is
-- generated at start-up from src/store/wireFormat.ts, which names the two columns.
