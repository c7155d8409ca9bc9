/**
 * A database of the previous release (test/fixtures/previousRelease.sql: its schema, its JSON
 * writers and its rows, as pg_dump wrote them) under a server of this tree: the server migrates it
 * forward (dropping the JSON the rows kept) without rewriting any split or transfer, serves each
 * of them as the previous release did, and leaves it with the schema of a database this tree makes
 * from nothing.
 */
import { readFile, readdir } from 'node:fs/promises';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/config.js';
import { signAccessToken } from '../../src/http/access/tokens.js';
import { PostgresDatabase } from '../../src/store/database/postgres.js';
import type { FreshDatabase } from '../support/database.js';
import { ids } from '../fixtures/world.js';
import { emptyDatabase, testServerUrl } from '../support/database.js';
import { createDatabase, dropDatabase, uniqueDatabaseName, urlOfDatabase } from '../support/globalSetupTemplates.js';
import { freePort, killLeftovers, startService, stop } from '../support/processes.js';

const name = uniqueDatabaseName('payroll_previous');
const JWT_SECRET = 'previous-release-test-secret-0123456789-abcdefghij';
afterAll(async () => {
  killLeftovers();
  await dropDatabase(testServerUrl(), name);
});

/** The dump, run as psql would: one session (it empties its search_path), then closed. */
async function restorePreviousRelease(url: string): Promise<void> {
  const dump = await readFile(new URL('../fixtures/previousRelease.sql', import.meta.url), 'utf8');
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(dump);
  } finally {
    await client.end();
  }
}

/**
 * The schema as PostgreSQL describes it: every column (in order, with its type, nullability and
 * default), constraint, index, trigger and function of ours. Two databases with the same description
 * behave the same whatever path of migrations built them.
 */
async function schemaOf(db: PostgresDatabase | FreshDatabase['db']): Promise<string[]> {
  const rows = await db.query<{ line: string }>(
    `SELECT concat_ws(' ', 'column', table_name, ordinal_position, column_name, data_type, is_nullable, column_default) AS line
       FROM information_schema.columns WHERE table_schema = 'public'
     UNION ALL SELECT concat_ws(' ', 'constraint', conrelid::regclass, conname, pg_get_constraintdef(oid))
       FROM pg_constraint WHERE connamespace = 'public'::regnamespace
     UNION ALL SELECT concat_ws(' ', 'index', indexdef) FROM pg_indexes WHERE schemaname = 'public'
     UNION ALL SELECT concat_ws(' ', 'trigger', pg_get_triggerdef(oid)) FROM pg_trigger WHERE NOT tgisinternal
     UNION ALL SELECT concat_ws(' ', 'function', p.oid::regprocedure, md5(p.prosrc), array_to_string(p.proconfig, ','))
       FROM pg_proc p WHERE p.pronamespace = 'public'::regnamespace
     ORDER BY 1`,
  );
  return rows.map((row) => row.line);
}

interface StoredRow {
  id: string;
  version: string;
}

/** Every stored split and transfer with its row version (xmin changes when the row is written). */
async function storedRows(db: PostgresDatabase): Promise<{ splits: StoredRow[]; transfers: StoredRow[] }> {
  const read = (table: string) => db.query<StoredRow>(`SELECT id::text, xmin::text AS version FROM ${table} ORDER BY id`);
  return { splits: await read('amount_splits'), transfers: await read('transfers') };
}

/** The JSON the previous release kept on each split and transfer: what its answers said of them. */
async function previousAnswers(db: PostgresDatabase): Promise<Map<string, unknown>> {
  const rows = await db.query<{ id: string; json: string }>(
    'SELECT id::text, api_json AS json FROM amount_splits UNION ALL SELECT id::text, api_json FROM transfers',
  );
  return new Map(rows.map((row) => [row.id, JSON.parse(row.json) as unknown]));
}

describe('a database of the previous release', () => {
  it('is migrated forward by a server of this tree, which rewrites no split or transfer and serves them as before', async () => {
    await createDatabase(testServerUrl(), name);
    const url = urlOfDatabase(testServerUrl(), name);
    await restorePreviousRelease(url);
    const db = await PostgresDatabase.open(url);
    try {
      const before = await storedRows(db);
      expect(before.splits.length).toBeGreaterThan(10);
      const storedJson = await previousAnswers(db);
      // An Idempotency-Key whose big answer the previous release kept in parts (answer_parts).
      const keptAnswer = '00000000-0000-4000-8000-0000000a5e01';
      await db.query(
        `INSERT INTO idempotency_keys (user_id, key, request_hash, status, response_status, response_answer_id, created_at, locked_at)
         VALUES ($1, 'kept-in-parts', 'hash', 'COMPLETED', 201, $2, now(), now())`,
        [ids.userA, keptAnswer],
      );
      await db.query(`INSERT INTO answer_parts (answer_id, seq, body, created_at) VALUES ($1, 0, '{"id":', now()), ($1, 1, '"é"}', now())`, [keptAnswer]);

      const port = await freePort();
      const service = startService(port, { DATABASE_URL: url, WORKER_IN_PROCESS: 'false', WORLD_FILE: '', JWT_SECRET });
      await service.listening;

      const migrations = (await readdir(new URL('../../src/store/database/migrations/', import.meta.url))).filter((file) => file.endsWith('.sql'));
      const recorded = await db.query<{ name: string }>('SELECT name FROM schema_migrations ORDER BY name');
      expect(recorded.map((row) => row.name)).toEqual(migrations.sort());
      expect(await storedRows(db)).toEqual(before);
      // The key keeps the answer on its row now, the same text in its envelope: its repeats are answered as before.
      const [kept] = await db.query<{ body: string }>("SELECT response_body AS body FROM idempotency_keys WHERE key = 'kept-in-parts'");
      expect(kept?.body).toBe('{"success":true,"data":{"id":"é"}}');

      const token = await signAccessToken(loadConfig({ NODE_ENV: 'development', JWT_SECRET }).jwt, ids.userA, 600);
      const requests = await db.query<{ id: string }>('SELECT id::text FROM payroll_requests WHERE customer_id = $1 ORDER BY id', [ids.customerA]);
      expect(requests.length).toBeGreaterThanOrEqual(3);
      for (const { id } of requests) {
        const answer = await fetch(`http://127.0.0.1:${port}/v1/customers/payroll/requests/${id}`, { headers: { Authorization: `Bearer ${token}` } });
        expect(answer.status, `request ${id}`).toBe(200);
        const { data } = (await answer.json()) as { data: { amountSplitDetails: { id: string }[]; transfers: { id: string }[] } };
        for (const item of [...data.amountSplitDetails, ...data.transfers]) expect(item, `item ${item.id}`).toEqual(storedJson.get(item.id));
      }
      expect(await storedRows(db)).toEqual(before);
      expect(await stop(service.child)).toBe(0);

      // Migrated forward, it has the schema of a database this tree made from nothing.
      const fresh = await emptyDatabase();
      try {
        const migrated = await schemaOf(db);
        expect(migrated.filter((line) => line.startsWith('trigger')).length).toBeGreaterThan(40);
        expect(migrated).toEqual(await schemaOf(fresh.db));
      } finally {
        await fresh.drop();
      }
    } finally {
      await db.close();
    }
  }, 120_000);
});
