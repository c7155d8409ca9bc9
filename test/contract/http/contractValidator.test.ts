// The contract validator is made once per process and shared by every app built in it: each app
// must still answer from its own database and log to its own logger, with responses validated
// where its configuration says so.
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../../src/config/config.js';
import { buildApp } from '../../../src/composition/app.js';
import { contractValidator } from '../../../src/http/pipeline/contractValidator.js';
import { allHandlers } from '../../../src/http/handlers/index.js';
import { signAccessToken } from '../../../src/http/access/tokens.js';
import type { UseCaseDeps } from '../../../src/usecases/deps.js';
import { ids } from '../../fixtures/world.js';
import { freshDatabase } from '../../support/database.js';
import { type Listening, listen } from '../../support/http.js';
import { type TestServer, startTestServer, testConfig } from '../../support/server.js';

const table = allHandlers({} as UseCaseDeps);

describe('one contract validator per process, many apps', () => {
  let first: TestServer;
  let second: TestServer;
  let unvalidated: TestServer;
  beforeAll(async () => {
    first = await startTestServer();
    second = await startTestServer();
    unvalidated = await startTestServer({ config: loadConfig({ NODE_ENV: 'test', VALIDATE_RESPONSES: 'false' }) });
  });
  afterAll(async () => {
    await Promise.all([first, second, unvalidated].map((server) => server?.close()));
  });

  it('is the same middleware for the same setting of response validation, another for the other', () => {
    expect(contractValidator(true, table)).toBe(contractValidator(true, table));
    expect(contractValidator(false, table)).toBe(contractValidator(false, table));
    expect(contractValidator(false, table)).not.toBe(contractValidator(true, table));
  });

  it('answers each request from the database of the app that serves it', async () => {
    const body = {
      type: 'INDIVIDUAL' as const,
      firstName: 'Priya',
      lastName: 'Nair',
      nationality: 'IN',
      bankName: 'Emirates NBD',
      iban: 'AE070331234567890123456',
    };
    const made = await first.as(ids.userA).POST('/v1/customers/beneficiaries', { body });
    expect(made.response.status, JSON.stringify(made.error)).toBe(201);
    const beneficiaryId = made.data!.data.id;
    const path = { params: { path: { beneficiaryId } } };
    expect((await first.as(ids.userA).GET('/v1/customers/beneficiaries/{beneficiaryId}', path)).response.status).toBe(200);
    const elsewhere = await second.as(ids.userA).GET('/v1/customers/beneficiaries/{beneficiaryId}', path);
    expect(elsewhere.response.status).toBe(404);
    expect(elsewhere.error?.error.code).toBe('NOT_FOUND');
    // An app with response validation off serves the same routes from its own database too.
    expect((await unvalidated.as(ids.userA).GET('/v1/customers/beneficiaries/{beneficiaryId}', path)).response.status).toBe(404);
  });
});

describe('an authentication that fails unexpectedly', () => {
  const logged: string[][] = [[], []];
  const apps: Listening[] = [];
  const closers: Array<() => Promise<void>> = [];
  beforeAll(async () => {
    for (const lines of logged) {
      const { db, drop } = await freshDatabase();
      const logger = pino({ level: 'error' }, { write: (line: string) => void lines.push(line) });
      apps.push(await listen(buildApp(testConfig, db, logger).app));
      closers.push(drop);
    }
  });
  afterAll(async () => {
    await Promise.all(apps.map((app) => app.close()));
    await Promise.all(closers.map((drop) => drop().catch(() => undefined)));
  });

  it('is a 500 envelope, logged by the app that served it and by no other', async () => {
    // The first app's database is gone: looking up the token's user fails, which is not the caller's fault.
    await closers[0]!();
    closers[0] = async () => undefined;
    const token = await signAccessToken(testConfig.jwt, ids.userA, 60);
    const response = await fetch(`${apps[0]!.url}/v1/customers/beneficiaries`, { headers: { authorization: `Bearer ${token}` } });
    expect(response.status).toBe(500);
    expect(await response.json()).toMatchObject({ success: false, error: { code: 'INTERNAL_ERROR' } });
    expect(logged[0]!.some((line) => line.includes('authentication failed unexpectedly'))).toBe(true);
    expect(logged[1]).toEqual([]);
  });
});
