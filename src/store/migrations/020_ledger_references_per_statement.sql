-- The references of the ledger and of the event log, checked once per statement instead of once
-- per row. A row's foreign key runs one lookup per inserted row: a chunk of 2,500 settled payouts
-- (2,500 journal entries, 5,000 postings, 2,500 events) ran 30,000 of them, a third of the
-- chunk's time. The same rules hold, checked by one join per reference over the rows the statement
-- inserted (its transition table), in the statement, with the same SQLSTATE (23503).
--
-- What a foreign key also did, and what does it now:
-- * A referenced row cannot be deleted. The money records (payroll requests, transfers, single
--   payouts, fundings) and the ledger itself are never deleted or truncated: a trigger refuses it.
--   Reference data (currencies, account currencies, customers) may be deleted while nothing of
--   the ledger or the event log refers to it.
-- * A referenced row cannot be deleted while the inserting transaction is still open: the checks
--   take the same KEY SHARE lock on the reference data they find.
-- * A reference cannot be changed to a missing row: ledger rows are never updated (refused), and
--   an event's customer is never changed (refused).

ALTER TABLE postings DROP CONSTRAINT postings_journal_entry_id_fkey;
ALTER TABLE postings DROP CONSTRAINT postings_account_currency_id_fkey;
ALTER TABLE postings DROP CONSTRAINT postings_currency_code_fkey;
ALTER TABLE journal_entries DROP CONSTRAINT journal_entries_payroll_request_id_fkey;
ALTER TABLE journal_entries DROP CONSTRAINT journal_entries_transfer_id_fkey;
ALTER TABLE journal_entries DROP CONSTRAINT journal_entries_payout_id_fkey;
ALTER TABLE journal_entries DROP CONSTRAINT journal_entries_funding_id_fkey;
ALTER TABLE events DROP CONSTRAINT events_customer_id_fkey;

CREATE FUNCTION missing_reference(child text, reference text, missing text) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'insert into % violates the reference %: % is not present', child, reference, missing
    USING ERRCODE = 'foreign_key_violation';
END $$;

CREATE FUNCTION journal_entries_references_check() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  missing text;
BEGIN
  SELECT 'payroll_request_id ' || e.payroll_request_id INTO missing FROM entered e
   WHERE e.payroll_request_id IS NOT NULL AND NOT EXISTS (SELECT 1 FROM payroll_requests r WHERE r.id = e.payroll_request_id) LIMIT 1;
  IF FOUND THEN PERFORM missing_reference('journal_entries', 'payroll_requests(id)', missing); END IF;
  SELECT 'transfer_id ' || e.transfer_id INTO missing FROM entered e
   WHERE e.transfer_id IS NOT NULL AND NOT EXISTS (SELECT 1 FROM transfers t WHERE t.id = e.transfer_id) LIMIT 1;
  IF FOUND THEN PERFORM missing_reference('journal_entries', 'transfers(id)', missing); END IF;
  SELECT 'payout_id ' || e.payout_id INTO missing FROM entered e
   WHERE e.payout_id IS NOT NULL AND NOT EXISTS (SELECT 1 FROM payouts p WHERE p.id = e.payout_id) LIMIT 1;
  IF FOUND THEN PERFORM missing_reference('journal_entries', 'payouts(id)', missing); END IF;
  SELECT 'funding_id ' || e.funding_id INTO missing FROM entered e
   WHERE e.funding_id IS NOT NULL AND NOT EXISTS (SELECT 1 FROM account_fundings f WHERE f.id = e.funding_id) LIMIT 1;
  IF FOUND THEN PERFORM missing_reference('journal_entries', 'account_fundings(id)', missing); END IF;
  RETURN NULL;
END $$;
CREATE TRIGGER journal_entries_references AFTER INSERT ON journal_entries
  REFERENCING NEW TABLE AS entered FOR EACH STATEMENT EXECUTE FUNCTION journal_entries_references_check();

CREATE FUNCTION postings_references_check() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  missing text;
BEGIN
  SELECT 'journal_entry_id ' || p.journal_entry_id INTO missing FROM posted p
   WHERE NOT EXISTS (SELECT 1 FROM journal_entries j WHERE j.id = p.journal_entry_id) LIMIT 1;
  IF FOUND THEN PERFORM missing_reference('postings', 'journal_entries(id)', missing); END IF;
  PERFORM 1 FROM account_currencies ac WHERE ac.id IN (SELECT account_currency_id FROM posted) FOR KEY SHARE;
  SELECT 'account_currency_id ' || p.account_currency_id INTO missing FROM posted p
   WHERE p.account_currency_id IS NOT NULL AND NOT EXISTS (SELECT 1 FROM account_currencies ac WHERE ac.id = p.account_currency_id) LIMIT 1;
  IF FOUND THEN PERFORM missing_reference('postings', 'account_currencies(id)', missing); END IF;
  PERFORM 1 FROM currencies c WHERE c.code IN (SELECT currency_code FROM posted) FOR KEY SHARE;
  SELECT 'currency_code ' || p.currency_code INTO missing FROM posted p
   WHERE NOT EXISTS (SELECT 1 FROM currencies c WHERE c.code = p.currency_code) LIMIT 1;
  IF FOUND THEN PERFORM missing_reference('postings', 'currencies(code)', missing); END IF;
  RETURN NULL;
END $$;
CREATE TRIGGER postings_references AFTER INSERT ON postings
  REFERENCING NEW TABLE AS posted FOR EACH STATEMENT EXECUTE FUNCTION postings_references_check();

CREATE FUNCTION events_references_check() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  missing text;
BEGIN
  PERFORM 1 FROM customers c WHERE c.id IN (SELECT customer_id FROM recorded) FOR KEY SHARE;
  SELECT 'customer_id ' || e.customer_id INTO missing FROM recorded e
   WHERE NOT EXISTS (SELECT 1 FROM customers c WHERE c.id = e.customer_id) LIMIT 1;
  IF FOUND THEN PERFORM missing_reference('events', 'customers(id)', missing); END IF;
  RETURN NULL;
END $$;
CREATE TRIGGER events_references AFTER INSERT ON events
  REFERENCING NEW TABLE AS recorded FOR EACH STATEMENT EXECUTE FUNCTION events_references_check();

-- Money records and the ledger are kept: nothing deletes them, and the ledger is never rewritten.
CREATE FUNCTION money_records_kept() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION '% of %: money records and the ledger are kept', TG_OP, TG_TABLE_NAME USING ERRCODE = 'restrict_violation';
END $$;
CREATE TRIGGER payroll_requests_kept BEFORE DELETE ON payroll_requests FOR EACH ROW EXECUTE FUNCTION money_records_kept();
CREATE TRIGGER payroll_requests_kept_whole BEFORE TRUNCATE ON payroll_requests FOR EACH STATEMENT EXECUTE FUNCTION money_records_kept();
CREATE TRIGGER transfers_kept BEFORE DELETE ON transfers FOR EACH ROW EXECUTE FUNCTION money_records_kept();
CREATE TRIGGER transfers_kept_whole BEFORE TRUNCATE ON transfers FOR EACH STATEMENT EXECUTE FUNCTION money_records_kept();
CREATE TRIGGER payouts_kept BEFORE DELETE ON payouts FOR EACH ROW EXECUTE FUNCTION money_records_kept();
CREATE TRIGGER payouts_kept_whole BEFORE TRUNCATE ON payouts FOR EACH STATEMENT EXECUTE FUNCTION money_records_kept();
CREATE TRIGGER account_fundings_kept BEFORE DELETE ON account_fundings FOR EACH ROW EXECUTE FUNCTION money_records_kept();
CREATE TRIGGER account_fundings_kept_whole BEFORE TRUNCATE ON account_fundings FOR EACH STATEMENT EXECUTE FUNCTION money_records_kept();
CREATE TRIGGER journal_entries_kept BEFORE UPDATE OR DELETE ON journal_entries FOR EACH ROW EXECUTE FUNCTION money_records_kept();
CREATE TRIGGER journal_entries_kept_whole BEFORE TRUNCATE ON journal_entries FOR EACH STATEMENT EXECUTE FUNCTION money_records_kept();
CREATE TRIGGER postings_kept BEFORE UPDATE OR DELETE ON postings FOR EACH ROW EXECUTE FUNCTION money_records_kept();
CREATE TRIGGER postings_kept_whole BEFORE TRUNCATE ON postings FOR EACH STATEMENT EXECUTE FUNCTION money_records_kept();

-- Reference data goes only when nothing of the ledger or the event log refers to it. An account
-- currency's and a customer's check probe an index that leads with the reference; a currency's
-- reads the postings (a currency is removed by an operator, rarely; an index on every posting's
-- currency would cost each posting more than that).
CREATE FUNCTION reference_still_used() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  used boolean;
BEGIN
  IF TG_TABLE_NAME = 'currencies' THEN
    used := EXISTS (SELECT 1 FROM postings WHERE currency_code = OLD.code);
  ELSIF TG_TABLE_NAME = 'account_currencies' THEN
    used := EXISTS (SELECT 1 FROM postings WHERE account_currency_id = OLD.id);
  ELSE
    used := EXISTS (SELECT 1 FROM events WHERE customer_id = OLD.id);
  END IF;
  IF used THEN
    RAISE EXCEPTION '% of %: the ledger or the event log refers to the row', TG_OP, TG_TABLE_NAME USING ERRCODE = 'foreign_key_violation';
  END IF;
  RETURN CASE TG_OP WHEN 'DELETE' THEN OLD ELSE NEW END;
END $$;
CREATE TRIGGER currencies_still_used BEFORE DELETE ON currencies FOR EACH ROW EXECUTE FUNCTION reference_still_used();
CREATE TRIGGER currencies_key_still_used BEFORE UPDATE OF code ON currencies FOR EACH ROW
  WHEN (OLD.code IS DISTINCT FROM NEW.code) EXECUTE FUNCTION reference_still_used();
CREATE TRIGGER account_currencies_still_used BEFORE DELETE ON account_currencies FOR EACH ROW EXECUTE FUNCTION reference_still_used();
CREATE TRIGGER account_currencies_key_still_used BEFORE UPDATE OF id ON account_currencies FOR EACH ROW
  WHEN (OLD.id IS DISTINCT FROM NEW.id) EXECUTE FUNCTION reference_still_used();
CREATE TRIGGER customers_still_used BEFORE DELETE ON customers FOR EACH ROW EXECUTE FUNCTION reference_still_used();
CREATE TRIGGER customers_key_still_used BEFORE UPDATE OF id ON customers FOR EACH ROW
  WHEN (OLD.id IS DISTINCT FROM NEW.id) EXECUTE FUNCTION reference_still_used();

-- postings_statement (account_currency_id, id DESC) serves every lookup this index served.
DROP INDEX postings_account_currency;

-- An event's customer never changes.
CREATE FUNCTION event_customer_kept() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'update of events.customer_id: an event stays with its customer' USING ERRCODE = 'restrict_violation';
END $$;
CREATE TRIGGER events_customer_kept BEFORE UPDATE OF customer_id ON events FOR EACH ROW
  WHEN (OLD.customer_id IS DISTINCT FROM NEW.customer_id) EXECUTE FUNCTION event_customer_kept();
