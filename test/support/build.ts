// Build steps the docs and package tests need (bundle, docs, client build, npm pack), run from the
// repository root under one lock: vitest runs test files in parallel and they write the same dist/ files.
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const repoRoot = fileURLToPath(new URL('../..', import.meta.url));
export const inRepo = (...parts: string[]) => join(repoRoot, ...parts);

/** Runs a command in the repository root; returns its stdout, throws with its stderr on failure. */
export function run(command: string, args: string[], options: { cwd?: string; env?: NodeJS.ProcessEnv; timeoutMs?: number } = {}): string {
  try {
    return execFileSync(command, args, {
      cwd: options.cwd ?? repoRoot,
      env: { ...process.env, REDOCLY_TELEMETRY: 'off', ...options.env },
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
      maxBuffer: 64 * 1024 * 1024,
      timeout: options.timeoutMs ?? 120_000,
    });
  } catch (error) {
    const failure = error as { stdout?: string; stderr?: string; message: string };
    throw new Error(`${command} ${args.join(' ')} failed: ${failure.message}\n${failure.stdout ?? ''}\n${failure.stderr ?? ''}`, { cause: error });
  }
}

function newestMtime(path: string): number {
  const stat = statSync(path, { throwIfNoEntry: false });
  if (!stat) return 0;
  if (!stat.isDirectory()) return stat.mtimeMs;
  return Math.max(0, ...readdirSync(path).map((name) => newestMtime(join(path, name))));
}

/** Whether `target` is missing or older than any file under `sources` (paths relative to the repository). */
function isStale(target: string, sources: string[]): boolean {
  const built = statSync(inRepo(target), { throwIfNoEntry: false });
  return !built || built.mtimeMs < Math.max(...sources.map((source) => newestMtime(inRepo(source))));
}

const sleep = (ms: number) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);

/** Runs `fn` holding dist/.build-lock (a directory: creating it is atomic). */
export function withBuildLock<T>(fn: () => T): T {
  const lock = inRepo('dist', '.build-lock');
  mkdirSync(inRepo('dist'), { recursive: true });
  const deadline = Date.now() + 180_000;
  for (;;) {
    try {
      mkdirSync(lock);
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const age = Date.now() - (statSync(lock, { throwIfNoEntry: false })?.mtimeMs ?? Date.now());
      if (age > 300_000) rmSync(lock, { recursive: true, force: true }); // left by a killed run
      if (Date.now() > deadline) throw new Error(`${lock} held for more than 3 minutes`, { cause: error });
      // A pause between attempts, synchronous as withBuildLock's callers are (waitFor is asynchronous).
      sleep(200);
    }
  }
  try {
    return fn();
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}

/** The spec sources every built artefact depends on. */
const specSources = ['openapi', 'redocly.yaml', 'scripts/code-samples.mjs'];

/**
 * dist/docs/index.html and the bundled spec, rebuilt with `npm run docs` when missing or stale.
 * Returns dist/openapi.json as read under the lock (another test file may rebundle it right after).
 */
export function ensureDocs(): string {
  return withBuildLock(() => {
    const sources = [...specSources, 'docs', 'scripts/build-docs.ts', 'scripts/docs-guides.ts'];
    if (isStale('dist/docs/index.html', sources) || isStale('dist/openapi.json', specSources)) run('npm', ['run', '-s', 'docs']);
    return readFileSync(inRepo('dist', 'openapi.json'), 'utf8');
  });
}

/** The bundled spec (npm run bundle when stale), copied under the lock: `{ json, yamlCopy }`. */
export function bundledSpecCopy(dir: string): { json: string; yamlCopy: string } {
  return withBuildLock(() => {
    if (isStale('dist/openapi.yaml', specSources) || isStale('dist/openapi.json', specSources)) run('npm', ['run', '-s', 'bundle']);
    const yamlCopy = join(dir, 'openapi.yaml');
    copyFileSync(inRepo('dist', 'openapi.yaml'), yamlCopy);
    return { json: readFileSync(inRepo('dist', 'openapi.json'), 'utf8'), yamlCopy };
  });
}

/** dist/console (npm run build:console), rebuilt when missing or older than its sources or the client's. */
export function ensureConsole(): string {
  return withBuildLock(() => {
    const sources = ['console', 'packages/client/src', 'generated', 'scripts/build-console.mjs'];
    if (isStale('dist/console/index.html', sources)) run('npm', ['run', '-s', 'build:console']);
    return inRepo('dist', 'console');
  });
}
