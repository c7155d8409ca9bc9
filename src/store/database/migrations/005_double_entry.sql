-- Settlement that keeps every promise: a double-entry journal, and the figures of the
-- honoured quote. Additive: no column or table is dropped; ledger_entries stays as history (new
-- movements are journal entries). Runs on PostgreSQL 15 and 17. docs/settlement.md explains it.

-- One journal entry per money movement (src/domain/ledger/journal.ts JournalKind).
CREATE TABLE journal_entries (
  id bigserial PRIMARY KEY,
  kind text NOT NULL CHECK (kind IN (
    'OPENING_BALANCE', 'PAYROLL_CREATED', 'PAYROLL_CANCELLED', 'ACCEPT_TOP_UP', 'ACCEPT_REFUND',
    'PROCESSOR_LEG_COMPLETED', 'PROCESSOR_LEG_FAILED', 'BANK_LEG_COMPLETED', 'BANK_LEG_FAILED',
    'FX_CONVERSION', 'PAYOUT_SENT', 'PAYOUT_FAILED_CREDIT_BACK',
    'SINGLE_PAYOUT_DEBITED', 'SINGLE_PAYOUT_SENT', 'SINGLE_PAYOUT_REFUNDED')),
  payroll_request_id uuid REFERENCES payroll_requests(id),
  transfer_id uuid REFERENCES transfers(id),
  payout_id uuid REFERENCES payouts(id),
  created_at timestamptz NOT NULL
);
CREATE INDEX journal_entries_request ON journal_entries (payroll_request_id) WHERE payroll_request_id IS NOT NULL;
CREATE INDEX journal_entries_payout ON journal_entries (payout_id) WHERE payout_id IS NOT NULL;

-- account_key is accountKey() of the domain: 'CUSTOMER:<uuid>', 'PLATFORM_BANK:<uuid>',
-- 'FEE_REVENUE:SPREAD|PROCESSOR|BANK|PAYOUT|INTERNAL', 'FX_RESULT', 'IN_TRANSIT:PROCESSOR|BANK',
-- 'EXTERNAL'. The two kinds that are account currencies also carry its id, so that
-- balance = Σ postings can be checked with a join.
CREATE TABLE postings (
  id bigserial PRIMARY KEY,
  journal_entry_id bigint NOT NULL REFERENCES journal_entries(id),
  account_key text NOT NULL CHECK (account_key ~ '^(CUSTOMER:|PLATFORM_BANK:|FEE_REVENUE:(SPREAD|PROCESSOR|BANK|PAYOUT|INTERNAL)$|FX_RESULT$|IN_TRANSIT:(PROCESSOR|BANK)$|EXTERNAL$)'),
  account_currency_id uuid REFERENCES account_currencies(id),
  currency_code text NOT NULL REFERENCES currencies(code),
  amount numeric NOT NULL CHECK (amount <> 0),
  CHECK ((account_key LIKE 'CUSTOMER:%' OR account_key LIKE 'PLATFORM_BANK:%') = (account_currency_id IS NOT NULL)),
  CHECK (account_currency_id IS NULL OR account_key IN ('CUSTOMER:' || account_currency_id, 'PLATFORM_BANK:' || account_currency_id))
);
CREATE INDEX postings_entry ON postings (journal_entry_id);
CREATE INDEX postings_account_currency ON postings (account_currency_id) WHERE account_currency_id IS NOT NULL;
CREATE INDEX postings_account ON postings (account_key, currency_code);

-- The domain refuses an unbalanced entry; the database checks it again at commit, per currency.
CREATE FUNCTION postings_balance_check() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF EXISTS (
    SELECT 1 FROM postings WHERE journal_entry_id = NEW.journal_entry_id
     GROUP BY currency_code HAVING sum(amount) <> 0
  ) THEN
    RAISE EXCEPTION 'journal entry % does not sum to zero in every currency', NEW.journal_entry_id;
  END IF;
  RETURN NULL;
END
$$;
CREATE CONSTRAINT TRIGGER postings_balance AFTER INSERT ON postings
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION postings_balance_check();

-- The honoured quote. debited_amount: what the creation debited (total_amount becomes the quote's
-- total at accept). quote_*: the figures at the quote rate (PayrollQuoteFigures); the fee amount
-- is metadata.feeBreakdown.totalFee and the rate is quote_rate. The new columns stay nullable so
-- that code written before this migration keeps inserting; once the use cases write them, a later
-- migration can add NOT NULL (debited_amount and the FX figures are backfilled here).
ALTER TABLE payroll_requests ADD COLUMN debited_amount numeric;
UPDATE payroll_requests SET debited_amount = total_amount;
ALTER TABLE payroll_requests ADD COLUMN quote_source_amount_for_exchange numeric;
ALTER TABLE payroll_requests ADD COLUMN quote_total_amount numeric;
ALTER TABLE payroll_requests ADD COLUMN quote_received_amount numeric;
ALTER TABLE payroll_requests ADD COLUMN quote_adjustment_amount numeric;

-- Per split: the entry's type (which figure the quote keeps), its figures at the quote, and what a
-- failed payout credited back.
ALTER TABLE amount_splits ADD COLUMN amount_currency_type text NOT NULL DEFAULT 'SOURCE' CHECK (amount_currency_type IN ('SOURCE', 'PAYROLL'));
UPDATE amount_splits s
   SET amount_currency_type = e.entries -> s.position ->> 'amountCurrencyType'
  FROM payroll_requests r JOIN payroll_fee_estimates e ON e.fee_hash = r.fee_hash
 WHERE s.payroll_request_id = r.id
   AND e.entries -> s.position ->> 'amountCurrencyType' IN ('SOURCE', 'PAYROLL');
ALTER TABLE amount_splits ADD COLUMN quoted_source_currency_amount numeric;
ALTER TABLE amount_splits ADD COLUMN quoted_amount numeric CHECK (quoted_amount IS NULL OR quoted_amount > 0);
ALTER TABLE amount_splits ADD COLUMN returned_source_currency_amount numeric;

-- The FX record's payouts total and the platform's FX result (signed); backfilled from the payouts.
ALTER TABLE fx_exchanges ADD COLUMN payout_amount numeric;
ALTER TABLE fx_exchanges ADD COLUMN fx_result_amount numeric;
UPDATE fx_exchanges f
   SET payout_amount = COALESCE(p.total, 0), fx_result_amount = f.to_amount - COALESCE(p.total, 0)
  FROM (SELECT f2.id, (SELECT sum(t.amount) FROM transfers t
                        WHERE t.payroll_request_id = f2.payroll_request_id AND t.transfer_type = 'BANK_TO_BENEFICIARY') AS total
          FROM fx_exchanges f2) p
 WHERE p.id = f.id;

-- A database that already holds money starts its journal from a snapshot, so that every account
-- currency's balance equals its postings from the first moment: one OPENING_BALANCE entry per
-- account currency with a balance, and the hold of every request not yet executing (its debit sits
-- on the processor leg). Drain the worker first: requests EXECUTING or PAYOUT_INITIATED at
-- migration time are not replayed (docs/settlement.md). A fresh database has nothing to snapshot.
DO $$
DECLARE
  rec record;
  entry_id bigint;
BEGIN
  FOR rec IN
    SELECT ac.id, ac.currency_code, ac.balance, CASE WHEN a.customer_id IS NULL THEN 'PLATFORM_BANK:' ELSE 'CUSTOMER:' END AS prefix
      FROM account_currencies ac JOIN accounts a ON a.id = ac.account_id
     WHERE ac.balance <> 0
  LOOP
    INSERT INTO journal_entries (kind, created_at) VALUES ('OPENING_BALANCE', now()) RETURNING id INTO entry_id;
    INSERT INTO postings (journal_entry_id, account_key, account_currency_id, currency_code, amount)
    VALUES (entry_id, 'EXTERNAL', NULL, rec.currency_code, -rec.balance),
           (entry_id, rec.prefix || rec.id, rec.id, rec.currency_code, rec.balance);
  END LOOP;
  FOR rec IN
    SELECT r.id, ac.currency_code, r.total_amount
      FROM payroll_requests r JOIN account_currencies ac ON ac.id = r.source_account_currency_id
     WHERE r.status IN ('PENDING', 'QUOTE_PROVIDED', 'QUOTE_ACCEPTED') AND r.total_amount <> 0
  LOOP
    INSERT INTO journal_entries (kind, payroll_request_id, created_at) VALUES ('OPENING_BALANCE', rec.id, now()) RETURNING id INTO entry_id;
    INSERT INTO postings (journal_entry_id, account_key, account_currency_id, currency_code, amount)
    VALUES (entry_id, 'EXTERNAL', NULL, rec.currency_code, -rec.total_amount),
           (entry_id, 'IN_TRANSIT:PROCESSOR', NULL, rec.currency_code, rec.total_amount);
  END LOOP;
END
$$;
