import type { Database, Queryable } from './db.js';
import { acquireEmbeddedPostgres } from './embedded.js';
import { migrate } from './migrate.js';
import { type PoolOptions, PostgresDatabase, type SessionLimits } from './postgres.js';

export interface DatabaseSettings {
  /** PostgreSQL connection string; when set, the embedded server is not used. */
  databaseUrl?: string | undefined;
  /** The embedded server's data directory; 'memory://' is a temporary one, removed on close. */
  dataDir: string;
  /** The embedded server's port; a free one when unset. */
  embeddedPort?: number | undefined;
  /** Timeouts and keepalives of every session (DEFAULT_SESSION_LIMITS when unset). */
  session?: SessionLimits | undefined;
}

/**
 * Opens a pool on the configured database and brings its schema up to date. Opening again (the
 * worker's own pool, say) gives a second pool on the same database; with the embedded default
 * both share the one server, which stops when the last of them closes.
 */
export async function openDatabase(settings: DatabaseSettings, pool: PoolOptions = {}): Promise<Database> {
  const options = { ...pool, session: settings.session };
  const db = settings.databaseUrl ? await PostgresDatabase.open(settings.databaseUrl, options) : await openEmbedded(settings, options);
  try {
    await migrate(db);
  } catch (error) {
    await db.close();
    throw error;
  }
  return db;
}

async function openEmbedded(settings: DatabaseSettings, pool: PoolOptions & { session?: SessionLimits | undefined }): Promise<Database> {
  const server = await acquireEmbeddedPostgres({ dataDir: settings.dataDir, port: settings.embeddedPort });
  try {
    return await PostgresDatabase.open(server.url, { ...pool, kind: 'embedded', onClose: server.release });
  } catch (error) {
    await server.release();
    throw error;
  }
}

/**
 * Runs `fn` with a connection string of the configured database, for another process to connect
 * to: `databaseUrl`, or the embedded server's (held for the call, so it stays up meanwhile).
 */
export async function withDatabaseUrl<T>(settings: DatabaseSettings, fn: (url: string) => Promise<T>): Promise<T> {
  if (settings.databaseUrl) return fn(settings.databaseUrl);
  const server = await acquireEmbeddedPostgres({ dataDir: settings.dataDir, port: settings.embeddedPort });
  try {
    return await fn(server.url);
  } finally {
    await server.release();
  }
}

/**
 * Refreshes the planner's statistics. Run it after loading a world: the machines' PostgreSQL runs
 * with autovacuum off, and without statistics the planner scans whole tables.
 */
export async function analyze(db: Queryable): Promise<void> {
  await db.exec('ANALYZE');
}
