/**
 * The server's start seeds an empty database in a child process (composition/seedChild.ts) and waits
 * for it: the world file is parsed, validated and written there, so the server's own memory after
 * the start is the same whether it seeded the database or found it seeded.
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { WorldValidationError } from '../world/validationError.js';

/** Exit code of a world file the checks refuse: its last stdout line is a SeedRefusal. */
export const REFUSED_WORLD = 3;

/** What the child answers for a world the checks refuse: the offending path and the problem, as data. */
export interface SeedRefusal {
  refused: { path: string; problem: string };
}

export interface SeedOutcome {
  /** False when another process loaded a world first. */
  loaded: boolean;
  /** The seeding process's peak RSS. */
  peakRssMb: number;
}

/** The child's entry beside this module: the built .js under `npm start`, the .ts source under tsx (tests). */
function childCommand(): string[] {
  const entry = fileURLToPath(new URL(`./seedChild${import.meta.url.endsWith('.ts') ? '.ts' : '.js'}`, import.meta.url));
  return entry.endsWith('.ts') ? ['--import', 'tsx', entry] : [entry];
}

/** Loads `worldFile` into the database at `databaseUrl` when it holds no world yet, in a process of its own. */
export function seedInChildProcess(databaseUrl: string, worldFile: string): Promise<SeedOutcome> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...childCommand(), worldFile], {
      env: { ...process.env, PAYROLL_SEED_DATABASE_URL: databaseUrl },
      // The IPC channel only tells the child when this process dies.
      stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout!.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.once('error', reject);
    child.once('exit', (code, signal) => {
      const answer = lastJsonLine(stdout);
      if (code === 0 && answer) return resolve(answer as SeedOutcome);
      if (code === REFUSED_WORLD && answer) {
        const { path, problem } = (answer as SeedRefusal).refused;
        return reject(new WorldValidationError(path, problem));
      }
      reject(new Error(`seeding ${worldFile} failed (${signal ?? `exit code ${code}`}): ${stderr.trim() || stdout.slice(0, 500)}`));
    });
  });
}

/** The child's answer: its last line of stdout as JSON, or undefined when it wrote none. */
function lastJsonLine(stdout: string): unknown {
  try {
    return JSON.parse(stdout.trim().split('\n').at(-1) ?? '');
  } catch {
    return undefined;
  }
}
