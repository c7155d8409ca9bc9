-- Replays must be byte-identical to the first answer: keep the response as the text we sent
-- (jsonb would reorder its keys).
ALTER TABLE idempotency_keys ALTER COLUMN response_body TYPE text USING response_body::text;
