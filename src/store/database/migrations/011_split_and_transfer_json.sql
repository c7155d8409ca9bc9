-- Each split and transfer keeps its own API JSON text, written by PostgreSQL whenever the row is
-- inserted or updated (for the read of a 1,000-split request). Building it at read time was
-- two thirds of that read (~10 µs a row, on every poll); a row is written a few times and read
-- many. The read (store/payrollRequestJson.ts) joins these texts; a test compares the result with
-- the TypeScript view (usecases/views/payrollRequest.ts) for every request of the test and demo
-- worlds, and one with hostile text in every free-text field.
--
-- How values become JSON, as store/jsonSql.ts writes them: free text through to_json (escaped);
-- uuid, numeric::text and timestamps formatted as Date#toISOString writes them (UTC, milliseconds
-- truncated) between quotes, as they never need escaping; jsonb as its text.

ALTER TABLE amount_splits ADD COLUMN api_json text;
ALTER TABLE transfers ADD COLUMN payout_instruction_json text;
ALTER TABLE transfers ADD COLUMN api_json text;

CREATE FUNCTION api_timestamp(value timestamptz) RETURNS text LANGUAGE sql STABLE STRICT PARALLEL SAFE
  AS $$ SELECT to_char(value AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') $$;

-- A split as AmountSplitDetail: every field present, null until it applies.
CREATE FUNCTION amount_split_api_json() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.api_json := concat('{"id":"', NEW.id, '","beneficiaryId":"', NEW.beneficiary_id,
    '","beneficiarySnapshot":', NEW.beneficiary_snapshot,
    ',"amountCurrencyType":', to_json(NEW.amount_currency_type),
    ',"sourceCurrencyAmount":"', NEW.source_currency_amount, '","amount":"', NEW.amount,
    '","quotedSourceCurrencyAmount":', COALESCE('"' || NEW.quoted_source_currency_amount || '"', 'null'),
    ',"quotedAmount":', COALESCE('"' || NEW.quoted_amount || '"', 'null'),
    ',"returnedSourceCurrencyAmount":', COALESCE('"' || NEW.returned_source_currency_amount || '"', 'null'),
    ',"purposeCode":', to_json(NEW.purpose_code),
    ',"payoutTransferId":', COALESCE('"' || NEW.payout_transfer_id || '"', 'null'),
    ',"createdAt":"', api_timestamp(NEW.created_at), '","payrollRequestId":"', NEW.payroll_request_id, '"}');
  RETURN NEW;
END $$;

CREATE TRIGGER amount_splits_api_json BEFORE INSERT OR UPDATE ON amount_splits
  FOR EACH ROW EXECUTE FUNCTION amount_split_api_json();

-- A transfer as Transfer: optional fields absent until they apply. A payout's instruction (its
-- split, with the beneficiary's names as they were) never changes once written, so it is looked up
-- only when the row is inserted, has none yet, or its split or amount change. A transfer written
-- before its split (the world loader writes transfers first) gets it on its next update.
CREATE FUNCTION transfer_api_json() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.amount_split_id IS NULL THEN
    NEW.payout_instruction_json := NULL;
  ELSIF TG_OP = 'INSERT' OR NEW.payout_instruction_json IS NULL
     OR NEW.amount_split_id IS DISTINCT FROM OLD.amount_split_id OR NEW.amount <> OLD.amount THEN
    NEW.payout_instruction_json := (
      SELECT concat('{"id":"', sp.id, '","beneficiaryId":"', sp.beneficiary_id, '","beneficiarySnapshot":{',
               substr(concat(',"id":' || (sp.beneficiary_snapshot->'id')::text,
                 ',"firstName":' || (sp.beneficiary_snapshot->'firstName')::text,
                 ',"lastName":' || (sp.beneficiary_snapshot->'lastName')::text,
                 ',"displayName":' || (sp.beneficiary_snapshot->'displayName')::text), 2),
               '},"sourceCurrencyAmount":"', sp.source_currency_amount, '","amount":"', NEW.amount, '"}')
        FROM amount_splits sp WHERE sp.id = NEW.amount_split_id AND sp.payroll_request_id = NEW.payroll_request_id);
  END IF;
  NEW.api_json := concat('{"id":"', NEW.id, '","payrollRequestId":"', NEW.payroll_request_id,
    '","transferType":', to_json(NEW.transfer_type), ',"status":', to_json(NEW.status),
    ',"externalId":' || to_json(NEW.external_id),
    ',"amount":"', NEW.amount, '","currencyCode":', to_json(NEW.currency_code),
    ',"feeDetails":{"id":"' || NEW.fee_id || '"' || concat(',"amount":"' || NEW.fee_amount || '"',
      ',"finalInternalFee":"' || NEW.final_internal_fee || '"') || '}',
    ',"payoutInstruction":' || NEW.payout_instruction_json,
    ',"executedAt":"' || api_timestamp(NEW.executed_at) || '"',
    ',"completedAt":"' || api_timestamp(NEW.completed_at) || '"',
    ',"failureReason":' || to_json(NEW.failure_reason),
    ',"createdAt":"', api_timestamp(NEW.created_at), '"}');
  RETURN NEW;
END $$;

CREATE TRIGGER transfers_api_json BEFORE INSERT OR UPDATE ON transfers
  FOR EACH ROW EXECUTE FUNCTION transfer_api_json();

-- Rows written before this migration: the triggers fill them in (splits first: a payout's
-- instruction is read from its split's columns, not from its JSON, so either order works).
UPDATE amount_splits SET api_json = NULL;
UPDATE transfers SET payout_instruction_json = NULL;

ALTER TABLE amount_splits ALTER COLUMN api_json SET NOT NULL;
ALTER TABLE transfers ALTER COLUMN api_json SET NOT NULL;
