/**
 * One database interface for both back ends: embedded PGlite (default) and PostgreSQL
 * (DATABASE_URL). The SQL and migrations are the same for both.
 */
export type Row = Record<string, unknown>;

export interface Queryable {
  query<T = Row>(sql: string, params?: readonly unknown[]): Promise<T[]>;
  /** Runs a script of several statements without parameters (migrations). */
  exec(sql: string): Promise<void>;
}

export interface Database extends Queryable {
  readonly kind: 'embedded' | 'postgres';
  /** Runs fn inside BEGIN/COMMIT; any throw rolls back and is re-thrown. */
  transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}
