-- The split's and transfer's JSON writers (the triggers are migration 011's), as src/store/wireFormat.ts
-- generates them from the spec's schemas. Only the functions change here: rows written before keep
-- their JSON until `npm run store:rewrite-json` rewrites, in batches, those whose text differs.

CREATE OR REPLACE FUNCTION amount_split_api_json() RETURNS trigger LANGUAGE plpgsql AS $derived$
-- Generated from src/store/wireFormat.ts (npm run migration:wire-format): change it there, not here.
BEGIN
  NEW.api_json := concat('{"id":"', NEW.id, '"', ',"beneficiaryId":"', NEW.beneficiary_id, '"', ',"beneficiarySnapshot":', (NEW.beneficiary_snapshot)::text, ',"amountCurrencyType":', to_json((NEW.amount_currency_type)::text)::text, ',"sourceCurrencyAmount":"', NEW.source_currency_amount, '"', ',"amount":"', NEW.amount, '"', ',"quotedSourceCurrencyAmount":', COALESCE('"' || (NEW.quoted_source_currency_amount)::text || '"', 'null'), ',"quotedAmount":', COALESCE('"' || (NEW.quoted_amount)::text || '"', 'null'), ',"returnedSourceCurrencyAmount":', COALESCE('"' || (NEW.returned_source_currency_amount)::text || '"', 'null'), ',"purposeCode":', to_json((NEW.purpose_code)::text)::text, ',"payoutTransferId":', COALESCE('"' || (NEW.payout_transfer_id)::text || '"', 'null'), ',"createdAt":"', api_timestamp(NEW.created_at), '"', ',"payrollRequestId":"', NEW.payroll_request_id, '"', '}');
  RETURN NEW;
END
$derived$;

CREATE OR REPLACE FUNCTION transfer_api_json() RETURNS trigger LANGUAGE plpgsql AS $derived$
-- Generated from src/store/wireFormat.ts (npm run migration:wire-format): change it there, not here.
BEGIN
  IF NEW.amount_split_id IS NULL THEN
    NEW.payout_instruction_json := NULL;
  ELSIF NEW.payout_instruction_json IS NULL
     OR (TG_OP = 'UPDATE' AND (NEW.amount_split_id IS DISTINCT FROM OLD.amount_split_id OR NEW.amount <> OLD.amount)) THEN
    NEW.payout_instruction_json := (SELECT concat('{"id":"', sp.id, '"', ',"beneficiaryId":"', sp.beneficiary_id, '"', ',"beneficiarySnapshot":', (concat('{"id":', (sp.beneficiary_snapshot->'id')::text, ',"firstName":', (sp.beneficiary_snapshot->'firstName')::text, ',"lastName":', (sp.beneficiary_snapshot->'lastName')::text, ',"displayName":', (sp.beneficiary_snapshot->'displayName')::text, '}'))::text, ',"sourceCurrencyAmount":"', sp.source_currency_amount, '"', ',"amount":"', NEW.amount, '"', '}')
      FROM amount_splits sp WHERE sp.id = NEW.amount_split_id AND sp.payroll_request_id = NEW.payroll_request_id);
  END IF;
  NEW.api_json := concat('{"id":"', NEW.id, '"', ',"payrollRequestId":"', NEW.payroll_request_id, '"', ',"transferType":', to_json((NEW.transfer_type)::text)::text, ',"status":', to_json((NEW.status)::text)::text, ',"externalId":' || to_json((NEW.external_id)::text)::text, ',"amount":"', NEW.amount, '"', ',"currencyCode":', to_json((NEW.currency_code)::text)::text, ',"feeDetails":' || (CASE WHEN NEW.fee_id IS NOT NULL THEN concat('{"id":"', NEW.fee_id, '"', ',"amount":"', NEW.fee_amount, '"', ',"finalInternalFee":"', NEW.final_internal_fee, '"', '}') END)::text, ',"payoutInstruction":' || (NEW.payout_instruction_json)::text, ',"executedAt":"' || (api_timestamp(NEW.executed_at))::text || '"', ',"completedAt":"' || (api_timestamp(NEW.completed_at))::text || '"', ',"failureReason":' || to_json((NEW.failure_reason)::text)::text, ',"createdAt":"', api_timestamp(NEW.created_at), '"', '}');
  RETURN NEW;
END
$derived$;
