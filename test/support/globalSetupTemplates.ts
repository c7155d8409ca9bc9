/**
 * Test databases are clones: the suite's server holds three template databases made once per run
 * (migrated and empty; migrated with the test world; migrated with the demo world that `npm start`
 * loads, which the examples replay starts 36 servers on), and each test file gets a CREATE DATABASE …
 * TEMPLATE copy of one (tens of milliseconds) instead of migrating and loading its own.
 */
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import pg from 'pg';

/** What globalSetup hands to the test workers (vitest `provide`/`inject`). */
export interface TestDatabaseServer {
  /** postgres://… of a maintenance database on the suite's server (CREATE/DROP DATABASE go there). */
  serverUrl: string;
  /** Migrated, no data. */
  emptyTemplate: string;
  /** Migrated, holding the test world (test/fixtures/world.ts), analysed. */
  worldTemplate: string;
  /** Migrated, holding the demo world (worlds/demo.json), analysed. */
  demoTemplate: string;
}

declare module 'vitest' {
  export interface ProvidedContext {
    testDatabase: TestDatabaseServer;
  }
}

/** A name no other run or file on the same server uses (several suites share the machine's server). */
export const uniqueDatabaseName = (prefix: string): string => `${prefix}_${randomBytes(6).toString('hex')}`;

export function urlOfDatabase(serverUrl: string, name: string): string {
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

/** Runs statements on the server's maintenance database, one short connection. */
async function onServer(serverUrl: string, ...statements: string[]): Promise<void> {
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  try {
    for (const sql of statements) await admin.query(sql);
  } finally {
    await admin.end();
  }
}

export const createDatabase = (serverUrl: string, name: string, template?: string): Promise<void> =>
  onServer(serverUrl, `CREATE DATABASE ${name}${template ? ` TEMPLATE ${template}` : ''}`);

export const dropDatabase = (serverUrl: string, name: string): Promise<void> => onServer(serverUrl, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);

/** The demo world as worlds/demo.json holds it (parsed anew on each call). */
export const demoWorld = (): unknown => JSON.parse(readFileSync(new URL('../../worlds/demo.json', import.meta.url), 'utf8'));
