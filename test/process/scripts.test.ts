// The developer commands as a person types them: `npm run token` (help, an unknown user, a known one)
// and the Redis probe the Redis tests skip by.
import { execFile } from 'node:child_process';
import { createServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ids } from '../fixtures/world.js';
import { inRepo } from '../support/build.js';
import { worldWith } from '../support/builders.js';
import { type FreshDatabase, freshDatabase } from '../support/database.js';
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

/** The `sub` and lifetime of a printed token. */
function claims(stdout: string): { sub: string; ttl: number } {
  const payload = JSON.parse(Buffer.from(stdout.trim().split('.')[1]!, 'base64url').toString()) as { sub: string; exp: number; iat: number };
  return { sub: payload.sub, ttl: payload.exp - payload.iat };
}

describe('npm run token', () => {
  it('--help prints the usage, no stack trace, and exits 0', async () => {
    const { code, stdout, stderr } = await npmRun('token', ['--help']);
    expect(code).toBe(0);
    expect(stdout).toContain('usage: npm run -s token -- (--user <userId (uuid)> | --email <address>)');
    expect(stdout + stderr).not.toMatch(/\n\s+at /);
    // The world's users, so a reader starts without an id table: email, role, name, company, id.
    expect(stdout).toContain('Users of worlds/demo.json:');
    expect(stdout).toMatch(new RegExp(`dana\\.haddad@acme-trading\\.example +customer +Dana Haddad, Acme Trading LLC +${DANA}`));
    expect(stdout).toMatch(/omar\.nasser@ops\.payroll\.example +admin +Omar Nasser +7b1e0003-0000-4000-8000-000000000003/);
    expect(stdout).toMatch(/rania\.saleh@acme-trading\.example +customer, approver +Rania Saleh/);
  }, 120_000);

  it('an unknown option prints what is wrong and the usage, exit 2', async () => {
    const { code, stderr } = await npmRun('token', ['--usr', DANA]);
    expect(code).toBe(2);
    expect(stderr).toContain("Unknown option '--usr'");
    expect(stderr).toContain('usage:');
    expect(stderr).not.toMatch(/\n\s+at /);
  }, 120_000);

  it('refuses a user the world does not hold, saying so, and prints no token', async () => {
    const { code, stdout, stderr } = await npmRun('token', ['--user', '7b1e0003-0000-4000-8000-0000000000ff']);
    expect(code).toBe(1);
    expect(stdout).toBe('');
    expect(stderr).toContain('no user 7b1e0003-0000-4000-8000-0000000000ff in worlds/demo.json');
  }, 120_000);

  it('prints a token for a user of the world', async () => {
    const { code, stdout } = await npmRun('token', ['--user', DANA, '--ttl', '60']);
    expect(code).toBe(0);
    expect(claims(stdout)).toEqual({ sub: DANA, ttl: 60 });
  }, 120_000);

  it('--email names the user by address, in any case', async () => {
    const { code, stdout } = await npmRun('token', ['--email', 'Dana.Haddad@acme-trading.example']);
    expect(code).toBe(0);
    expect(claims(stdout)).toEqual({ sub: DANA, ttl: 3600 });
  }, 120_000);

  it('refuses an email the world does not hold, saying so, and prints no token', async () => {
    const { code, stdout, stderr } = await npmRun('token', ['--email', 'nobody@acme-trading.example']);
    expect(code).toBe(1);
    expect(stdout).toBe('');
    expect(stderr).toContain('no user with email nobody@acme-trading.example in worlds/demo.json');
  }, 120_000);

  it('takes --user or --email, not both, and an email must look like one (usage, exit 2)', async () => {
    for (const args of [['--user', DANA, '--email', 'dana.haddad@acme-trading.example'], ['--email', 'dana.haddad'], []]) {
      const { code, stdout, stderr } = await npmRun('token', args);
      expect({ args, code, stdout }).toEqual({ args, code: 2, stdout: '' });
      expect(stderr).toContain('usage:');
    }
  }, 120_000);
});

describe('npm run token with DATABASE_URL: the users table is asked', () => {
  // A world where two users have Bilal's email, spelled in two cases.
  const twin = '7b1e0003-0000-4000-8000-0000000000aa';
  const world = worldWith({
    moreUsers: [{ id: twin, firstName: 'Bil', lastName: 'Twin', email: 'BILAL@BETA.EXAMPLE', role: 'customer', customerId: ids.customerB }],
  });
  let database: FreshDatabase;
  beforeAll(async () => {
    database = await freshDatabase(world);
  });
  afterAll(() => database?.drop());

  it('finds a user by email there, and says when none or several have it', async () => {
    const env = { DATABASE_URL: database.url };
    const found = await npmRun('token', ['--email', 'alice@alpha.example', '--ttl', '60'], env);
    expect(found.code, found.stderr).toBe(0);
    expect(claims(found.stdout)).toEqual({ sub: ids.userA, ttl: 60 });

    const missing = await npmRun('token', ['--email', 'dana.haddad@acme-trading.example'], env);
    expect({ code: missing.code, stdout: missing.stdout }).toEqual({ code: 1, stdout: '' });
    expect(missing.stderr).toContain('no user with email dana.haddad@acme-trading.example in the database at DATABASE_URL');

    const ambiguous = await npmRun('token', ['--email', 'bilal@beta.example'], env);
    expect({ code: ambiguous.code, stdout: ambiguous.stdout }).toEqual({ code: 1, stdout: '' });
    expect(ambiguous.stderr).toContain('2 users have email bilal@beta.example');
    expect(ambiguous.stderr).toContain(twin);
  }, 120_000);
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
