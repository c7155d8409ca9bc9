// The developer commands as a person types them: `npm run token` (help, an unknown user, a known one)
// and the Redis probe the Redis tests skip by.
import { execFile } from 'node:child_process';
import { createServer } from 'node:net';
import { describe, expect, it } from 'vitest';
import { inRepo } from '../support/build.js';
import { redisAnswers } from '../support/redis.js';

interface Ran {
  code: number;
  stdout: string;
  stderr: string;
}

/** `npm run -s <script> -- …args` from the repository root, with `env` over the test's environment. */
function npmRun(script: string, args: string[], env: NodeJS.ProcessEnv = {}): Promise<Ran> {
  return new Promise((resolve) => {
    execFile(
      'npm',
      ['run', '-s', script, '--', ...args],
      { cwd: inRepo(), env: { ...process.env, DATABASE_URL: '', ...env }, timeout: 60_000 },
      (error, stdout, stderr) => resolve({ code: error ? Number((error as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
  });
}

const DANA = '7b1e0003-0000-4000-8000-000000000001';

describe('npm run token', () => {
  it('--help prints the usage, no stack trace, and exits 0', async () => {
    const { code, stdout, stderr } = await npmRun('token', ['--help']);
    expect(code).toBe(0);
    expect(stdout).toContain('usage: npm run -s token -- --user <userId (uuid)>');
    expect(stdout + stderr).not.toMatch(/\n\s+at /);
  }, 60_000);

  it('an unknown option prints what is wrong and the usage, exit 2', async () => {
    const { code, stderr } = await npmRun('token', ['--usr', DANA]);
    expect(code).toBe(2);
    expect(stderr).toContain("Unknown option '--usr'");
    expect(stderr).toContain('usage:');
    expect(stderr).not.toMatch(/\n\s+at /);
  }, 60_000);

  it('refuses a user the world does not hold, saying so, and prints no token', async () => {
    const { code, stdout, stderr } = await npmRun('token', ['--user', '7b1e0003-0000-4000-8000-0000000000ff']);
    expect(code).toBe(1);
    expect(stdout).toBe('');
    expect(stderr).toContain('no user 7b1e0003-0000-4000-8000-0000000000ff in worlds/demo.json');
  }, 60_000);

  it('prints a token for a user of the world', async () => {
    const { code, stdout } = await npmRun('token', ['--user', DANA, '--ttl', '60']);
    expect(code).toBe(0);
    const payload = JSON.parse(Buffer.from(stdout.trim().split('.')[1]!, 'base64url').toString()) as { sub: string; exp: number; iat: number };
    expect(payload.sub).toBe(DANA);
    expect(payload.exp - payload.iat).toBe(60);
  }, 60_000);
});

describe('the Redis probe (Redis tests skip without a server)', () => {
  it('is false where nothing listens, or where something that is not Redis answers', async () => {
    const silent = createServer((socket) => socket.end('HTTP/1.1 400 Bad Request\r\n\r\n', () => socket.destroy()));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const { port } = silent.address() as { port: number };
    expect(await redisAnswers(`redis://127.0.0.1:${port}`)).toBe(false);
    await new Promise((resolve) => silent.close(resolve));
    expect(await redisAnswers(`redis://127.0.0.1:${port}`, 500)).toBe(false);
  });
});
