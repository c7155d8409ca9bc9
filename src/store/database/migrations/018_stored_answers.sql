-- An operation's answer as JSON text, written by PostgreSQL inside the operation's transaction in
-- parts of a bounded size (store/storedAnswers.ts): the route reads it back a few parts at a time
-- after the commit, so a payroll request of 100,000 splits (over 100 MB as JSON) never sits whole
-- in the process, neither while it is sent nor as an Idempotency-Key's stored answer. An answer
-- kept for an Idempotency-Key is named by the key (response_answer_id) and deleted with it; any
-- other is deleted as it is read (an answer whose reader died is deleted by the retention worker).
-- Written once and read once or a few times, never searched: out of line and uncompressed, as the
-- events' payloads (migration 016).
CREATE TABLE answer_parts (
  answer_id uuid NOT NULL,
  seq integer NOT NULL,
  body text NOT NULL,
  created_at timestamptz NOT NULL,
  PRIMARY KEY (answer_id, seq)
);
ALTER TABLE answer_parts ALTER COLUMN body SET STORAGE EXTERNAL;
CREATE INDEX answer_parts_created ON answer_parts (created_at);

ALTER TABLE idempotency_keys ADD COLUMN response_answer_id uuid;
CREATE INDEX idempotency_keys_answer ON idempotency_keys (response_answer_id) WHERE response_answer_id IS NOT NULL;
