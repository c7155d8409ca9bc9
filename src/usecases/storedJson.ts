import type { Queryable } from '../store/db.js';
import { JsonText } from './jsonText.js';
import { deleteAnswer, findAnswerParts, takeAnswerParts } from '../store/storedAnswers.js';

/** Parts read at a time: a part holds at most ITEMS_PER_PART splits or transfers (under 1 MB). */
const PARTS_PER_READ = 4;

/** Splits or transfers to a part of a stored answer. */
export const ITEMS_PER_PART = 1000;

/**
 * An operation's answer as JSON text that PostgreSQL wrote, in parts, inside the operation's
 * transaction (a stored answer): the route sends it a few parts at a time after the commit, so a
 * request of 100,000 splits (over 100 MB of JSON) is never whole in the process. An answer kept
 * for an Idempotency-Key is sent again, the same bytes, to every repeat; any other is deleted as
 * it is read. `T` is the shape it has, so the handler types still check the operation.
 */
export class StoredJson<T> {
  /** Never set: it only carries `T` for the type checker. */
  declare readonly shape?: T;

  /** `bytes`: the length of its text in UTF-8. */
  constructor(
    readonly answerId: string,
    readonly bytes: number,
  ) {}
}

/**
 * The answer's parts in order, read a few at a time from `db` (after the commit that wrote them).
 * Unless `keep`, each read deletes what it returns, and a reader that stops early (the client went
 * away) deletes the rest.
 */
export async function* storedJsonParts(db: Queryable, answer: StoredJson<unknown>, keep: boolean): AsyncGenerator<string, void, undefined> {
  let done = false;
  try {
    for (let seq = 0; ; seq += PARTS_PER_READ) {
      const parts = keep ? await findAnswerParts(db, answer.answerId, seq, PARTS_PER_READ) : await takeAnswerParts(db, answer.answerId, seq, PARTS_PER_READ);
      if (parts.length < PARTS_PER_READ) done = true;
      yield* parts;
      if (done) return;
    }
  } finally {
    if (!done && !keep) await deleteAnswer(db, answer.answerId);
  }
}

/** The whole answer as a value (for callers inside the process and the response validator), deleted unless `keep`; a small one's text parsed. */
export async function readStoredJson<T>(db: Queryable, answer: StoredJson<T> | JsonText<T>, keep = false): Promise<T> {
  if (answer instanceof JsonText) return answer.parse();
  const parts: string[] = [];
  for await (const part of storedJsonParts(db, answer, keep)) parts.push(part);
  return JSON.parse(parts.join('')) as T;
}
