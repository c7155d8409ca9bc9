-- The references of a payroll's splits and transfers, checked once per statement as migration 020
-- checks the ledger's: a 100,000-line creation ran 200,000 row-by-row foreign-key lookups (its
-- request and each split's beneficiary), an FX record 200,000 more (each payout's request and
-- batch). The same rules hold, with the foreign key's SQLSTATE (23503):
-- * On insert, inserted_references_check (migration 020) reads the statement's transition table.
-- * On the rare update of a reference (a payout put into its batch), the new value is looked up.
-- * Splits, payout batches and beneficiaries are never deleted (refused, 23001), like the money
--   records of migration 020: a beneficiary leaves by being deactivated, which keeps it.

ALTER TABLE amount_splits DROP CONSTRAINT amount_splits_payroll_request_id_fkey;
ALTER TABLE amount_splits DROP CONSTRAINT amount_splits_beneficiary_id_fkey;
ALTER TABLE transfers DROP CONSTRAINT transfers_payroll_request_id_fkey;
ALTER TABLE transfers DROP CONSTRAINT transfers_batch_id_fkey;

CREATE TRIGGER amount_splits_references AFTER INSERT ON amount_splits
  REFERENCING NEW TABLE AS written FOR EACH STATEMENT EXECUTE FUNCTION inserted_references_check('written',
    'payroll_request_id payroll_requests id nolock', 'beneficiary_id beneficiaries id nolock');
CREATE TRIGGER transfers_references AFTER INSERT ON transfers
  REFERENCING NEW TABLE AS made FOR EACH STATEMENT EXECUTE FUNCTION inserted_references_check('made',
    'payroll_request_id payroll_requests id nolock', 'batch_id payout_batches id nolock');

-- A reference changed by an update: the trigger's arguments are the column, the parent, its key and
-- the key's type (so that the lookup is one probe of the parent's key index).
CREATE FUNCTION updated_reference_check() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  value text := to_jsonb(NEW) ->> TG_ARGV[0];
  present boolean;
BEGIN
  IF value IS NULL THEN
    RETURN NEW;
  END IF;
  EXECUTE format('SELECT EXISTS (SELECT 1 FROM %I WHERE %I = $1::%s)', TG_ARGV[1], TG_ARGV[2], TG_ARGV[3]) INTO present USING value;
  IF NOT present THEN
    RAISE EXCEPTION 'update of % violates the reference of % to %(%): % is not present', TG_TABLE_NAME, TG_ARGV[0], TG_ARGV[1], TG_ARGV[2], value
      USING ERRCODE = 'foreign_key_violation';
  END IF;
  RETURN NEW;
END $$;
CREATE TRIGGER amount_splits_request_updated BEFORE UPDATE OF payroll_request_id ON amount_splits FOR EACH ROW
  WHEN (OLD.payroll_request_id IS DISTINCT FROM NEW.payroll_request_id) EXECUTE FUNCTION updated_reference_check('payroll_request_id', 'payroll_requests', 'id', 'uuid');
CREATE TRIGGER amount_splits_beneficiary_updated BEFORE UPDATE OF beneficiary_id ON amount_splits FOR EACH ROW
  WHEN (OLD.beneficiary_id IS DISTINCT FROM NEW.beneficiary_id) EXECUTE FUNCTION updated_reference_check('beneficiary_id', 'beneficiaries', 'id', 'uuid');
CREATE TRIGGER transfers_request_updated BEFORE UPDATE OF payroll_request_id ON transfers FOR EACH ROW
  WHEN (OLD.payroll_request_id IS DISTINCT FROM NEW.payroll_request_id) EXECUTE FUNCTION updated_reference_check('payroll_request_id', 'payroll_requests', 'id', 'uuid');
CREATE TRIGGER transfers_batch_updated BEFORE UPDATE OF batch_id ON transfers FOR EACH ROW
  WHEN (OLD.batch_id IS DISTINCT FROM NEW.batch_id) EXECUTE FUNCTION updated_reference_check('batch_id', 'payout_batches', 'id', 'uuid');

SELECT keep_rows(ARRAY['amount_splits', 'payout_batches', 'beneficiaries'], false);

-- A split's link to its payout is set once, by the statement that makes the payouts from the splits
-- (100,000 at once). Its foreign key locked each payout just written (KEY SHARE dirties the row's
-- page again): payouts are never deleted, so a lookup without a lock keeps the rule. Static SQL, not
-- updated_reference_check: that one plans its lookup on every row, and this one runs on every split.
ALTER TABLE amount_splits DROP CONSTRAINT amount_splits_payout_transfer_id_fkey;
CREATE FUNCTION split_payout_check() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NOT EXISTS (SELECT 1 FROM transfers WHERE id = NEW.payout_transfer_id) THEN
    RAISE EXCEPTION 'update of amount_splits violates the reference of payout_transfer_id to transfers(id): % is not present', NEW.payout_transfer_id
      USING ERRCODE = 'foreign_key_violation';
  END IF;
  RETURN NEW;
END $$;
CREATE TRIGGER amount_splits_payout_reference BEFORE INSERT OR UPDATE OF payout_transfer_id ON amount_splits FOR EACH ROW
  WHEN (NEW.payout_transfer_id IS NOT NULL) EXECUTE FUNCTION split_payout_check();
