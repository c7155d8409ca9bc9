/**
 * A multi-host DATABASE_URL on a real server: the pool skips a host that does not answer, refuses
 * (503, an unavailable error) while no listed server takes writes, and finds a writable one again
 * by itself. A database set to default_transaction_read_only plays the standby: to the probe it is
 * what a server in recovery is, a server that refuses writes.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { PostgresDatabase } from '../../../src/store/database/postgres.js';
import { isDatabaseUnavailable } from '../../../src/store/database/unavailable.js';
import { type FreshDatabase, freshDatabase } from '../../support/database.js';
import { freePort } from '../../support/processes.js';

/** The same database under two hosts: a loopback port nobody listens on, then the real server. */
function twoHosts(url: string, closedPort: number): string {
  const parsed = new URL(url);
  const user = parsed.username ? `${parsed.username}${parsed.password ? `:${parsed.password}` : ''}@` : '';
  return `postgres://${user}127.0.0.1:${closedPort},${parsed.host}${parsed.pathname}?target_session_attrs=read-write`;
}

/** A statement on the server's postgres database: the test's own is read-only at times. */
async function asAdmin(url: string, sql: string): Promise<void> {
  const admin = new URL(url);
  admin.pathname = '/postgres';
  const client = new pg.Client({ connectionString: admin.toString() });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

async function until<T>(what: string, attempt: () => Promise<T>): Promise<T> {
  const deadline = Date.now() + 30_000;
  let last: unknown;
  while (Date.now() < deadline) {
    try {
      return await attempt();
    } catch (error) {
      last = error;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  throw new Error(`${what}: still failing after 30 s (${String(last)})`);
}

describe('DATABASE_URL with several hosts and target_session_attrs=read-write', () => {
  let fresh: FreshDatabase;
  let name = '';
  const opened: PostgresDatabase[] = [];

  beforeAll(async () => {
    fresh = await freshDatabase();
    name = new URL(fresh.url).pathname.slice(1);
  });

  afterAll(async () => {
    for (const db of opened) await db.close();
    await asAdmin(fresh.url, `ALTER DATABASE ${name} RESET default_transaction_read_only`).catch(() => undefined);
    await fresh.drop();
  });

  it('connects past a host that does not answer and writes on the one that takes writes', async () => {
    const db = await PostgresDatabase.open(twoHosts(fresh.url, await freePort()), { maxConnections: 2 });
    opened.push(db);
    const written = await db.transaction(async (tx) => {
      await tx.exec('CREATE TEMP TABLE probe (n int)');
      return tx.query<{ n: number }>('INSERT INTO probe VALUES (1) RETURNING n');
    });
    expect(written).toEqual([{ n: 1 }]);
  });

  it('answers unavailable while the server refuses writes, and writes again once it takes them', async () => {
    const db = await PostgresDatabase.open(twoHosts(fresh.url, await freePort()), { maxConnections: 2 });
    opened.push(db);
    await db.query('SELECT 1');

    // The server turns "standby": new sessions are read-only, the pool's sessions are ended.
    await asAdmin(fresh.url, `ALTER DATABASE ${name} SET default_transaction_read_only = on`);
    await asAdmin(fresh.url, `SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = '${name}' AND pid <> pg_backend_pid()`);
    const refusal = await until('a refusal', async () => {
      const error = await db.query('SELECT 1').then(
        () => undefined,
        (e: unknown) => e,
      );
      if (error === undefined) throw new Error('still answered');
      return error;
    });
    expect((refusal as { code?: string }).code).toBe('SERVICE_UNAVAILABLE');
    const again = await db.query('SELECT 1').catch((e: unknown) => e);
    expect((again as { code?: string }).code, 'no writable server: refused, not connected to the read-only one').toBe('SERVICE_UNAVAILABLE');

    await asAdmin(fresh.url, `ALTER DATABASE ${name} RESET default_transaction_read_only`);
    const rows = await until('a write after the server takes writes again', () =>
      db.transaction(async (tx) => {
        await tx.exec('CREATE TEMP TABLE probe (n int)');
        return tx.query<{ n: number }>('INSERT INTO probe VALUES (2) RETURNING n');
      }),
    );
    expect(rows).toEqual([{ n: 2 }]);
  });

  it('refuses to open while no listed server takes writes', async () => {
    await asAdmin(fresh.url, `ALTER DATABASE ${name} SET default_transaction_read_only = on`);
    try {
      const error = await PostgresDatabase.open(twoHosts(fresh.url, await freePort()), { maxConnections: 1 }).then(
        async (db) => (await db.close(), undefined),
        (e: unknown) => e,
      );
      expect(isDatabaseUnavailable(error)).toBe(true);
    } finally {
      await asAdmin(fresh.url, `ALTER DATABASE ${name} RESET default_transaction_read_only`);
    }
  });
});
