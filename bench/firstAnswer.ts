/**
 * first-answer: `npm start` as a new user runs it, with every setting at its default (the demo
 * world, a data directory of its own that does not exist yet): the seconds from the spawn of the
 * built server to its first answer, a 200 on /readyz. initdb, the migrations and the world's seeding
 * are inside that time, as they are for the user.
 */
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { freePort } from '../src/store/database/embedded.js';
import { log } from './load.js';
import { builtServerEntry, start, stop, waitFor } from './processes.js';

export interface FirstAnswerFigures {
  seconds: number;
}

/** The environment of a plain `npm start`: the caller's, less every setting the bench sets for its own server. */
function defaultEnv(port: number, dataDir: string): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, PORT: String(port), DATA_DIR: dataDir };
  for (const name of ['NODE_ENV', 'DATABASE_URL', 'WORLD_FILE', 'JWT_SECRET', 'FEE_HASH_SECRET', 'EMBEDDED_PG_PORT', 'REDIS_URL', 'METRICS_PORT'])
    delete env[name];
  return env;
}

export async function firstAnswerScenario(): Promise<FirstAnswerFigures> {
  const tmp = await mkdtemp(path.join(os.tmpdir(), 'payroll-first-answer-'));
  await chmod(tmp, 0o711); // as root, the embedded PostgreSQL runs as "postgres" and must reach its data directory
  const logFile = path.join(tmp, 'server.log');
  try {
    const entry = builtServerEntry();
    const port = await freePort();
    const started = performance.now();
    const server = start(['--import', './dist/server/src/observability/preload.js', entry], defaultEnv(port, path.join(tmp, 'data')), logFile);
    const answered = async () => (await fetch(`http://127.0.0.1:${port}/readyz`)).status === 200;
    await waitFor(server, answered, 'the server (first answer)', logFile, 60_000);
    const seconds = Math.round((performance.now() - started) / 100) / 10;
    log(`first-answer: a fresh npm start answered in ${seconds} s`);
    await stop(server);
    return { seconds };
  } finally {
    await rm(tmp, { recursive: true, force: true });
  }
}
