import { inject } from 'vitest';
import type { Database } from '../../src/store/database/db.js';
import { migrate } from '../../src/store/database/migrate.js';
import { analyze } from '../../src/store/database/open.js';
import { PostgresDatabase } from '../../src/store/database/postgres.js';
import { loadWorld } from '../../src/world/load.js';
import { testWorld } from '../fixtures/world.js';
import { createDatabase, demoWorld, dropDatabase, type TestDatabaseServer, uniqueDatabaseName, urlOfDatabase } from './globalSetupTemplates.js';

/** The suite runs on PostgreSQL at TEST_DATABASE_URL when set, else on the embedded server (test/support/globalSetup.ts). */
export const TEST_DATABASE_URL = process.env.TEST_DATABASE_URL || undefined;

/** postgres://… of the server the suite runs on, embedded or TEST_DATABASE_URL: separate processes can share its databases. */
export const testServerUrl = (): string => inject('testDatabase').serverUrl;

export interface FreshDatabase {
  db: Database;
  /** postgres://… of the new database. */
  url: string;
  /** Closes the pool and drops the database. */
  drop: () => Promise<void>;
}

/** A database of its own for the calling test file, migrated and holding `world`, on the suite's server. */
export function freshDatabase(world: unknown = testWorld): Promise<FreshDatabase> {
  return freshPostgres(testServerUrl(), world);
}

/** A migrated database with no world in it (tests of loading a world). */
export function emptyDatabase(): Promise<FreshDatabase> {
  return newDatabase(testServerUrl(), undefined);
}

/**
 * A new database on the PostgreSQL server at `url`, migrated and holding `world`. On the suite's
 * server it is cloned from a template (the test world as is; another world loaded into a clone
 * of the empty template); on another server it is migrated and loaded.
 */
export function freshPostgres(url: string, world: unknown = testWorld): Promise<FreshDatabase> {
  return newDatabase(url, world);
}

/** The demo world's text, to recognise it among the worlds tests pass: its template holds it loaded. */
const DEMO_WORLD_TEXT = JSON.stringify(demoWorld());

/** The template holding `world` loaded, if there is one; else the empty one (the world is loaded into the clone). */
function templateOf(suite: TestDatabaseServer, world: unknown): { name: string; loaded: boolean } {
  if (world === testWorld) return { name: suite.worldTemplate, loaded: true };
  if (world !== undefined && JSON.stringify(world) === DEMO_WORLD_TEXT) return { name: suite.demoTemplate, loaded: true };
  return { name: suite.emptyTemplate, loaded: false };
}

async function newDatabase(url: string, world: unknown): Promise<FreshDatabase> {
  const suite = inject('testDatabase');
  const onSuiteServer = hostOf(url) === hostOf(suite.serverUrl);
  const { name: template, loaded } = onSuiteServer ? templateOf(suite, world) : { name: undefined, loaded: false };
  const name = uniqueDatabaseName('payroll_test');
  await createDatabase(url, name, template);
  const target = urlOfDatabase(url, name);
  let db: PostgresDatabase | undefined;
  const drop = async () => {
    await db?.close();
    await dropDatabase(url, name);
  };
  try {
    db = await PostgresDatabase.open(target);
    if (!template) await migrate(db);
    if (world !== undefined && !loaded) {
      await loadWorld(db, world);
      await analyze(db);
    }
    return { db, url: target, drop };
  } catch (error) {
    await drop().catch(() => undefined);
    throw error;
  }
}

const hostOf = (url: string): string => new URL(url).host;
