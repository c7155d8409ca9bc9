/**
 * A rejection nobody handles ends the process it happens in: the service (`npm start`) and the
 * worker (`npm run worker`), each started here as a process of the test's own on a database of its
 * own, hit one (test/process/support/failingEntry.mjs, a test-only entry point) and must log it with
 * the request or job it belonged to, stop cleanly and exit with 1, so that a supervisor restarts them.
 */
import { once } from 'node:events';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FreshDatabase, freshDatabase } from '../support/database.js';
import { freePort, killLeftovers, startScript } from '../support/processes.js';

let fresh: FreshDatabase;
beforeAll(async () => {
  fresh = await freshDatabase();
});
afterAll(async () => {
  killLeftovers();
  await fresh.drop();
});

const FAILING_ENTRY = 'test/process/support/failingEntry.mjs';

/** Runs the failing entry to its end: its exit code and its log lines. */
async function runFailing(entry: 'service' | 'worker'): Promise<{ code: number | null; logs: Record<string, unknown>[] }> {
  const env = { FAILING_ENTRY: entry, DATABASE_URL: fresh.url, WORLD_FILE: '', WORKER_IN_PROCESS: 'false', NODE_ENV: 'development', LOG_LEVEL: 'info' };
  const { child, stdout } = startScript(FAILING_ENTRY, { ...env, PORT: String(await freePort()) });
  const [code] = (await once(child, 'exit')) as [number | null];
  return { code, logs: stdout.map((line) => JSON.parse(line) as Record<string, unknown>) };
}

describe('a rejection nobody handles', () => {
  it('in the service: logged fatal with its request, then a clean shutdown and exit code 1', async () => {
    const { code, logs } = await runFailing('service');
    expect(code).toBe(1);
    const fatal = logs.find((line) => line.failure === 'unhandledRejection');
    expect(fatal).toMatchObject({
      level: 60,
      context: { requestId: 'request-of-the-test', method: 'POST', path: '/v1/test' },
      err: { message: expect.any(String) },
    });
    expect(logs.map((line) => line.msg)).toEqual(expect.arrayContaining(['listening', 'stopped']));
    expect(logs.findIndex((line) => line.msg === 'stopped')).toBeGreaterThan(logs.indexOf(fatal!));
  }, 120_000);

  it('in the worker: logged fatal with its job, then the worker stops and exits with 1', async () => {
    const { code, logs } = await runFailing('worker');
    expect(code).toBe(1);
    expect(logs.find((line) => line.failure === 'unhandledRejection')).toMatchObject({
      level: 60,
      context: { job: 'a job of the test', id: 'job-1' },
      err: { message: expect.any(String) },
    });
    expect(logs.find((line) => line.msg === 'worker stopping after the pass in progress')).toMatchObject({ reason: 'unhandledRejection' });
  }, 120_000);
});
