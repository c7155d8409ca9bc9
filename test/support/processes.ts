/**
 * The real entry points as separate processes: the service (`npm start`'s src/main.ts) and the
 * worker (`npm run worker`'s src/worker/main.ts), run as npm runs them: their JavaScript in
 * dist/server/ (built once per test run by the globalSetup, as prestart builds it) under plain
 * `node`, from the repository root. Every
 * process started here is remembered, so that `killLeftovers` in an afterAll leaves none behind
 * when a test fails half-way.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { createServer } from 'node:net';

const started = new Set<ChildProcess>();

/** A port free on 127.0.0.1 right now (the OS picks it). */
export function freePort(): Promise<number> {
  return new Promise<number>((resolve, reject) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
    probe.on('error', reject);
  });
}

export interface Started {
  child: ChildProcess;
  /** Standard output, one entry per line (JSON lines from pino). */
  stdout: string[];
  /** Standard error as it came. */
  stderr: string[];
}

/** The built JavaScript of an entry point given by its source (`src/main.ts` → `dist/server/src/main.js`). */
export const builtEntry = (entry: string): string => `dist/server/${entry.replace(/\.ts$/, '.js')}`;

/** Starts `entry` (its source's path from the repository root) with the test's environment plus `env`, after Node's `nodeArgs`. */
export function startEntry(entry: string, env: NodeJS.ProcessEnv, nodeArgs: string[] = []): Started {
  return startScript(builtEntry(entry), env, nodeArgs);
}

/** Starts the JavaScript file `script` (a path from the repository root) under `node`, as startEntry does. */
export function startScript(script: string, env: NodeJS.ProcessEnv, nodeArgs: string[] = []): Started {
  const child = spawn(process.execPath, [...nodeArgs, script], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  started.add(child);
  const stdout: string[] = [];
  const stderr: string[] = [];
  child.stdout!.on('data', (chunk: Buffer) => stdout.push(...chunk.toString().split('\n').filter(Boolean)));
  child.stderr!.on('data', (chunk: Buffer) => stderr.push(chunk.toString()));
  return { child, stdout, stderr };
}

export interface Service extends Started {
  /** Resolves when the service logs "listening"; rejects, with its output, if it exits first. */
  listening: Promise<void>;
}

/** The service on `port` (development mode, info logs, the embedded database), plus `env`; `nodeArgs` as in startEntry. */
export function startService(port: number, env: NodeJS.ProcessEnv = {}, nodeArgs: string[] = []): Service {
  const service = startEntry('src/main.ts', { PORT: String(port), DATABASE_URL: '', LOG_LEVEL: 'info', NODE_ENV: 'development', ...env }, nodeArgs);
  const listening = new Promise<void>((resolve, reject) => {
    service.child.stdout!.on('data', () => {
      if (service.stdout.some((line) => line.includes('"msg":"listening"'))) resolve();
    });
    service.child.once('exit', (code) => reject(new Error(`the service exited early with ${code}:\n${[...service.stdout, ...service.stderr].join('\n')}`)));
  });
  return { ...service, listening };
}

/** Sends `signal` and waits for the exit; returns the exit code (null when a signal ended it). */
export async function stop(child: ChildProcess, signal: NodeJS.Signals = 'SIGTERM'): Promise<number | null> {
  if (child.exitCode !== null || child.signalCode !== null) return child.exitCode;
  child.kill(signal);
  const [code] = (await once(child, 'exit')) as [number | null];
  return code;
}

/** Runs `entry` to its end; its exit code and standard error. */
export async function runEntry(entry: string, env: NodeJS.ProcessEnv): Promise<{ code: number | null; stderr: string }> {
  const { child, stderr } = startEntry(entry, env);
  const [code] = (await once(child, 'exit')) as [number | null];
  return { code, stderr: stderr.join('') };
}

/** SIGKILLs every process started here that still runs (for an afterAll). */
export function killLeftovers(): void {
  for (const child of started) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  started.clear();
}
