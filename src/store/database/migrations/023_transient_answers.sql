-- An operation's answer that no Idempotency-Key keeps is read once, right after its commit, and
-- deleted as it is read (migration 018): it is written to an unlogged table, so that a 100,000-line
-- payroll's answer (over 100 MB of JSON) is not also written to the WAL, twice (written, deleted).
-- A crash of the database empties the table, which loses only answers whose connections the crash
-- broke. An answer an Idempotency-Key keeps moves to answer_parts, durable, in the transaction that
-- completes the key (store/access/idempotency.ts). Answers left in answer_parts by earlier versions are
-- still deleted by the retention worker.
CREATE UNLOGGED TABLE transient_answer_parts (LIKE answer_parts INCLUDING ALL);
