import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { describe, expect, it } from 'vitest';

/** Starts the real entry point (what `npm start` runs) on the embedded database in memory. */
function startService(port: number): { child: ChildProcess; listening: Promise<void>; logs: string[] } {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    env: { ...process.env, PORT: String(port), DATA_DIR: 'memory://', DATABASE_URL: '', LOG_LEVEL: 'info', NODE_ENV: 'development' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const logs: string[] = [];
  const listening = new Promise<void>((resolve, reject) => {
    child.stdout!.on('data', (chunk: Buffer) => {
      logs.push(...chunk.toString().split('\n').filter(Boolean));
      if (logs.some((line) => line.includes('"msg":"listening"'))) resolve();
    });
    child.once('exit', (code) => reject(new Error(`exited early with ${code}: ${logs.join('\n')}`)));
  });
  return { child, listening, logs };
}

describe('the service process (npm start)', () => {
  it('starts on the demo world, serves, logs JSON without secrets, and stops cleanly on SIGTERM', async () => {
    const port = 20_000 + Math.floor(Math.random() * 20_000);
    const { child, listening, logs } = startService(port);
    await listening;
    const ready = await fetch(`http://127.0.0.1:${port}/readyz`);
    expect(await ready.json()).toEqual({ success: true, data: { status: 'ready', database: 'embedded' } });
    const secretToken = 'Bearer eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ4In0.c2lnbmF0dXJl';
    await fetch(`http://127.0.0.1:${port}/v1/customers/payroll/requests/7b1e0007-0000-4000-8000-000000000001`, { headers: { Authorization: secretToken } });
    child.kill('SIGTERM');
    const [code] = await once(child, 'exit');
    expect(code).toBe(0);
    const entries = logs.map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(entries.some((entry) => entry.msg === 'stopped')).toBe(true);
    expect(entries.find((entry) => entry.status === 401)).toMatchObject({ method: 'GET', path: expect.stringContaining('/v1/customers/payroll/requests/') });
    expect(logs.join('\n')).not.toContain('eyJhbGciOiJIUzI1NiJ9');
    expect(logs.join('\n')).not.toMatch(/AE\d{21}/); // no IBANs
  }, 60_000);
});

describe('production settings', () => {
  it('refuses to start with the development secrets or the demo world', async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
      env: { ...process.env, NODE_ENV: 'production', PORT: '0', DATA_DIR: 'memory://', DATABASE_URL: '', JWT_SECRET: '', FEE_HASH_SECRET: '', WORLD_FILE: undefined },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const [code] = await once(child, 'exit');
    expect(code).toBe(1);
    expect(stderr).toContain('refusing to start in production');
    expect(stderr).toContain('JWT_SECRET is the development secret');
    expect(stderr).toContain('FEE_HASH_SECRET is the development secret');
    expect(stderr).toContain('WORLD_FILE is the demo world');
  }, 30_000);
});
