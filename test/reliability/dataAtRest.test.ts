/**
 * Data at rest: the real service process (`npm start`'s entry point) on the embedded database in
 * a data directory on disk. A request created through the API survives a SIGTERM and a restart
 * unchanged; the world is not loaded twice; migrations are forward-only and re-runnable (each is
 * recorded once, and running them again applies nothing). Runs on either suite database setting:
 * the process always uses its own embedded database here.
 */
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/config.js';
import { signAccessToken } from '../../src/http/access/tokens.js';
import { migrate } from '../../src/store/database/migrate.js';
import { openDatabase } from '../../src/store/database/open.js';
import { expectBooksBalanced } from '../support/balances.js';
import { freePort, killLeftovers, startService, stop } from '../support/processes.js';
import { apiAt, call, count, dataOf, estimate } from './api.js';

// The demo world (worlds/demo.json): Dana of Acme, its USD account currency, the AED partner bank.
const demo = {
  dana: '7b1e0003-0000-4000-8000-000000000001',
  usd: '7b1e0005-0000-4000-8000-000000000001',
  aed: '7b1e0005-0000-4000-8000-000000000004',
  beneficiary: (n: number) => `7b1e0006-0000-4000-8000-00000000000${n}`,
  completedRequest: '7b1e0007-0000-4000-8000-000000000003',
};
const MIGRATIONS_DIR = fileURLToPath(new URL('../../src/store/database/migrations/', import.meta.url));

const dirs: string[] = [];
afterAll(async () => {
  killLeftovers();
  for (const dir of dirs) await rm(dir, { recursive: true, force: true });
});

/** The service on the demo world, on the data directory `dataDir` (no Redis). */
const startOn = (dataDir: string, port: number) => startService(port, { DATA_DIR: dataDir, REDIS_URL: '', WORLD_FILE: 'worlds/demo.json' });

describe('data at rest: the embedded data directory survives a restart', () => {
  it('a request created through the API reads back unchanged after SIGTERM and a restart; migrations ran once and re-run as no-ops', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'payroll-data-'));
    dirs.push(dataDir);
    const port = await freePort();
    const jwt = loadConfig({}).jwt; // the development secret the service uses without JWT_SECRET
    const api = apiAt(`http://127.0.0.1:${port}`, (userId) => signAccessToken(jwt, userId, 3600));

    // First life: the demo world is loaded into the empty directory; one request is created.
    const first = startOn(dataDir, port);
    await first.listening;
    expect(first.stdout.some((line) => line.includes('world loaded'))).toBe(true);
    const idempotencyKey = 'data-at-rest-create-1';
    const { createBody } = await estimate(
      api,
      [
        { beneficiaryId: demo.beneficiary(1), amount: '1234.56' },
        { beneficiaryId: demo.beneficiary(2), amount: '99.5', amountCurrencyType: 'PAYROLL' },
      ],
      {
        userId: demo.dana,
        source: demo.usd,
        payroll: demo.aed,
      },
    );
    const created = dataOf<{ id: string }>(
      await call(api, 'POST', '/v1/customers/payroll/requests', demo.dana, createBody, { 'Idempotency-Key': idempotencyKey }),
      201,
    );
    const before = dataOf(await call(api, 'GET', `/v1/customers/payroll/requests/${created.id}`, demo.dana));
    const completedBefore = dataOf(await call(api, 'GET', `/v1/customers/payroll/requests/${demo.completedRequest}`, demo.dana));
    const listBefore = dataOf(await call(api, 'GET', '/v1/customers/payroll/requests?limit=100', demo.dana));
    expect(await stop(first.child)).toBe(0);
    expect(first.stdout.some((line) => line.includes('"msg":"stopped"'))).toBe(true);

    // Second life on the same directory: nothing reloaded, nothing lost, nothing changed.
    const second = startOn(dataDir, port);
    await second.listening;
    expect(second.stdout.some((line) => line.includes('world loaded'))).toBe(false);
    expect(dataOf(await call(api, 'GET', `/v1/customers/payroll/requests/${created.id}`, demo.dana))).toEqual(before);
    expect(dataOf(await call(api, 'GET', `/v1/customers/payroll/requests/${demo.completedRequest}`, demo.dana))).toEqual(completedBefore);
    expect(dataOf(await call(api, 'GET', '/v1/customers/payroll/requests?limit=100', demo.dana))).toEqual(listBefore);
    expect((before as { status: string }).status).toBe('PENDING');
    expect(await stop(second.child)).toBe(0);

    // The directory itself: each migration recorded once; migrating again applies nothing and
    // changes nothing; one world; balances equal the ledger.
    const db = await openDatabase({ dataDir });
    try {
      const files = (await readdir(MIGRATIONS_DIR)).filter((name) => name.endsWith('.sql')).sort();
      const recorded = await db.query<{ name: string; n: number }>('SELECT name, count(*)::int AS n FROM schema_migrations GROUP BY name ORDER BY name');
      expect(recorded).toEqual(files.map((name) => ({ name, n: 1 })));
      const countsBefore = [
        await count(db, 'SELECT count(*) AS n FROM customers'),
        await count(db, 'SELECT count(*) AS n FROM payroll_requests'),
        await count(db, 'SELECT count(*) AS n FROM journal_entries'),
      ];
      expect(await migrate(db)).toEqual([]);
      expect(await migrate(db)).toEqual([]);
      expect(await count(db, 'SELECT count(*) AS n FROM schema_migrations')).toBe(files.length);
      expect([
        await count(db, 'SELECT count(*) AS n FROM customers'),
        await count(db, 'SELECT count(*) AS n FROM payroll_requests'),
        await count(db, 'SELECT count(*) AS n FROM journal_entries'),
      ]).toEqual(countsBefore);
      expect(await count(db, 'SELECT count(*) AS n FROM payroll_requests WHERE id = $1', [created.id])).toBe(1);
      await expectBooksBalanced(db);
    } finally {
      await db.close();
    }

    // Third life: the Idempotency-Key stored before the restarts still replays the first answer.
    const third = startOn(dataDir, port);
    await third.listening;
    const replay = await call(api, 'POST', '/v1/customers/payroll/requests', demo.dana, createBody, { 'Idempotency-Key': idempotencyKey });
    expect(replay.status).toBe(201);
    expect((replay.json as { data: { id: string } }).data.id).toBe(created.id);
    expect(await stop(third.child)).toBe(0);
  }, 120_000);
});
