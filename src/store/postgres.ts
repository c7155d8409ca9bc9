import pg from 'pg';
import type { Database, Queryable, Row } from './db.js';

// numeric stays a string (exact, for decimal.js); count(*) (int8) becomes a number.
pg.types.setTypeParser(pg.types.builtins.INT8, (value) => Number(value));

/** Real PostgreSQL through a pool: each transaction gets its own connection. */
export class PostgresDatabase implements Database {
  readonly kind = 'postgres' as const;

  private constructor(private readonly pool: pg.Pool) {}

  static async open(connectionString: string, maxConnections = 10): Promise<PostgresDatabase> {
    const pool = new pg.Pool({ connectionString, max: maxConnections });
    // Idle clients can error when the server restarts; the pool replaces them.
    pool.on('error', () => undefined);
    await pool.query('SELECT 1');
    return new PostgresDatabase(pool);
  }

  async query<T = Row>(sql: string, params: readonly unknown[] = []): Promise<T[]> {
    const result = await this.pool.query(sql, params as unknown[]);
    return result.rows as T[];
  }

  async exec(sql: string): Promise<void> {
    await this.pool.query(sql);
  }

  async transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T> {
    const client = await this.pool.connect();
    try {
      await client.query('BEGIN');
      const result = await fn({
        query: async <R>(sql: string, params: readonly unknown[] = []) =>
          (await client.query(sql, params as unknown[])).rows as R[],
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
  }
}
