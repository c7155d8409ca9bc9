import type { Queryable } from './db.js';

/**
 * An operation's answer as JSON text in parts (a stored answer), written by the statement that builds
 * it (store/payrollRequestJsonWrites.ts) and read back here a few parts at a time: the parts of one
 * answer, joined in `seq` order, are its JSON text. It is written transient (transient_answer_parts: an
 * unlogged table, read once and deleted as it is read) and moves to answer_parts when an
 * Idempotency-Key keeps it (completeIdempotencyKey).
 */

/** What was written: how many parts, and how many bytes (UTF-8) they hold together. */
export interface StoredAnswerSize {
  parts: number;
  bytes: number;
}

/** Up to `limit` parts of a kept answer from `fromSeq` on, in order (none past its end, or for an unknown answer). */
export async function findAnswerParts(db: Queryable, answerId: string, fromSeq: number, limit: number): Promise<string[]> {
  const rows = await db.query<{ body: string }>('SELECT body FROM answer_parts WHERE answer_id = $1 AND seq >= $2 ORDER BY seq LIMIT $3', [
    answerId,
    fromSeq,
    limit,
  ]);
  return rows.map((row) => row.body);
}

/** The parts of a transient answer, deleted as they are read: an answer read once leaves nothing behind. */
export async function takeAnswerParts(db: Queryable, answerId: string, fromSeq: number, limit: number): Promise<string[]> {
  const rows = await db.query<{ seq: number; body: string }>(
    `DELETE FROM transient_answer_parts WHERE answer_id = $1 AND seq IN (
       SELECT seq FROM transient_answer_parts WHERE answer_id = $1 AND seq >= $2 ORDER BY seq LIMIT $3)
     RETURNING seq, body`,
    [answerId, fromSeq, limit],
  );
  return rows.sort((a, b) => a.seq - b.seq).map((row) => row.body);
}

/** What is left of a transient answer whose reader stopped before its end. */
export async function deleteAnswer(db: Queryable, answerId: string): Promise<void> {
  await db.query('DELETE FROM transient_answer_parts WHERE answer_id = $1', [answerId]);
}

/**
 * Answers written before `before` that no Idempotency-Key keeps: their reader died before it had
 * read them whole (a key's answer goes with its key: deleteIdempotencyKeys). The transient ones,
 * and those an earlier version wrote to answer_parts. At most `limit` answers of each, whatever
 * their number of parts.
 */
export async function deleteUnkeptAnswers(tx: Queryable, before: Date, limit: number): Promise<number> {
  const rows = await tx.query<{ answers: number }>(
    `WITH transient AS (SELECT DISTINCT answer_id FROM transient_answer_parts WHERE created_at < $1 LIMIT $2),
     transient_gone AS (DELETE FROM transient_answer_parts p USING transient d WHERE p.answer_id = d.answer_id RETURNING 1),
     doomed AS (
       SELECT DISTINCT a.answer_id FROM answer_parts a
        WHERE a.created_at < $1 AND NOT EXISTS (SELECT 1 FROM idempotency_keys k WHERE k.response_answer_id = a.answer_id)
        LIMIT $2),
     gone AS (DELETE FROM answer_parts p USING doomed d WHERE p.answer_id = d.answer_id RETURNING 1)
     SELECT ((SELECT count(*) FROM transient) + (SELECT count(*) FROM doomed))::int AS answers,
            (SELECT count(*) FROM transient_gone) + (SELECT count(*) FROM gone) AS parts`,
    [before, limit],
  );
  return rows[0]?.answers ?? 0;
}
