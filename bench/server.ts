/** The bench's servers: the real service on the bench world (embedded or a new database at --database-url), its variants and the bare baseline. */
import { randomBytes } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import pg from 'pg';
import { acquireEmbeddedPostgres, freePort } from '../src/store/database/embedded.js';
import { log } from './load.js';
import { args, wanted } from './options.js';
import type { LaunchVariant } from './observability.js';
import { builtServerEntry, kbOf, start, stop, tail, waitFor } from './processes.js';
import { mbOf } from './report.js';
import { measureSeeding, type SeedingFigures } from './seeding.js';
import { BENEFICIARIES, benchWorld } from './world.js';

/** The bench's database when it is a new one at --database-url. */
export interface ExternalDatabase {
  name: string;
  url: string;
  drop: () => Promise<void>;
}

/** A new database on the --database-url server, dropped at the end. */
export async function externalDatabase(url: string): Promise<ExternalDatabase> {
  const name = `payroll_bench_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  const target = new URL(url);
  target.pathname = `/${name}`;
  log(`database ${name} created on ${target.host}`);
  return {
    name,
    url: target.toString(),
    drop: async () => {
      await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await admin.end();
    },
  };
}

function serverEnv(port: number, tmp: string, databaseUrl: string, worldFile: string, jwtSecret: string): NodeJS.ProcessEnv {
  return {
    ...process.env,
    NODE_ENV: 'production',
    PORT: String(port),
    DATABASE_URL: databaseUrl,
    DATA_DIR: path.join(tmp, 'data'),
    EMBEDDED_PG_PORT: '',
    WORLD_FILE: worldFile,
    JWT_SECRET: jwtSecret,
    JWT_JWKS_URL: '',
    JWT_ISSUER: '',
    JWT_AUDIENCE: '',
    FEE_HASH_SECRET: randomBytes(32).toString('base64url'),
    // Production settings, except the per-token rate limit: one token drives the whole load.
    VALIDATE_RESPONSES: '',
    RATE_LIMIT_PER_MINUTE: '10000000',
    REDIS_URL: '',
    CORS_ORIGINS: '',
    // The payroll scenarios measure the service, not the simulated bank's delay.
    SIMULATED_SETTLEMENT_MS: '0',
    WORKER_IN_PROCESS: '',
    BODY_LIMIT: '',
    LOG_LEVEL: '',
  };
}

/** The real answer to `init` at `url`, written to `file` (the baseline answers with it). */
async function sampleAnswer(url: string, init: RequestInit, file: string): Promise<number> {
  const response = await fetch(url, init);
  const text = await response.text();
  if (response.status !== 200) throw new Error(`${url} answered ${response.status}: ${text.slice(0, 500)}`);
  await writeFile(file, text);
  return Buffer.byteLength(text);
}

export interface Server {
  pid: number;
  base: string;
  jwtSecret: string;
  startSeconds: number;
  /** The server's peak RSS from its spawn to ready (the world seeded). */
  seedingRssKb: number;
  stop: () => Promise<void>;
}

/** The real service on the bench world: a fresh embedded data directory, or the new external database. */
export async function launchServer(tmp: string, serverLog: string, external: { name: string; url: string } | undefined): Promise<Server> {
  const worldFile = path.join(tmp, 'world.json');
  const beneficiaries = wanted('payroll100k') ? 100_000 : BENEFICIARIES;
  await writeFile(worldFile, JSON.stringify(benchWorld(beneficiaries, { neighbour: wanted('slowReaders100k') || wanted('bulkhead') })));
  const jwtSecret = randomBytes(32).toString('base64url');
  const port = await freePort();
  const serverArgs = [...(args.profile ? ['--cpu-prof', `--cpu-prof-dir=${path.resolve(args.profile)}`] : []), builtServerEntry()];
  log(
    `starting the server (${external ? `PostgreSQL, database ${external.name}` : 'embedded PostgreSQL, fresh data directory'}) on port ${port}; its log: ${serverLog}`,
  );
  const started = performance.now();
  const server = start(serverArgs, serverEnv(port, tmp, external?.url ?? '', worldFile, jwtSecret), serverLog);
  const base = `http://127.0.0.1:${port}`;
  await waitFor(server, async () => (await fetch(`${base}/readyz`)).status === 200, 'the server', serverLog);
  const startSeconds = Math.round((performance.now() - started) / 100) / 10;
  // The world is seeded in a process of the server's own: the server's peak so far is its start's.
  const seedingRssKb = kbOf(server.pid!, 'VmHWM');
  log(
    `server ready in ${startSeconds} s (world of ${beneficiaries} beneficiaries loaded), RSS ${mbOf(kbOf(server.pid!, 'VmRSS'))} MB, peak ${mbOf(seedingRssKb)} MB`,
  );
  return { pid: server.pid!, base, jwtSecret, startSeconds, seedingRssKb, stop: () => stop(server) };
}

/** Servers of the same build on the bench's database, the world already loaded (bench/observability.ts). */
export function variantLauncher(tmp: string, external: { url: string } | undefined, jwtSecret: string): LaunchVariant {
  let entry: string | undefined;
  return async (name, env, nodeArgs) => {
    entry ??= builtServerEntry();
    const port = await freePort();
    const logFile = path.join(tmp, `server-${name}.log`);
    // A directory per variant: a fixed file name would be written by every thread of the process
    // (the module loader's hooks thread too), the last one to exit overwriting the main thread's.
    const profile = args.profile ? ['--cpu-prof', `--cpu-prof-dir=${path.resolve(args.profile, name)}`] : [];
    const child = start([...profile, ...nodeArgs, entry], { ...serverEnv(port, tmp, external?.url ?? '', '', jwtSecret), ...env }, logFile);
    const base = `http://127.0.0.1:${port}`;
    await waitFor(child, async () => (await fetch(`${base}/readyz`)).status === 200, `the server with ${name}`, logFile);
    log(`server with ${name} ready on port ${port}; its log: ${logFile}`);
    return { pid: child.pid!, base, stop: () => stop(child) };
  };
}

export type Request = { path: string; init: RequestInit };

/** The bare baseline, answering with the server's real answers to the estimate and to the read. */
export async function launchBaseline(tmp: string, base: string, { estimate, read }: { estimate: Request; read: Request }) {
  const answerFile = path.join(tmp, 'answer.json');
  const readAnswerFile = path.join(tmp, 'read-answer.json');
  await sampleAnswer(`${base}${estimate.path}`, estimate.init, answerFile);
  const readAnswerBytes = await sampleAnswer(`${base}${read.path}`, read.init, readAnswerFile);
  const baselineLog = path.join(tmp, 'baseline.log');
  const baselinePort = await freePort();
  const bare = start(
    ['--import', 'tsx', 'bench/baseline.ts'],
    { ...process.env, PORT: String(baselinePort), BASELINE_ANSWER_FILE: answerFile, BASELINE_READ_ANSWER_FILE: readAnswerFile },
    baselineLog,
  );
  const bareBase = `http://127.0.0.1:${baselinePort}`;
  await waitFor(bare, async () => (await fetch(`${bareBase}${read.path}`)).status === 200, 'the baseline', baselineLog, 30_000);
  return { bare, bareBase, readAnswerBytes };
}

/** seed-100k on a database of its own: a data directory of its own, or a second new database at --database-url. */
export async function seedingScenario(tmp: string): Promise<SeedingFigures> {
  const external = args['database-url'] ? await externalDatabase(args['database-url']) : undefined;
  const dataDir = path.join(tmp, 'seed');
  const jwtSecret = randomBytes(32).toString('base64url');
  let starts = 0;
  try {
    return await measureSeeding(
      tmp,
      100_000,
      async (worldFile) => {
        const port = await freePort();
        const logFile = path.join(tmp, `seed-server-${++starts}.log`);
        const env = { ...serverEnv(port, dataDir, external?.url ?? '', worldFile, jwtSecret), DATA_DIR: path.join(dataDir, 'data') };
        const child = start([builtServerEntry()], env, logFile);
        await waitFor(child, async () => (await fetch(`http://127.0.0.1:${port}/readyz`)).status === 200, 'the server (seed-100k)', logFile, 900_000);
        return { pid: child.pid!, stop: () => stop(child), log: logFile };
      },
      (file) => tail(file, 200),
    );
  } finally {
    await external?.drop();
  }
}

/** Runs `fn` with a connection string of the bench's database: the new one at --database-url, or the embedded server's in DATA_DIR. */
export async function withBenchDatabase<T>(tmp: string, external: { url: string } | undefined, fn: (url: string) => Promise<T>): Promise<T> {
  if (external) return fn(external.url);
  // The server's own embedded PostgreSQL, joined (this process did not start it, so it leaves it running).
  const embedded = await acquireEmbeddedPostgres({ dataDir: path.join(tmp, 'data') });
  try {
    return await fn(embedded.url);
  } finally {
    await embedded.release();
  }
}
