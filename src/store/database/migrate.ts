import { readdir, readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import type { Database } from './db.js';
import { takeStartupLock } from './startupLock.js';

const MIGRATIONS_DIR = fileURLToPath(new URL('./migrations/', import.meta.url));

/**
 * Applies every migrations/*.sql not yet recorded, in name order, each in its own transaction
 * under the start-up lock (the bookkeeping table's creation included), so that any number of
 * processes starting at once on an empty database apply each file exactly once; a process that
 * finds a file applied goes on. Forward-only and re-runnable; with every file applied, a start
 * reads one row per file and writes nothing (no stored row is rewritten at start-up: that is a
 * migration's work). Returns the files applied.
 */
export async function migrate(db: Database): Promise<string[]> {
  const files = (await readdir(MIGRATIONS_DIR)).filter((name) => name.endsWith('.sql')).sort();
  const applied: string[] = [];
  for (const name of files) {
    const sql = await readFile(MIGRATIONS_DIR + name, 'utf8');
    const ran = await db.transaction(async (tx) => {
      await takeStartupLock(tx);
      await tx.query('CREATE TABLE IF NOT EXISTS schema_migrations (name text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())');
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
