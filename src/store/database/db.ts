/**
 * The database interface the store is written against: PostgreSQL through a pool, either the
 * embedded server (the default, started from the project's own dependency) or an external one
 * (DATABASE_URL). The same SQL and migrations run on both.
 */
export type Row = Record<string, unknown>;

export interface Queryable {
  query<T = Row>(sql: string, params?: readonly unknown[]): Promise<T[]>;
  /** Runs a script of several statements without parameters (migrations). */
  exec(sql: string): Promise<void>;
  /**
   * Runs `effect` once the work done through this handle is committed, and never if it rolls back
   * (a transaction retried after a conflict runs its effects once, for the attempt that committed).
   * For what lives outside the database and must not count what did not happen: metrics.
   * Outside a transaction every statement commits on its own, so the effect runs at once.
   */
  afterCommit(effect: () => void): void;
}

export interface Database extends Queryable {
  /** 'embedded' when this process runs (or joined) the embedded server, else 'postgres'. */
  readonly kind: 'embedded' | 'postgres';
  /** Runs fn inside BEGIN/COMMIT on one connection; any throw rolls back and is re-thrown. */
  transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T>;
  close(): Promise<void>;
  /** The pool's connections right now (for the metrics); absent on a handle that has no pool of its own. */
  poolStats?(): PoolStats;
}

export interface PoolStats {
  total: number;
  idle: number;
  /** Callers waiting for a connection. */
  waiting: number;
}
