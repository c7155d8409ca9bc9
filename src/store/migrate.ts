import { readdir, readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import type { Database } from './db.js';

const MIGRATIONS_DIR = fileURLToPath(new URL('./migrations/', import.meta.url));
// Any fixed number: serialises concurrent starters (server and worker processes).
const MIGRATION_LOCK_KEY = 4_812_134;

/**
 * Applies every migrations/*.sql not yet recorded, in name order, each in its own
 * transaction. Forward-only and re-runnable: applied files are skipped.
 */
export async function migrate(db: Database): Promise<string[]> {
  const files = (await readdir(MIGRATIONS_DIR)).filter((name) => name.endsWith('.sql')).sort();
  await db.query('CREATE TABLE IF NOT EXISTS schema_migrations (name text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())');
  const applied: string[] = [];
  for (const name of files) {
    const sql = await readFile(MIGRATIONS_DIR + name, 'utf8');
    const ran = await db.transaction(async (tx) => {
      await tx.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK_KEY]);
      const done = await tx.query('SELECT 1 FROM schema_migrations WHERE name = $1', [name]);
      if (done.length > 0) return false;
      await tx.exec(sql);
      await tx.query('INSERT INTO schema_migrations (name) VALUES ($1)', [name]);
      return true;
    });
    if (ran) applied.push(name);
  }
  return applied;
}
