-- Plans that stay linear while a payroll of 100,000 payouts is open.

-- The worker's claim of the legs (debits, moves to the bank, single payouts) skips the payouts,
-- which the batch rail moves: an index of the open legs only, in the claim's order, so a poll reads
-- a few entries instead of every open payout of every open batch.
CREATE INDEX transfers_open_legs ON transfers (created_at, position)
  WHERE status IN ('PENDING', 'INITIATED', 'PROCESSING') AND transfer_type <> 'BANK_TO_BENEFICIARY';

-- What the failed payouts of a request credited back is read at each settlement: few rows, found
-- without reading the request's splits.
CREATE INDEX amount_splits_returned ON amount_splits (payroll_request_id) WHERE returned_source_currency_amount IS NOT NULL;

-- The ledger's balance check (migration 005) ran once per posting at commit, each run planned
-- again (migration 012): 10,000 postings, 10,000 lookups. Checked once per statement instead,
-- over the entries the statement posted to, with every posting those entries have (a posting
-- added later to an existing entry is checked with the entry's earlier ones). The postings of one
-- entry are therefore written in one statement, as store/ledger/ledger.ts does.
DROP TRIGGER postings_balance ON postings;
CREATE OR REPLACE FUNCTION postings_balance_check() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  unbalanced bigint;
BEGIN
  SELECT p.journal_entry_id INTO unbalanced
    FROM postings p
   WHERE p.journal_entry_id IN (SELECT DISTINCT journal_entry_id FROM posted)
   GROUP BY p.journal_entry_id, p.currency_code
  HAVING sum(p.amount) <> 0
   LIMIT 1;
  IF FOUND THEN
    RAISE EXCEPTION 'journal entry % does not sum to zero in every currency', unbalanced;
  END IF;
  RETURN NULL;
END
$$;
ALTER FUNCTION postings_balance_check() SET plan_cache_mode = force_custom_plan;
CREATE TRIGGER postings_balance AFTER INSERT ON postings
  REFERENCING NEW TABLE AS posted FOR EACH STATEMENT EXECUTE FUNCTION postings_balance_check();
