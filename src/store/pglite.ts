import { PGlite } from '@electric-sql/pglite';
import type { Database, Queryable, Row } from './db.js';
import { Mutex } from './mutex.js';

/**
 * PGlite's WebAssembly memory starts at 128 MB (`initialMemory` cannot go lower: the module
 * itself declares that minimum) and grows to hold shared_buffers, which Postgres defaults to
 * 128 MB. Every page the embedded database reads is also held by PGlite's file system layer (in
 * memory for memory://, in the OS cache for a data directory), so a large buffer pool mostly
 * holds copies. 16 MB keeps the WebAssembly memory at its 128 MB floor; in `npm run bench` the
 * server's RSS while serving fell by 100–150 MB (peak by about 100 MB) at the same speed (the hot
 * set is a few MB; 4 MB was measurably slower).
 */
const MEMORY_SETTINGS = ['-c', 'shared_buffers=16MB'];

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
      startParams: [...PGlite.defaultStartParams, ...MEMORY_SETTINGS],
    });
    return new PgliteDatabase(pg);
  }

  query<T = Row>(sql: string, params: readonly unknown[] = []): Promise<T[]> {
    return this.mutex.run(async () => {
      await yieldToEventLoop();
      return runQuery<T>(this.pg, sql, params);
    });
  }

  async exec(sql: string): Promise<void> {
    await this.mutex.run(() => this.pg.exec(sql));
  }

  transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T> {
    return this.mutex.run(async () => {
      await yieldToEventLoop();
      return this.pg.transaction((tx) =>
        fn({
          query: (sql, params = []) => runQuery(tx, sql, params),
          exec: async (sql) => void (await tx.exec(sql)),
        }),
      );
    });
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

/**
 * PGlite runs on this thread and its work is promise continuations only, so without a pause one
 * request's database work, and then the next waiter's, runs before Node reads another socket:
 * under load some connections then wait for seconds while others are served again and again
 * (estimate-5 in `npm run bench`: p99 3–4 s against a p50 of 0.15 s). One macrotask hop when a
 * statement or transaction takes the lock lets the requests that arrived meanwhile queue up in
 * arrival order: p99 0.6 s at the same throughput.
 */
function yieldToEventLoop(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}
