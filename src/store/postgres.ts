import { createHash } from 'node:crypto';
import pg from 'pg';
import type { Database, Queryable, Row } from './db.js';

// numeric stays a string (exact, for decimal.js); count(*) (int8) becomes a number.
pg.types.setTypeParser(pg.types.builtins.INT8, (value) => Number(value));

/** How one pool connects: a second pool (the worker's, say) keeps its traffic off the first. */
export interface PoolOptions {
  /** Connections in this pool (default 10). */
  maxConnections?: number | undefined;
  /** Shown in pg_stat_activity, so each pool's sessions can be told apart. */
  applicationName?: string | undefined;
}

interface OpenOptions extends PoolOptions {
  kind?: Database['kind'];
  /** Runs after the pool has ended (the embedded server is released there). */
  onClose?: () => Promise<void>;
}

/** Real PostgreSQL through a pool: each transaction gets its own connection. */
export class PostgresDatabase implements Database {
  private constructor(
    private readonly pool: pg.Pool,
    readonly kind: Database['kind'],
    private readonly onClose: (() => Promise<void>) | undefined,
  ) {}

  static async open(connectionString: string, options: OpenOptions = {}): Promise<PostgresDatabase> {
    const pool = new pg.Pool({
      connectionString,
      max: options.maxConnections ?? 10,
      // A connection holds its prepared statements: keep it through a minute of quiet, not pg's default 10 s.
      idleTimeoutMillis: 60_000,
      ...(options.applicationName !== undefined && { application_name: options.applicationName }),
    });
    // Idle clients can error when the server restarts; the pool replaces them.
    pool.on('error', () => undefined);
    try {
      await pool.query('SELECT 1');
    } catch (error) {
      await pool.end();
      throw error;
    }
    return new PostgresDatabase(pool, options.kind ?? 'postgres', options.onClose);
  }

  async query<T = Row>(sql: string, params: readonly unknown[] = []): Promise<T[]> {
    return (await this.pool.query(statement(sql, params))).rows as T[];
  }

  /** A script of several statements: the simple protocol, never prepared. */
  async exec(sql: string): Promise<void> {
    await this.pool.query(sql);
  }

  async transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T> {
    const client = await this.pool.connect();
    try {
      await client.query('BEGIN');
      const result = await fn({
        query: async <R>(sql: string, params: readonly unknown[] = []) => (await client.query(statement(sql, params))).rows as R[],
        exec: async (sql: string) => void (await client.query(sql)),
      });
      await client.query('COMMIT');
      return result;
    } catch (error) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw error;
    } finally {
      client.release();
    }
  }

  async close(): Promise<void> {
    await this.pool.end();
    await this.onClose?.();
  }
}

/**
 * Every statement is sent as a named prepared statement, its name derived from its text: each
 * connection parses and plans it once and then only binds and executes it. Unnamed, PostgreSQL
 * plans the statement again on every execution (0.3–0.6 ms for a 9-table join, ~4 ms for a big
 * CTE). The store's SQL is a bounded set of texts; past MAX_NAMED distinct texts (a bug building
 * SQL from data, say) statements go unnamed rather than filling every connection with plans.
 */
const MAX_NAMED = 2_000;
const names = new Map<string, string>();

function statement(text: string, values: readonly unknown[]): pg.QueryConfig {
  return { name: nameOf(text), text, values: values as unknown[] };
}

function nameOf(text: string): string | undefined {
  let name = names.get(text);
  if (name === undefined && names.size < MAX_NAMED) {
    name = `q_${createHash('sha256').update(text).digest('base64url').slice(0, 24)}`;
    names.set(text, name);
  }
  return name;
}
