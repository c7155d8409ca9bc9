import pg from 'pg';
import { type HostAddress, type HostRole, type MultiHostUrl, PrimaryFinder } from './multiHost.js';

/** Between two fruitless rounds of probes (no host writable), requests are refused at once. */
const RETRY_MS = 500;

/** A connection reached a server that does not take writes: SQLSTATE 25006, read_only_sql_transaction. */
class ReadOnlyServerError extends Error {
  readonly code = '25006';
  constructor(host: HostAddress) {
    super(`${host.host}:${host.port} is in recovery (a standby), not the primary`);
  }
}

/**
 * The pool's client class for a multi-host connection string: each new connection goes to the
 * primary the finder knows (or finds), and a connection that fails, or that finds the server in
 * recovery while read-write is asked for, makes the finder look again. `base` is the class the
 * pool would otherwise use (the bounded one of postgres.ts), so the session's bounds are unchanged.
 */
export function primaryFollowingClient(
  url: MultiHostUrl,
  base: typeof pg.Client,
  connectTimeoutMs: number,
): { Client: typeof pg.Client; finder: PrimaryFinder } {
  const finder = new PrimaryFinder(url.hosts, (host) => probe(url.urlFor(host), connectTimeoutMs), {
    targetSessionAttrs: url.targetSessionAttrs,
    retryMs: RETRY_MS,
  });
  const readWrite = url.targetSessionAttrs === 'read-write';

  class PrimaryClient extends base {
    override connect(): Promise<pg.Client>;
    override connect(callback: (err: Error | null, client?: pg.Client) => void): void;
    override connect(callback?: (err: Error | null, client?: pg.Client) => void): Promise<pg.Client> | void {
      const connected = this.connectToPrimary();
      if (!callback) return connected;
      connected.then(
        (client) => callback(null, client),
        (error: unknown) => callback(error as Error),
      );
    }

    private async connectToPrimary(): Promise<pg.Client> {
      const host = await finder.primary();
      // pg reads its target from these at connect time (and again for a cancel request).
      this.host = host.host;
      this.port = host.port;
      Object.assign((this as unknown as { connectionParameters: object }).connectionParameters, { host: host.host, port: host.port });
      try {
        await super.connect();
        if (readWrite && (await roleOf(this)) === 'standby') throw new ReadOnlyServerError(host);
      } catch (error) {
        finder.suspect(host);
        // Not awaited: ending a connection that never opened need not settle, and the caller must hear of the failure now.
        void this.end().catch(() => undefined);
        throw error;
      }
      return this;
    }
  }
  return { Client: PrimaryClient, finder };
}

/** One short connection to one host: is it the primary? Rejects when the host does not answer. */
async function probe(connectionString: string, connectTimeoutMs: number): Promise<HostRole> {
  const client = new pg.Client({ connectionString, connectionTimeoutMillis: connectTimeoutMs, query_timeout: connectTimeoutMs });
  client.on('error', () => undefined);
  try {
    await client.connect();
    return await roleOf(client);
  } finally {
    // Not awaited, for the same reason: a round of probes waits for the slowest answer, not for a close.
    void client.end().catch(() => undefined);
  }
}

/** A server in recovery, or one set to refuse writes, is not where this service may write. */
async function roleOf(client: pg.ClientBase): Promise<HostRole> {
  const { rows } = await client.query<{ standby: boolean; read_only: string }>(
    "SELECT pg_is_in_recovery() AS standby, current_setting('transaction_read_only') AS read_only",
  );
  const row = rows[0];
  return row && !row.standby && row.read_only === 'off' ? 'primary' : 'standby';
}
