/**
 * The idempotency crash window: the key's answer is committed with the operation's effects, so a
 * kill -9 can never leave a request created and debited while its key stays IN_PROGRESS and the
 * client never learns the request id. The real service process is killed at the
 * two fault points (TEST_FAULT, honoured only under NODE_ENV=test): after the commit, before the
 * response — the retry replays the original answer, same request id, one request, one debit; and
 * before the commit — nothing happened, the retry runs the operation for the first time.
 */
import { once } from 'node:events';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Money } from '../../src/domain/money/money.js';
import { signAccessToken } from '../../src/http/access/tokens.js';
import type { Database } from '../../src/store/database/db.js';
import { ids, testWorld } from '../fixtures/world.js';
import { balancesOf, expectBooksBalanced } from '../support/balances.js';
import { freshPostgres, testServerUrl } from '../support/database.js';
import { freePort, killLeftovers, startService, stop } from '../support/processes.js';
import { testConfig } from '../support/server.js';
import { type Api, apiAt, call, count, dataOf, estimate } from './api.js';

const drops: Array<() => Promise<void>> = [];
afterAll(async () => {
  killLeftovers();
  for (const drop of drops) await drop();
});

/**
 * The database the service processes share, a fresh one on the suite's server holding the test
 * world; `opening` is customer A's USD balance before the test.
 */
interface Store {
  env: NodeJS.ProcessEnv;
  db: Database;
  opening: Money;
}

async function newStore(): Promise<Store> {
  const database = await freshPostgres(testServerUrl(), testWorld);
  drops.push(database.drop);
  return { env: { DATABASE_URL: database.url, WORLD_FILE: '' }, db: database.db, opening: (await balancesOf(database.db, ids.acAUsd)).balance };
}

/** The service in test mode on `store`, with a fault point armed or not. */
function serve(store: Store, port: number, fault?: string) {
  return startService(port, { NODE_ENV: 'test', REDIS_URL: '', WORKER_IN_PROCESS: 'false', ...store.env, ...(fault && { TEST_FAULT: fault }) });
}

const KEY = 'crash-window-create-1';

describe('Idempotency-Key across a kill -9 between the operation and its response', () => {
  let api: Api;
  let port: number;
  beforeAll(async () => {
    port = await freePort();
    api = apiAt(`http://127.0.0.1:${port}`, (userId) => signAccessToken(testConfig.jwt, userId, 3600));
  });

  /** Estimates, then sends the create with KEY to a service armed with `fault`: it must die without answering. */
  async function createAndDie(store: Store, fault: string) {
    const first = serve(store, port, fault);
    await first.listening;
    const { createBody, estimate: estimated } = await estimate(api, [
      { beneficiaryId: ids.beneficiaryA1, amount: '321.09' },
      { beneficiaryId: ids.beneficiaryA2, amount: '45.60' },
    ]);
    const listed = dataOf<{ items: unknown[] }>(await call(api, 'GET', '/v1/customers/payroll/requests?limit=100', ids.userA)).items.length;
    const exited = once(first.child, 'exit');
    await expect(call(api, 'POST', '/v1/customers/payroll/requests', ids.userA, createBody, { 'Idempotency-Key': KEY })).rejects.toThrow();
    const [, signal] = (await exited) as [number | null, string | null];
    expect(signal, 'the service must have killed itself at the fault point').toBe('SIGKILL');
    return { createBody, totalAmount: new Money(estimated.totalAmount), listed };
  }

  it('killed after the commit: the retry replays the original answer and id; one request, one debit', async () => {
    const store = await newStore();
    const { createBody, totalAmount, listed } = await createAndDie(store, 'idempotency:after-commit');

    const second = serve(store, port);
    await second.listening;
    const after = dataOf<{ items: Array<{ id: string }> }>(await call(api, 'GET', '/v1/customers/payroll/requests?limit=100', ids.userA)).items;
    expect(after).toHaveLength(listed + 1); // the request was created before the kill
    const retry = await call(api, 'POST', '/v1/customers/payroll/requests', ids.userA, createBody, { 'Idempotency-Key': KEY });
    const replayed = dataOf<{ id: string; status: string }>(retry, 201);
    expect(replayed.id).toBe(after[0]!.id); // the original id, newest first in the list
    expect(replayed.status).toBe('PENDING');
    const again = await call(api, 'POST', '/v1/customers/payroll/requests', ids.userA, createBody, { 'Idempotency-Key': KEY });
    expect(again.text).toBe(retry.text); // byte for byte, every time
    expect(await stop(second.child)).toBe(0);

    const { db } = store;
    expect(await count(db, 'SELECT count(*) AS n FROM payroll_requests WHERE fee_hash = $1', [createBody.feeHash])).toBe(1);
    // The answer is kept with the key, in its row: the request's JSON as it was sent, compressed.
    const [key] = await db.query<{ status: string; data: Buffer }>('SELECT status, response_data AS data FROM idempotency_keys WHERE key = $1', [KEY]);
    expect(key?.status).toBe('COMPLETED');
    expect(JSON.parse(gunzipSync(key!.data).toString('utf8'))).toEqual((retry.json as { data: unknown }).data);
    expect((await balancesOf(db, ids.acAUsd)).balance.equals(store.opening.minus(totalAmount)), 'debited once').toBe(true);
    await expectBooksBalanced(db);
  }, 120_000);

  it('killed before the commit: nothing happened, and the retry runs the operation for the first time', async () => {
    const store = await newStore();
    const { createBody, totalAmount, listed } = await createAndDie(store, 'idempotency:before-commit');

    const second = serve(store, port);
    await second.listening;
    expect(dataOf<{ items: unknown[] }>(await call(api, 'GET', '/v1/customers/payroll/requests?limit=100', ids.userA)).items).toHaveLength(listed);
    const retry = dataOf<{ id: string; totalAmount: string }>(
      await call(api, 'POST', '/v1/customers/payroll/requests', ids.userA, createBody, { 'Idempotency-Key': KEY }),
      201,
    );
    expect(new Money(retry.totalAmount).equals(totalAmount)).toBe(true);
    expect(await stop(second.child)).toBe(0);

    expect(await store.db.query('SELECT id FROM payroll_requests WHERE fee_hash = $1', [createBody.feeHash])).toEqual([{ id: retry.id }]);
    expect((await balancesOf(store.db, ids.acAUsd)).balance.equals(store.opening.minus(totalAmount)), 'debited once').toBe(true);
    await expectBooksBalanced(store.db);
  }, 120_000);
});
