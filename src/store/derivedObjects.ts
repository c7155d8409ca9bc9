import type { Database, Queryable } from './db.js';
import { DERIVED_FUNCTIONS, type DerivedFunction } from './wireFormat.js';

const QUOTE_TAG = '$derived$';
const FIRST_ID = '00000000-0000-0000-0000-000000000000';

/**
 * The functions whose text is generated from TypeScript (the split's and transfer's JSON writers,
 * store/wireFormat.ts) reach the database through a migration like any other change of schema:
 * `npm run migration:wire-format -- <name>` writes this text as the next migration file, and a test
 * fails while the migrations leave another definition in place (outdatedWireFormatFunctions).
 * Nothing here runs at start-up.
 */
export function wireFormatMigrationSql(): string {
  return DERIVED_FUNCTIONS.map((derived) => {
    if (derived.body.includes(QUOTE_TAG)) throw new Error(`The body of ${derived.signature} contains ${QUOTE_TAG}`);
    return `CREATE OR REPLACE FUNCTION ${derived.signature} RETURNS trigger LANGUAGE plpgsql AS ${QUOTE_TAG}${derived.body}${QUOTE_TAG};\n`;
  }).join('\n');
}

/** The signatures of the generated functions whose definition in the database is not the code's. */
export async function outdatedWireFormatFunctions(db: Queryable): Promise<string[]> {
  const outdated: string[] = [];
  for (const derived of DERIVED_FUNCTIONS) {
    const [row] = await db.query<{ body: string | null }>('SELECT (SELECT prosrc FROM pg_proc WHERE oid = to_regprocedure($1)) AS body', [derived.signature]);
    if (row?.body !== derived.body) outdated.push(derived.signature);
  }
  return outdated;
}

/**
 * A maintenance step, never run at start-up (`npm run store:rewrite-json`, docs/operations.md):
 * after a migration that changes the generated functions, the rows they wrote before keep their
 * text until rewritten. Each table is walked in id order, `batchSize` rows per transaction, and a
 * row is updated (which fires its trigger again) only when its stored JSON is not what the current
 * function writes; so the step can be stopped and run again, and a second run rewrites nothing.
 * Returns, per function, how many rows were rewritten.
 */
export async function rewriteStaleJson(
  db: Database,
  batchSize: number,
  onBatch: (table: string, rewritten: number) => void = () => undefined,
): Promise<Record<string, number>> {
  const rewritten: Record<string, number> = {};
  for (const derived of DERIVED_FUNCTIONS) {
    let count = 0;
    let after: string | null = FIRST_ID;
    while (after !== null) {
      const [batch] = await db.transaction((tx) => tx.query<{ last: string | null; count: number }>(rewriteBatchSql(derived), [after, batchSize]));
      after = batch?.last ?? null;
      count += batch?.count ?? 0;
      onBatch(derived.table, batch?.count ?? 0);
    }
    rewritten[derived.signature] = count;
  }
  return rewritten;
}

/** The next `$2` rows after id `$1`: those whose JSON is stale are written again; returns the last id read. */
const rewriteBatchSql = ({ table, rewrite, stale }: DerivedFunction): string =>
  `WITH batch AS (SELECT id FROM ${table} WHERE id > $1::uuid ORDER BY id LIMIT $2),
        rewritten AS (UPDATE ${table} x SET ${rewrite} FROM batch WHERE x.id = batch.id AND (${stale}) RETURNING 1)
   SELECT (SELECT max(id::text) FROM batch) AS last, (SELECT count(*)::int FROM rewritten) AS count`;
