import { PGlite } from '@electric-sql/pglite';
import type { Database, Queryable, Row } from './db.js';
import { Mutex } from './mutex.js';

/**
 * Embedded Postgres. PGlite is a single session: two interleaved transactions would
 * share it (one's COMMIT would commit the other's work), so every statement and every
 * transaction runs under one mutex.
 */
export class PgliteDatabase implements Database {
  readonly kind = 'embedded' as const;
  private readonly mutex = new Mutex();

  private constructor(private readonly pg: PGlite) {}

  /** dataDir undefined = in memory. loadDataDir = a snapshot made by dumpDataDir (fast test databases). */
  static async open(options: { dataDir?: string; loadDataDir?: Blob } = {}): Promise<PgliteDatabase> {
    const pg = await PGlite.create({
      ...(options.dataDir ? { dataDir: options.dataDir } : {}),
      ...(options.loadDataDir ? { loadDataDir: options.loadDataDir } : {}),
    });
    return new PgliteDatabase(pg);
  }

  query<T = Row>(sql: string, params: readonly unknown[] = []): Promise<T[]> {
    return this.mutex.run(() => runQuery<T>(this.pg, sql, params));
  }

  async exec(sql: string): Promise<void> {
    await this.mutex.run(() => this.pg.exec(sql));
  }

  transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T> {
    return this.mutex.run(() =>
      this.pg.transaction((tx) =>
        fn({
          query: (sql, params = []) => runQuery(tx, sql, params),
          exec: async (sql) => void (await tx.exec(sql)),
        }),
      ),
    );
  }

  /** A snapshot of the whole data directory, to open copies quickly (tests). */
  dump(): Promise<Blob> {
    return this.mutex.run(async () => (await this.pg.dumpDataDir('none')) as Blob);
  }

  async close(): Promise<void> {
    await this.mutex.run(() => this.pg.close());
  }
}

async function runQuery<T>(
  target: Pick<PGlite, 'query'>,
  sql: string,
  params: readonly unknown[],
): Promise<T[]> {
  const result = await target.query<T>(sql, params as unknown[]);
  return result.rows;
}
