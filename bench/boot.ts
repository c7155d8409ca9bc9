/**
 * npx tsx bench/boot.ts <postgres://server/maintenance-db> [splits, default 100000]
 * The start of the service on a big database: a new database on that server holding the bench
 * world (1,000 beneficiaries, COMPLETED payrolls of 50 and 1,000 splits) and copies of its
 * 1,000-split payroll (its row, splits and payouts, new ids) up to `splits` splits in all, made in
 * SQL (the world loader checks a world whole, which at 100,000 splits takes longer than the
 * measurement), then the built server
 * (`npm run build:server` first) started on it three times, each timed from its spawn to its
 * "listening" line and stopped with SIGTERM. The database is dropped at the end (docs/performance.md, "Start-up on a big database").
 */
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import pg from 'pg';
import { migrate } from '../src/store/database/migrate.js';
import { analyze } from '../src/store/database/open.js';
import { PostgresDatabase } from '../src/store/database/postgres.js';
import { loadWorld } from '../src/world/load.js';
import { copyRequest } from './copyRequest.js';
import { benchIds, benchWorld } from './world.js';

const [serverUrl, splitsArg] = process.argv.slice(2);
if (!serverUrl) throw new Error('usage: npx tsx bench/boot.ts <postgres://…/postgres> [splits]');
const splits = Number(splitsArg ?? 100_000);
const name = `payroll_boot_${process.pid}`;
const urlOf = (database: string) => Object.assign(new URL(serverUrl), { pathname: `/${database}` }).toString();
const seconds = (since: number) => Math.round((performance.now() - since) / 10) / 100;

async function onServer(sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  await client.query(sql).finally(() => client.end());
}

/** The built server on `url` (of this tree, or of the tree at `root`), timed from its spawn to "listening", then stopped. */
async function timedStart(url: string, root = '.'): Promise<number> {
  const started = performance.now();
  const child = spawn(process.execPath, [`${root}/dist/server/src/main.js`], {
    env: { ...process.env, DATABASE_URL: url, WORLD_FILE: '', PORT: '0', LOG_LEVEL: 'info', NODE_ENV: 'development' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const lines = createInterface({ input: child.stdout! });
  for await (const line of lines) if (line.includes('"msg":"listening"')) break;
  const took = seconds(started);
  child.kill('SIGTERM');
  await new Promise((resolve) => child.once('exit', resolve));
  return took;
}

await onServer(`CREATE DATABASE ${name}`);
const db = await PostgresDatabase.open(urlOf(name));
try {
  await migrate(db);
  const since = performance.now();
  await loadWorld(db, benchWorld(1_000));
  await copyRequest(db, benchIds.request1k, Math.floor(splits / 1_000) - 1);
  await analyze(db);
  const [counts] = await db.query<{ splits: number; transfers: number }>(
    'SELECT (SELECT count(*)::int FROM amount_splits) AS splits, (SELECT count(*)::int FROM transfers) AS transfers',
  );
  console.log(`${counts!.splits} splits and ${counts!.transfers} transfers written and analysed in ${seconds(since)} s`);
  for (let run = 1; run <= 3; run++) console.log(`start ${run}: listening after ${await timedStart(urlOf(name))} s`);
  // PREVIOUS_BUILD: the root of another checkout, built, whose start is timed on the same database.
  const previous = process.env.PREVIOUS_BUILD;
  if (previous) for (let run = 1; run <= 2; run++) console.log(`start ${run} of ${previous}: listening after ${await timedStart(urlOf(name), previous)} s`);
} finally {
  await db.close();
  await onServer(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
}
