-- The database keeps facts, not answers: every PayrollRequest, AmountSplit and Transfer is written
-- in TypeScript from typed rows (src/usecases/views), for an answer, a page, a stream or an event
-- alike. The JSON each split and transfer kept on its row, the trigger functions that wrote it and
-- the stored answers go.

-- An Idempotency-Key's answer with a payroll request is kept on the key: its data compressed
-- (gzip) with the text's length. An answer an earlier release kept in parts moves to the key as
-- its body's text, the same bytes, so that its repeats are answered as before.
ALTER TABLE idempotency_keys ADD COLUMN response_data bytea, ADD COLUMN response_data_bytes bigint;
ALTER TABLE idempotency_keys ALTER COLUMN response_data SET STORAGE EXTERNAL;
UPDATE idempotency_keys k
   SET response_body = '{"success":true,"data":' || (SELECT string_agg(a.body, '' ORDER BY a.seq) FROM answer_parts a WHERE a.answer_id = k.response_answer_id) || '}'
 WHERE k.response_answer_id IS NOT NULL AND EXISTS (SELECT 1 FROM answer_parts a WHERE a.answer_id = k.response_answer_id);
DROP INDEX idempotency_keys_answer;
ALTER TABLE idempotency_keys DROP COLUMN response_answer_id;
DROP TABLE transient_answer_parts;
DROP TABLE answer_parts;

DROP TRIGGER amount_splits_api_json ON amount_splits;
DROP TRIGGER transfers_api_json ON transfers;
DROP FUNCTION amount_split_api_json();
DROP FUNCTION transfer_api_json();
DROP FUNCTION api_timestamp(timestamptz);
ALTER TABLE amount_splits DROP COLUMN api_json;
ALTER TABLE transfers DROP COLUMN api_json, DROP COLUMN payout_instruction_json;
