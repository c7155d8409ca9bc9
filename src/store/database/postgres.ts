import { createHash } from 'node:crypto';
import pg from 'pg';
import type { DatabaseSessionLimits } from '../../config/config.js';
import type { Database, PoolStats, Queryable, Row } from './db.js';
import { parseMultiHostUrl } from './multiHost.js';
import { primaryFollowingClient } from './primaryClient.js';
import { asStoreError, isDatabaseUnavailable, isRetryableConflict } from './unavailable.js';

// numeric stays a string (exact, for decimal.js); count(*) (int8) becomes a number.
pg.types.setTypeParser(pg.types.builtins.INT8, (value) => Number(value));

/** How one pool connects: a second pool (the worker's, say) keeps its traffic off the first. */
export interface PoolOptions {
  /** Connections in this pool (default 10). */
  maxConnections?: number | undefined;
  /** Shown in pg_stat_activity, so each pool's sessions can be told apart. */
  applicationName?: string | undefined;
  /** Called each time a transaction is run again after a deadlock or serialization failure (a metric). */
  onTransactionRetry?: ((sqlState: string) => void) | undefined;
}

/** Bounds of every session of a pool: the settings' DatabaseSessionLimits (src/config/config.ts); defaults below. */
export type SessionLimits = DatabaseSessionLimits;

const DEFAULT_SESSION_LIMITS: SessionLimits = {
  connectTimeoutMs: 5000,
  poolWaitMs: 30_000,
  statementTimeoutMs: 30_000,
  lockTimeoutMs: 10_000,
  idleInTransactionTimeoutMs: 30_000,
  keepAliveMs: 10_000,
  workMemMb: 128,
};

/** A transaction that lost a deadlock or a serialization check runs again, at most this many times in all. */
const MAX_ATTEMPTS = 6;

interface OpenOptions extends PoolOptions {
  session?: SessionLimits | undefined;
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
    private readonly onRetry: ((sqlState: string) => void) | undefined,
    /** With several hosts: a connection failed, so the primary may have moved (see primaryClient.ts). */
    private readonly onLost: () => void = () => undefined,
  ) {}

  static async open(connectionString: string, options: OpenOptions = {}): Promise<PostgresDatabase> {
    const connectTimeoutMs = (options.session ?? DEFAULT_SESSION_LIMITS).connectTimeoutMs;
    const multiHost = parseMultiHostUrl(connectionString);
    const following = multiHost && primaryFollowingClient(multiHost, boundedClient(connectTimeoutMs), connectTimeoutMs);
    const pool = new pg.Pool({
      // With several hosts each new connection is pointed at the primary by the client class.
      connectionString: multiHost ? multiHost.urlFor(multiHost.hosts[0] as { host: string; port: number }) : connectionString,
      max: options.maxConnections ?? 10,
      // A connection holds its prepared statements: keep it through a minute of quiet, not pg's default 10 s.
      idleTimeoutMillis: 60_000,
      ...(options.applicationName !== undefined && { application_name: options.applicationName }),
      ...sessionSettings(options.session ?? DEFAULT_SESSION_LIMITS),
      Client: following?.Client ?? boundedClient(connectTimeoutMs),
    });
    // Idle clients can error when the server restarts; the pool replaces them.
    pool.on('error', () => undefined);
    try {
      await pool.query('SELECT 1');
    } catch (error) {
      await pool.end();
      throw error;
    }
    const finder = following?.finder;
    const onLost = finder && (() => finder.suspectCurrent());
    return new PostgresDatabase(pool, options.kind ?? 'postgres', options.onClose, options.onTransactionRetry, onLost);
  }

  async query<T = Row>(sql: string, params: readonly unknown[] = []): Promise<T[]> {
    try {
      return (await this.pool.query(statement(sql, params))).rows as T[];
    } catch (error) {
      throw this.storeError(error);
    }
  }

  /** A lost or read-only server becomes SERVICE_UNAVAILABLE, and (with several hosts) a new search for the primary. */
  private storeError(error: unknown): unknown {
    if (isDatabaseUnavailable(error)) this.onLost();
    return asStoreError(error);
  }

  afterCommit(effect: () => void): void {
    runEffects([effect]);
  }

  /** A script of several statements: the simple protocol, never prepared. */
  async exec(sql: string): Promise<void> {
    try {
      await this.pool.query(sql);
    } catch (error) {
      throw this.storeError(error);
    }
  }

  /**
   * BEGIN … COMMIT on one connection. A transaction that loses a deadlock (40P01) or a
   * serialization check (40001) has changed nothing and runs again after a short random pause,
   * so a conflict between two requests never reaches a client. `fn` must therefore touch
   * nothing but the database: it may run more than once.
   */
  async transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.runOnce(fn);
      } catch (error) {
        if (attempt >= MAX_ATTEMPTS || !isRetryableConflict(error)) throw this.storeError(error);
        this.onRetry?.((error as { code: string }).code);
        await pause(attempt);
      }
    }
  }

  private async runOnce<T>(fn: (tx: Queryable) => Promise<T>): Promise<T> {
    const client = await this.pool.connect();
    let broken: unknown;
    // pg-pool listens for errors only on idle clients: a session ended by the server while this
    // transaction holds it (idle_in_transaction_session_timeout, a restart) must not crash the process.
    const onSessionError = (error: unknown) => void (broken = error);
    client.on('error', onSessionError);
    const effects: Array<() => void> = [];
    try {
      await client.query('BEGIN');
      const result = await fn({
        query: async <R>(sql: string, params: readonly unknown[] = []) => (await client.query(statement(sql, params))).rows as R[],
        exec: async (sql: string) => void (await client.query(sql)),
        afterCommit: (effect) => void effects.push(effect),
      });
      await client.query('COMMIT');
      runEffects(effects);
      return result;
    } catch (error) {
      // A connection that failed (or timed out client-side) is dropped from the pool, not reused.
      if (isDatabaseUnavailable(error)) broken = error;
      else await client.query('ROLLBACK').catch((rollbackError: unknown) => (broken = rollbackError));
      throw error;
    } finally {
      client.removeListener('error', onSessionError);
      client.release(broken instanceof Error ? broken : undefined);
    }
  }

  poolStats(): PoolStats {
    return { total: this.pool.totalCount, idle: this.pool.idleCount, waiting: this.pool.waitingCount };
  }

  async close(): Promise<void> {
    await this.pool.end();
    await this.onClose?.();
  }
}

/** Effects are bookkeeping outside the database: one that throws must not fail what committed. */
function runEffects(effects: readonly (() => void)[]): void {
  for (const effect of effects) {
    try {
      effect();
    } catch {
      // Nothing to undo: the work is committed, and the effect's owner reports its own failures.
    }
  }
}

/** 10–50 ms, then 20–100 ms, …: two conflicting transactions rarely meet again. */
function pause(attempt: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, attempt * (10 + Math.random() * 40)));
}

/**
 * The session bounds, set at connection start-up: the server cancels a statement or a lock wait
 * past its bound, ends a transaction a vanished client left open, and checks for a vanished client
 * during a long statement (client_connection_check_interval); TCP keepalives on both ends find a
 * dead peer. The client gives up on a statement a second after the server would have (a database
 * that black-holes never answers the cancel), and on a connection after connectTimeoutMs.
 * work_mem is raised from PostgreSQL's 4 MB: a 100,000-line payroll's statements sort, collect and
 * hand their triggers tens of megabytes at once (a payout chunk's events, the FX record's payouts),
 * which at 4 MB went through temporary files; it is only taken by a statement that needs it.
 */
function sessionSettings(limits: SessionLimits): pg.PoolConfig {
  const keepAliveSeconds = Math.max(1, Math.round(limits.keepAliveMs / 1000));
  return {
    // The pool's own bound: how long a request waits for a free connection (or a new one).
    connectionTimeoutMillis: Math.max(limits.poolWaitMs, limits.connectTimeoutMs),
    keepAlive: true,
    keepAliveInitialDelayMillis: limits.keepAliveMs,
    statement_timeout: limits.statementTimeoutMs,
    lock_timeout: limits.lockTimeoutMs,
    idle_in_transaction_session_timeout: limits.idleInTransactionTimeoutMs,
    query_timeout: limits.statementTimeoutMs + 1000,
    options: [
      `-c tcp_keepalives_idle=${keepAliveSeconds}`,
      '-c tcp_keepalives_interval=2',
      '-c tcp_keepalives_count=3',
      '-c client_connection_check_interval=2000',
      `-c work_mem=${limits.workMemMb}MB`,
    ].join(' '),
  };
}

/**
 * pg-pool hands its connectionTimeoutMillis to every client it makes; this client connects within
 * its own, shorter bound instead, so that a server that does not answer is told apart at once
 * (503) from a pool that is merely busy (the request waits its turn).
 */
function boundedClient(connectTimeoutMs: number): typeof pg.Client {
  return class BoundedClient extends pg.Client {
    constructor(config?: string | pg.ClientConfig) {
      super({ ...(typeof config === 'string' ? { connectionString: config } : config), connectionTimeoutMillis: connectTimeoutMs });
    }
  };
}

/**
 * Every statement is sent as a named prepared statement, its name derived from its text: each
 * connection parses and plans it once and then only binds and executes it. Unnamed, PostgreSQL
 * plans the statement again on every execution, which for a join of many tables or a big CTE is
 * a cost of its own (docs/decisions/0002-named-prepared-statements.md). The store's SQL is a bounded set of texts; past MAX_NAMED distinct texts (a bug building
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
