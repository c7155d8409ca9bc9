/**
 * An operation refused by the request's state answers from the request's own row: it reads none of
 * a big request's splits (and, for the FX record while the legs run, only the two legs), and
 * serializes nothing of them. The rows each refusal read are counted by PostgreSQL itself: every
 * transaction the app runs is wrapped so that, before it ends, it reads its own statistics
 * (pg_stat_get_xact_tuples_returned and _fetched of the table and its indexes: what this transaction read).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database, Queryable } from '../../src/store/database/db.js';
import { executePendingWork } from '../../src/usecases/payroll/execution.js';
import { ids, testWorld } from '../fixtures/world.js';
import type { Listening } from '../support/http.js';
import type { PayrollRequest } from '../support/payroll.js';
import { type TestServer, serveApp, startTestServer, testConfig } from '../support/server.js';
import { drain, workerFor } from '../support/worker.js';
import { type Api, accept, apiAt, call, cancel, dataOf, estimate, extraBeneficiaries, quote, recordFx } from '../reliability/api.js';

const LARGE = 1_201;
const extra = extraBeneficiaries(ids.customerA, LARGE);
const entries = (cents: number) => extra.map((b, i) => ({ beneficiaryId: b.id, amount: `${10 + (i % 40)}.${String((i + cents) % 100).padStart(2, '0')}` }));

/** Rows of the request's items read by the transactions run since the last `reset`. */
class ItemReads {
  splits = 0;
  transfers = 0;
  reset(): void {
    this.splits = 0;
    this.transfers = 0;
  }
  add(before: ItemCounts, after: ItemCounts): void {
    this.splits += after.splits - before.splits;
    this.transfers += after.transfers - before.transfers;
  }
}

interface ItemCounts {
  splits: number;
  transfers: number;
}

/**
 * This session's rows scanned and fetched from each table and its indexes, not yet flushed to the shared statistics:
 * they grow with every statement and are flushed only between transactions, so the difference
 * between two readings inside one transaction is what it read in between.
 */
async function itemCounts(tx: Queryable): Promise<ItemCounts> {
  // The table's rows scanned and fetched, and the entries its indexes returned (an index-only scan reads no row).
  const read = (table: string) => `(SELECT sum(pg_stat_get_xact_tuples_returned(o) + pg_stat_get_xact_tuples_fetched(o))
       FROM (SELECT '${table}'::regclass::oid AS o UNION ALL SELECT indexrelid FROM pg_index WHERE indrelid = '${table}'::regclass) x)`;
  const [row] = await tx.query<ItemCounts>(`SELECT (${read('amount_splits')})::int AS splits, (${read('transfers')})::int AS transfers`);
  return row!;
}

/**
 * `db` with each transaction (and each lone statement, run as one) counting the items it read:
 * a reading before its first statement (after SET TRANSACTION, which must come first) and one at its end.
 */
function counting(db: Database, reads: ItemReads): Database {
  const transaction = <T>(fn: (tx: Queryable) => Promise<T>) =>
    db.transaction(async (tx) => {
      let before: ItemCounts | null = null;
      const query: Queryable['query'] = async (sql, params) => {
        if (!before && !sql.startsWith('SET TRANSACTION')) before = await itemCounts(tx);
        return tx.query(sql, params);
      };
      try {
        return await fn({ ...tx, query });
      } finally {
        if (before) reads.add(before, await itemCounts(tx));
      }
    });
  return {
    kind: db.kind,
    transaction,
    query: (sql, params) => transaction((tx) => tx.query(sql, params)),
    exec: (sql) => db.exec(sql),
    afterCommit: (effect) => effect(),
    close: async () => undefined,
  };
}

let server: TestServer;
let counted: Listening;
let api: Api;
const reads = new ItemReads();

beforeAll(async () => {
  server = await startTestServer({ world: { ...testWorld, beneficiaries: [...testWorld.beneficiaries, ...extra] } });
  counted = await serveApp({ ...testConfig, validateResponses: false }, counting(server.db, reads), { now: server.clock.now });
  api = apiAt(counted.url, (userId) => server.token(userId));
}, 120_000);
afterAll(async () => {
  await counted?.close();
  await server?.close();
});

/** The refusal's status, code and reason, and the items it read. */
async function refused(run: () => ReturnType<typeof call>) {
  reads.reset();
  const response = await run();
  const { error } = response.json as { error: { code: string; reason?: string } };
  return { status: response.status, code: error.code, reason: error.reason, splits: reads.splits, transfers: reads.transfers };
}

async function createLarge(cents: number): Promise<string> {
  const { createBody } = await estimate(api, entries(cents));
  const created = await call(api, 'POST', '/v1/customers/payroll/requests', ids.userA, createBody);
  return dataOf<PayrollRequest>(created, 201).id;
}

describe(`refusals on a request of ${LARGE} splits read none of its splits`, () => {
  it('accept on an expired quote, the FX record while the legs run or once done, a second accept, a late cancel', async () => {
    const id = await createLarge(0);
    dataOf(await quote(api, id, server.clock.now()));
    server.clock.advance(3601);
    expect(await refused(() => accept(api, id))).toEqual({ status: 409, code: 'QUOTE_EXPIRED', reason: undefined, splits: 0, transfers: 0 });

    dataOf(await quote(api, id, server.clock.now()));
    dataOf(await accept(api, id));
    expect(await refused(() => accept(api, id))).toMatchObject({ status: 409, code: 'INVALID_STATE', splits: 0, transfers: 0 });
    expect(await refused(() => cancel(api, id))).toMatchObject({ status: 409, code: 'INVALID_STATE', splits: 0, transfers: 0 });

    // Execution starts on rails that settle in ten minutes: the two legs exist and run.
    const slowRails = workerFor(server, 600_000);
    for (let pass = 0; pass < 3; pass++) await executePendingWork(slowRails);
    const whileLegsRun = await refused(() => recordFx(api, id));
    expect(whileLegsRun).toMatchObject({ status: 409, code: 'INVALID_STATE', reason: 'TRANSFERS_NOT_SETTLED', splits: 0 });
    // The two legs' statuses: each row counted when its index entry is returned and when it is fetched.
    expect(whileLegsRun.transfers).toBeLessThanOrEqual(6);

    server.clock.advance(601);
    await drain(workerFor(server));
    reads.reset();
    dataOf(await recordFx(api, id));
    // The count sees reads: the FX record that is done reads every split (and writes its payout).
    expect(reads.splits).toBeGreaterThanOrEqual(LARGE);
    expect(await refused(() => recordFx(api, id))).toMatchObject({ status: 409, code: 'INVALID_STATE', splits: 0, transfers: 0 });
  });
});
