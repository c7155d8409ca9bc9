-- The references of the ledger and of the event log, checked once per statement instead of once
-- per row. A row's foreign key runs one lookup per inserted row: a chunk of 2,500 settled payouts
-- (2,500 journal entries, 5,000 postings, 2,500 events) ran 30,000 of them. The same rules hold,
-- checked by one join per reference over the rows the statement inserted (its transition table),
-- in the statement, with the same SQLSTATE (23503).
--
-- What a foreign key also did, and what now does it:
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

-- The references of the rows a statement inserted, read from its transition table (which only the
-- trigger function itself sees). The trigger's arguments: the transition table's name, then one
-- 'column parent key lock|nolock' per reference. Each non-null column must name a row of parent by
-- key; with lock, the rows found are KEY SHARE locked first, as a foreign key locks them (for
-- parents that may be deleted; money records are never deleted, below, and need none).
CREATE FUNCTION inserted_references_check() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  ref text[];
  missing text;
BEGIN
  FOR i IN 1 .. TG_NARGS - 1 LOOP
    ref := string_to_array(TG_ARGV[i], ' ');
    IF ref[4] = 'lock' THEN
      EXECUTE format('SELECT 1 FROM %3$I p WHERE p.%4$I IN (SELECT %1$I FROM %2$I) FOR KEY SHARE', ref[1], TG_ARGV[0], ref[2], ref[3]);
    END IF;
    EXECUTE format('SELECT t.%1$I::text FROM %2$I t WHERE t.%1$I IS NOT NULL AND NOT EXISTS (SELECT 1 FROM %3$I p WHERE p.%4$I = t.%1$I) LIMIT 1',
      ref[1], TG_ARGV[0], ref[2], ref[3]) INTO missing;
    IF missing IS NOT NULL THEN
      RAISE EXCEPTION 'insert into % violates the reference of % to %(%): % is not present', TG_TABLE_NAME, ref[1], ref[2], ref[3], missing
        USING ERRCODE = 'foreign_key_violation';
    END IF;
  END LOOP;
  RETURN NULL;
END $$;

CREATE TRIGGER journal_entries_references AFTER INSERT ON journal_entries
  REFERENCING NEW TABLE AS entered FOR EACH STATEMENT EXECUTE FUNCTION inserted_references_check('entered',
    'payroll_request_id payroll_requests id nolock', 'transfer_id transfers id nolock', 'payout_id payouts id nolock',
    'funding_id account_fundings id nolock');
CREATE TRIGGER postings_references AFTER INSERT ON postings
  REFERENCING NEW TABLE AS posted FOR EACH STATEMENT EXECUTE FUNCTION inserted_references_check('posted',
    'journal_entry_id journal_entries id nolock', 'account_currency_id account_currencies id lock', 'currency_code currencies code lock');
CREATE TRIGGER events_references AFTER INSERT ON events
  REFERENCING NEW TABLE AS recorded FOR EACH STATEMENT EXECUTE FUNCTION inserted_references_check('recorded', 'customer_id customers id lock');

-- Money records and the ledger are kept: nothing deletes them, and the ledger is never rewritten.
CREATE FUNCTION money_records_kept() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION '% of % refused: money records, the ledger and what they refer to are kept', TG_OP, TG_TABLE_NAME
    USING ERRCODE = 'restrict_violation';
END $$;
-- Each table of `tables` keeps its rows: no delete, no truncate (and, for the ledger, no update).
CREATE FUNCTION keep_rows(tables text[], refuse_updates boolean) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  t text;
BEGIN
  FOREACH t IN ARRAY tables LOOP
    EXECUTE format('CREATE TRIGGER %I BEFORE %s ON %I FOR EACH ROW EXECUTE FUNCTION money_records_kept()',
      t || '_kept', CASE WHEN refuse_updates THEN 'UPDATE OR DELETE' ELSE 'DELETE' END, t);
    EXECUTE format('CREATE TRIGGER %I BEFORE TRUNCATE ON %I FOR EACH STATEMENT EXECUTE FUNCTION money_records_kept()', t || '_kept_whole', t);
  END LOOP;
END $$;
SELECT keep_rows(ARRAY['payroll_requests', 'transfers', 'payouts', 'account_fundings'], false);
SELECT keep_rows(ARRAY['journal_entries', 'postings'], true);

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
