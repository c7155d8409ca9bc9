-- Accounts and balances: fundings, the FUNDING journal kind, and the running balance of
-- every posting to an account currency. Additive; runs on PostgreSQL 15 and 17.

-- Money arriving in a customer's account currency from outside: the only way money enters. Each is
-- posted as one FUNDING journal entry (EXTERNAL → CUSTOMER:<account currency>).
CREATE TABLE account_fundings (
  id uuid PRIMARY KEY,
  account_currency_id uuid NOT NULL REFERENCES account_currencies(id),
  amount numeric NOT NULL CHECK (amount > 0),
  reference text NOT NULL CHECK (length(reference) BETWEEN 1 AND 140),
  created_by_user_id uuid NOT NULL REFERENCES users(id),
  created_at timestamptz NOT NULL
);
CREATE INDEX account_fundings_account_currency ON account_fundings (account_currency_id);

ALTER TABLE journal_entries ADD COLUMN funding_id uuid REFERENCES account_fundings(id);
ALTER TABLE journal_entries DROP CONSTRAINT journal_entries_kind_check;
ALTER TABLE journal_entries ADD CONSTRAINT journal_entries_kind_check CHECK (kind IN (
  'OPENING_BALANCE', 'PAYROLL_CREATED', 'PAYROLL_CANCELLED', 'ACCEPT_TOP_UP', 'ACCEPT_REFUND',
  'PROCESSOR_LEG_COMPLETED', 'PROCESSOR_LEG_FAILED', 'BANK_LEG_COMPLETED', 'BANK_LEG_FAILED',
  'FX_CONVERSION', 'PAYOUT_SENT', 'PAYOUT_FAILED_CREDIT_BACK',
  'SINGLE_PAYOUT_DEBITED', 'SINGLE_PAYOUT_SENT', 'SINGLE_PAYOUT_REFUNDED', 'FUNDING'));

-- The balance an account currency's posting left: written with the posting (src/store/ledger/ledger.ts
-- locks the account currency, reads its balance and adds the postings in id order), so that a
-- statement's running balance is exact and never changes once read, whatever runs concurrently.
-- Existing postings get the running sum in id order: the order they were applied, since each
-- entry locked (updated) its account currencies before committing. A database migrated by 005
-- starts each account currency with its OPENING_BALANCE snapshot, so the sum is its balance.
ALTER TABLE postings ADD COLUMN balance_after numeric;
UPDATE postings p
   SET balance_after = r.running
  FROM (SELECT id, sum(amount) OVER (PARTITION BY account_currency_id ORDER BY id) AS running
          FROM postings WHERE account_currency_id IS NOT NULL) r
 WHERE p.id = r.id;
ALTER TABLE postings ADD CONSTRAINT postings_balance_after_check CHECK ((account_currency_id IS NULL) = (balance_after IS NULL));

-- The statement: an account currency's postings, newest first.
CREATE INDEX postings_statement ON postings (account_currency_id, id DESC) WHERE account_currency_id IS NOT NULL;
CREATE INDEX journal_entries_funding ON journal_entries (funding_id) WHERE funding_id IS NOT NULL;
