import type { Queryable } from './db.js';

/** One round trip that needs a working connection and nothing else (the readiness probe). */
export async function pingDatabase(db: Queryable): Promise<void> {
  await db.query('SELECT 1');
}
