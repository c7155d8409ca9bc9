import type { Database } from './db.js';
import { migrate } from './migrate.js';
import { PgliteDatabase } from './pglite.js';
import { PostgresDatabase } from './postgres.js';

export interface DatabaseSettings {
  /** PostgreSQL connection string; when set, the embedded database is not used. */
  databaseUrl?: string | undefined;
  /** Embedded data directory; 'memory://' keeps it in memory. */
  dataDir: string;
}

/** Opens the configured database and brings its schema up to date. */
export async function openDatabase(settings: DatabaseSettings): Promise<Database> {
  const db = settings.databaseUrl
    ? await PostgresDatabase.open(settings.databaseUrl)
    : await PgliteDatabase.open(settings.dataDir === 'memory://' ? {} : { dataDir: settings.dataDir });
  await migrate(db);
  return db;
}
