/**
 * vitest globalSetup: the server's JavaScript (dist/server/, what `npm start` runs; the process
 * tests start it), one PostgreSQL server for the whole run and the template databases every
 * test file clones. Without TEST_DATABASE_URL the server is the embedded one (a temporary
 * directory, durability off); with it, the templates are made on that server and dropped at the end.
 */
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { TestProject } from 'vitest/node';
import { acquireEmbeddedPostgres, MEMORY } from '../../src/store/database/embedded.js';
import { migrate } from '../../src/store/database/migrate.js';
import { analyze } from '../../src/store/database/open.js';
import { PostgresDatabase } from '../../src/store/database/postgres.js';
import { loadWorld } from '../../src/world/load.js';
import { testWorld } from '../fixtures/world.js';
import { createDatabase, demoWorld, dropDatabase, type TestDatabaseServer, uniqueDatabaseName, urlOfDatabase } from './globalSetupTemplates.js';

/** What the test tiers that need a database share, with how many of them are still running. */
interface Prepared {
  ready: Promise<{ server: TestDatabaseServer; release: () => Promise<void> }>;
  users: number;
}

// Every tier (vitest project) but unit names this file; they run in one process, so they share one
// preparation — one build, one server, one set of templates — released when the last one ends.
const PREPARED = Symbol.for('payroll-fee-service.testDatabase');
const shared = globalThis as { [PREPARED]?: Prepared };

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const prepared = (shared[PREPARED] ??= { ready: prepare(), users: 0 });
  prepared.users += 1;
  const { server, release } = await prepared.ready;
  project.provide('testDatabase', server);
  return async () => {
    prepared.users -= 1;
    if (prepared.users > 0) return;
    delete shared[PREPARED];
    await release();
  };
}

async function prepare(): Promise<{ server: TestDatabaseServer; release: () => Promise<void> }> {
  execFileSync(process.execPath, ['scripts/build-server.mjs'], { cwd: fileURLToPath(new URL('../..', import.meta.url)), stdio: 'inherit' });
  const external = process.env.TEST_DATABASE_URL || undefined;
  // Two workers each open a few pools of up to 10 connections at a time.
  const embedded = external ? undefined : await acquireEmbeddedPostgres({ dataDir: MEMORY, settings: { max_connections: '300' } });
  const serverUrl = external ?? embedded!.url;
  const server: TestDatabaseServer = {
    serverUrl,
    emptyTemplate: uniqueDatabaseName('payroll_template_empty'),
    worldTemplate: uniqueDatabaseName('payroll_template'),
    demoTemplate: uniqueDatabaseName('payroll_template_demo'),
  };
  try {
    await makeTemplate(server, server.emptyTemplate, undefined, async (db) => void (await migrate(db)));
    for (const [name, world] of [
      [server.worldTemplate, testWorld],
      [server.demoTemplate, demoWorld()],
    ] as const) {
      await makeTemplate(server, name, server.emptyTemplate, async (db) => {
        await loadWorld(db, world);
        await analyze(db);
      });
    }
  } catch (error) {
    await teardown(server, embedded);
    throw error;
  }
  return { server, release: () => teardown(server, embedded) };
}

async function makeTemplate(server: TestDatabaseServer, name: string, from: string | undefined, fill: (db: PostgresDatabase) => Promise<void>): Promise<void> {
  await createDatabase(server.serverUrl, name, from);
  // One connection, closed before anyone clones: CREATE DATABASE … TEMPLATE needs the template idle.
  const db = await PostgresDatabase.open(urlOfDatabase(server.serverUrl, name), { maxConnections: 1 });
  try {
    await fill(db);
  } finally {
    await db.close();
  }
}

async function teardown(server: TestDatabaseServer, embedded: { release(): Promise<void> } | undefined): Promise<void> {
  if (embedded) return embedded.release(); // the whole server and its directory go
  for (const name of [server.worldTemplate, server.demoTemplate, server.emptyTemplate]) await dropDatabase(server.serverUrl, name).catch(() => undefined);
}
