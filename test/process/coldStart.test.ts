/**
 * A fleet starting at once on an empty database: three API processes and two workers launched in
 * the same instant all come up; the migrations run once and the demo world is loaded once (the
 * start-up lock), and every server answers ready.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { PostgresDatabase } from '../../src/store/database/postgres.js';
import { testServerUrl } from '../support/database.js';
import { createDatabase, dropDatabase, uniqueDatabaseName, urlOfDatabase } from '../support/globalSetupTemplates.js';
import { freePort, killLeftovers, startEntry, startService, stop } from '../support/processes.js';

const name = uniqueDatabaseName('payroll_cold');
afterAll(async () => {
  await killLeftovers();
  await dropDatabase(testServerUrl(), name);
});

describe('cold start of a fleet', () => {
  it('3 API processes and 2 workers started at once on an empty database all come up; the world is loaded once', async () => {
    await createDatabase(testServerUrl(), name);
    const url = urlOfDatabase(testServerUrl(), name);
    const ports = [await freePort(), await freePort(), await freePort()];
    const started = Date.now();
    const env = { DATABASE_URL: url, WORKER_IN_PROCESS: 'false' };
    const services = ports.map((port) => startService(port, env));
    const workers = [0, 1].map(() => startEntry('src/worker/main.ts', { ...env, NODE_ENV: 'development', LOG_LEVEL: 'info' }));
    await Promise.all(services.map((service) => service.listening));
    const upMs = Date.now() - started;
    for (const port of ports) {
      const ready = await fetch(`http://127.0.0.1:${port}/readyz`);
      expect(ready.status).toBe(200);
    }
    const db = await PostgresDatabase.open(url);
    const [counts] = await db.query<{ customers: number; migrations: number; applied: number }>(
      `SELECT (SELECT count(*) FROM customers)::int AS customers, (SELECT count(*) FROM schema_migrations)::int AS migrations,
              (SELECT count(DISTINCT name) FROM schema_migrations)::int AS applied`,
    );
    await db.close();
    expect(counts!.customers).toBeGreaterThan(0);
    expect(counts!.migrations).toBe(counts!.applied);
    const loaded = services.filter((service) => service.stdout.some((line) => line.includes('world loaded')));
    expect(loaded).toHaveLength(1);
    for (const worker of workers) expect(worker.child.exitCode).toBeNull();
    console.log(`[cold start] 3 API processes and 2 workers on an empty database: all up in ${upMs} ms`);
    for (const { child } of [...services, ...workers]) expect(await stop(child)).toBe(0);
  }, 120_000);
});
