import type { Queryable } from './db.js';
import { DERIVED_FUNCTIONS, type DerivedFunction } from './wireFormat.js';

const QUOTE_TAG = '$derived$';

/**
 * Puts in place the database functions whose text is generated from TypeScript (the split's and
 * transfer's JSON writers, store/wireFormat.ts), after the migrations, under the start-up lock
 * (`tx` holds it). A function whose body in the database (pg_proc.prosrc) is already the
 * generated one is left alone, so a start-up with nothing changed costs one lookup each. When a
 * body changes, the rows its trigger wrote before must follow: in the same transaction each row
 * whose stored JSON differs from what the new body writes is updated, which fires the trigger
 * again (a field added to the spec thus rewrites every row once; a change that writes the same
 * text, only reads them). Returns, for each function replaced, how many rows were rewritten.
 */
export async function applyDerivedObjects(tx: Queryable): Promise<Record<string, number>> {
  const replaced: Record<string, number> = {};
  for (const derived of DERIVED_FUNCTIONS) {
    if (await isCurrent(tx, derived)) continue;
    if (derived.body.includes(QUOTE_TAG)) throw new Error(`The body of ${derived.signature} contains ${QUOTE_TAG}`);
    await tx.exec(`CREATE OR REPLACE FUNCTION ${derived.signature} RETURNS trigger LANGUAGE plpgsql AS ${QUOTE_TAG}${derived.body}${QUOTE_TAG}`);
    const [row] = await tx.query<{ count: number }>(`WITH rewritten AS (${derived.rewriteStale} RETURNING 1) SELECT count(*)::int AS count FROM rewritten`);
    replaced[derived.signature] = row?.count ?? 0;
  }
  return replaced;
}

async function isCurrent(tx: Queryable, derived: DerivedFunction): Promise<boolean> {
  const [row] = await tx.query<{ body: string | null }>('SELECT (SELECT prosrc FROM pg_proc WHERE oid = to_regprocedure($1)) AS body', [derived.signature]);
  return row?.body === derived.body;
}
