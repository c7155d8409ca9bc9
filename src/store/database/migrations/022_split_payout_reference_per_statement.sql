-- A split's link to its payout, checked once per statement like the split's other references
-- (migration 021): the FX record links every split of a request to its new payout in one statement,
-- and the row trigger looked each payout up again (100,000 lookups in a 100,000-line FX record).
-- The rule is the same, with the foreign key's SQLSTATE (23503): a split written or updated with a
-- payout_transfer_id names a transfer that exists. An update checks the new rows of the statement
-- that have one (transition tables allow no column list, so every update of splits is looked at;
-- before the FX record their links are empty and the check reads nothing).

DROP TRIGGER amount_splits_payout_reference ON amount_splits;
DROP FUNCTION split_payout_check();

-- The message names the operation: the same check now runs after updates too.
CREATE OR REPLACE FUNCTION inserted_references_check() RETURNS trigger LANGUAGE plpgsql AS $$
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
      RAISE EXCEPTION '% of % violates the reference of % to %(%): % is not present', lower(TG_OP), TG_TABLE_NAME, ref[1], ref[2], ref[3], missing
        USING ERRCODE = 'foreign_key_violation';
    END IF;
  END LOOP;
  RETURN NULL;
END $$;

DROP TRIGGER amount_splits_references ON amount_splits;
CREATE TRIGGER amount_splits_references AFTER INSERT ON amount_splits
  REFERENCING NEW TABLE AS written FOR EACH STATEMENT EXECUTE FUNCTION inserted_references_check('written',
    'payroll_request_id payroll_requests id nolock', 'beneficiary_id beneficiaries id nolock', 'payout_transfer_id transfers id nolock');
CREATE TRIGGER amount_splits_payout_linked AFTER UPDATE ON amount_splits
  REFERENCING NEW TABLE AS linked FOR EACH STATEMENT EXECUTE FUNCTION inserted_references_check('linked', 'payout_transfer_id transfers id nolock');
