/**
 * Fuzzing from the spec. For every operation of the bundled spec (the list comes from the spec,
 * so a new operation is fuzzed without touching this file) fast-check generates requests that
 * follow the contract, with the right token and real ids of the test world so that many reach
 * the use cases (fuzz/requests.ts), and requests broken in every way the issue lists
 * (fuzz/mutations.ts). For every case:
 *   - never a 5xx; the answer is the envelope, its error code one of ErrorCode and its status one
 *     the operation documents (response validation is on: a 2xx that breaks the spec is a 500);
 *   - a rejected request (4xx) changes no state: balances, fee estimates, requests, payouts,
 *     transfers, ledger entries, statuses and rates are compared before and after.
 * Requests are sent raw with fetch, so anything can be sent. The seed is a constant, so that
 * `npm test` runs the same cases every time; it is printed at the start, the end and with a
 * failure. Knobs: FUZZ_SEED=<integer> runs (or replays) another seed; FUZZ_VALID_RUNS /
 * FUZZ_BROKEN_RUNS change the counts; FUZZ_COLLECT=1 gathers every violation instead of stopping
 * at the first (exploration); FUZZ_DEBUG=1 prints each request.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it, onTestFailed } from 'vitest';
import { ids } from '../fixtures/world.js';
import { expectBooksBalanced } from '../support/balances.js';
import { TEST_DATABASE_URL } from '../support/database.js';
import { accept, estimateAndCreate, quote } from '../support/payroll.js';
import { type TestServer, startTestServer } from '../support/server.js';
import { drain, workerFor } from '../support/worker.js';
import { mutate, mutationArb, serialise } from './fuzz/mutations.js';
import { type Request, type User, caseArb, harvest, materialize, remember, userIds } from './fuzz/requests.js';
import { type RawResponse, type Spec, type StateSnapshot, expectDocumented, expectEnvelope, loadSpec, send, snapshot, writeMarker } from './spec.js';

/** The seed of `npm test`: the same cases on every run, so that a red run is red again. */
const DEFAULT_SEED = 424_242;
const SEED = seedFrom(process.env.FUZZ_SEED);
function seedFrom(text: string | undefined): number {
  if (text === undefined || text.trim() === '') return DEFAULT_SEED;
  const seed = Number(text);
  if (!Number.isSafeInteger(seed)) throw new Error(`FUZZ_SEED must be an integer, not "${text}"`);
  return seed;
}
/** Said with every failure of a property: how to run the same cases again. */
const replayOnFailure = () =>
  onTestFailed(() => console.error(`[fuzz] FAILED with seed ${SEED}: replay with FUZZ_SEED=${SEED} npx vitest run test/reliability/fuzz.test.ts`));

/** Contract-following requests and broken requests; together at least 5,000 cases a run. */
const VALID_RUNS = Number(process.env.FUZZ_VALID_RUNS ?? 1500);
const BROKEN_RUNS = Number(process.env.FUZZ_BROKEN_RUNS ?? 3600);

let spec: Spec;
let server: TestServer;
const tokens: Record<User, string> = { userA: '', userB: '', admin: '', userA2: '' };

const stats = {
  cases: 0,
  byStatus: new Map<number, number>(),
  byOperation: new Map<string, [number, number]>(),
  byMutation: new Map<string, number>(),
  rejectedChecked: 0,
  accepted: 0,
  sendMs: 0,
  snapshotMs: 0,
  fullSnapshots: 0,
};
let last: StateSnapshot;
let lastMarker = '';

async function run(request: Request, context: string, mutated: boolean, extra: number[] = []): Promise<RawResponse> {
  const headers = { ...request.headers };
  let body: string | Blob | undefined;
  if (request.body && 'json' in request.body) {
    body = serialise(request.body.json);
    headers['content-type'] ??= 'application/json';
  } else if (request.body) {
    body = request.body.raw;
    if (typeof body === 'string') headers['content-type'] ??= 'application/json';
  }
  const url = `${server.baseUrl}${request.path}${request.query ? `?${request.query}` : ''}`;
  const init: RequestInit = { method: request.method, headers };
  if (body !== undefined && request.method !== 'GET' && request.method !== 'HEAD') init.body = body;
  const where = `${context}: ${request.method} ${url.slice(0, 300)} [${request.user ?? 'no token'}] ${typeof body === 'string' ? body.slice(0, 300) : body ? '<bytes>' : ''}`;
  if (process.env.FUZZ_DEBUG) console.log(where.slice(0, 200));
  const started = performance.now();
  const response = await send(url, init);
  stats.sendMs += performance.now() - started;
  stats.cases += 1;
  stats.byStatus.set(response.status, (stats.byStatus.get(response.status) ?? 0) + 1);
  const ok = response.status < 300 ? 1 : 0;
  const [count, accepted] = stats.byOperation.get(request.op.operationId) ?? [0, 0];
  stats.byOperation.set(request.op.operationId, [count + 1, accepted + ok]);

  const snapped = performance.now();
  const marker = await writeMarker(server.db);
  const after = marker === lastMarker ? last : await snapshot(server.db);
  if (marker !== lastMarker) stats.fullSnapshots += 1;
  lastMarker = marker;
  stats.snapshotMs += performance.now() - snapped;
  const before = last;
  last = after;
  await check(where, () => {
    expectEnvelope(spec, response, where);
    expectDocumented(request.op, response.status, where, extra);
    if (response.status >= 400) expect(after, `${where}: a rejected request (${response.status}) changed the state`).toEqual(before);
  });
  if (response.status >= 400) {
    stats.rejectedChecked += 1;
  } else {
    stats.accepted += 1;
    if (!mutated) harvest(spec, request, response); // what a broken request carried is not what the server kept
  }
  return response;
}

/**
 * FUZZ_COLLECT=1 (exploration): violations are gathered, grouped and printed at the end instead
 * of stopping the run at the first; the test still fails if there was any.
 */
const COLLECT = process.env.FUZZ_COLLECT === '1';
const collected = new Map<string, { count: number; example: string }>();
async function check(where: string, assertions: () => void): Promise<void> {
  if (!COLLECT) return assertions();
  try {
    assertions();
  } catch (error) {
    const message = (error as Error).message;
    const key = `${where.split(':')[0]} | ${message
      .replace(/^.*?→ /s, '')
      .replace(/[0-9a-f]{8}-[0-9a-f-]{27}/g, '<id>')
      .slice(0, 160)}`;
    const entry = collected.get(key) ?? { count: 0, example: message.slice(0, 600) };
    entry.count += 1;
    collected.set(key, entry);
  }
}

beforeAll(async () => {
  spec = await loadSpec();
  server = await startTestServer();
  for (const user of Object.keys(tokens) as User[]) tokens[user] = await server.token(userIds[user], 24 * 3600);
  // A few requests in every status the lifecycle operations act on: PENDING, QUOTE_PROVIDED, EXECUTING.
  const worker = workerFor(server);
  const created: string[] = [];
  for (const [i, beneficiaryId] of [ids.beneficiaryA1, ids.beneficiaryA2, ids.beneficiaryA3, ids.beneficiaryA4].entries()) {
    const { created: request } = await estimateAndCreate(server.as(ids.userA), [{ beneficiaryId, amount: `${100 + i}.00` }]);
    expect(request.response.status, JSON.stringify(request.error)).toBe(201);
    created.push(request.data!.data.id);
  }
  for (const id of created.slice(1)) expect((await quote(server, id, '3.6530')).response.status).toBe(200);
  for (const id of created.slice(2)) expect((await accept(server, id)).response.status).toBe(200);
  await drain(worker); // the accepted ones are EXECUTING, waiting for their FX record
  for (const id of created) remember('requestIds', id);
  lastMarker = await writeMarker(server.db);
  last = await snapshot(server.db);
}, 120_000);

afterAll(async () => {
  await server?.close();
});

function report(label: string, runs: number): void {
  const top = (map: Map<string | number, number>) =>
    [...map.entries()]
      .sort((a, b) => b[1] - a[1])
      .map(([key, count]) => `${key}: ${count}`)
      .join(', ');
  console.log(
    `[fuzz] ${label}: seed ${SEED} (replay with FUZZ_SEED=${SEED}), ${runs} runs; ${stats.cases} requests so far on ${TEST_DATABASE_URL ? 'PostgreSQL' : 'embedded'}; ` +
      `${stats.accepted} accepted, ${stats.rejectedChecked} rejected with the state checked unchanged; ${Math.round(stats.sendMs)} ms in requests, ${Math.round(stats.snapshotMs)} ms in state checks (${stats.fullSnapshots} full snapshots)\n  statuses: ${top(stats.byStatus)}\n` +
      `  operations (cases/2xx): ${[...stats.byOperation]
        .sort((a, b) => b[1][0] - a[1][0])
        .map(([op, [n, ok]]) => `${op} ${n}/${ok}`)
        .join(', ')}` +
      (stats.byMutation.size ? `\n  mutations: ${top(stats.byMutation)}` : ''),
  );
}

describe('fuzzing every operation of the spec', () => {
  it('derives its operations from the spec', () => {
    expect(spec.operations.length).toBeGreaterThanOrEqual(14);
    for (const op of spec.operations) expect(op.statuses.size, op.operationId).toBeGreaterThan(0);
  });

  it(`contract-following requests (${VALID_RUNS} runs): envelope, documented status, rejections change nothing`, async () => {
    console.log(`[fuzz] seed ${SEED}`);
    replayOnFailure();
    const arbitrary = fc.nat({ max: spec.operations.length - 1 }).chain((op) => caseArb(spec, op));
    try {
      await fc.assert(
        fc.asyncProperty(arbitrary, async (c) => {
          const request = materialize(spec, tokens, c);
          await run(request, `valid ${request.op.operationId}`, false);
        }),
        { seed: SEED, numRuns: VALID_RUNS, endOnFailure: true },
      );
    } finally {
      report('contract-following requests', VALID_RUNS);
    }
    await expectBooksBalanced(server.db);
    expect(stats.accepted).toBeGreaterThan(VALID_RUNS / 4); // the generator does reach the use cases
  }, 300_000);

  it(`broken requests (${BROKEN_RUNS} runs): never a 5xx, always the envelope, no state change`, async () => {
    replayOnFailure();
    const arbitrary = fc.nat({ max: spec.operations.length - 1 }).chain((op) => fc.tuple(caseArb(spec, op), mutationArb(spec.operations[op]!)));
    try {
      await fc.assert(
        fc.asyncProperty(arbitrary, async ([c, mutation]) => {
          const { request, extra } = mutate(spec, materialize(spec, tokens, c), mutation);
          stats.byMutation.set(mutation.kind, (stats.byMutation.get(mutation.kind) ?? 0) + 1);
          await run(
            request,
            `broken ${request.op.operationId} (${mutation.kind}${'value' in mutation ? ` ${String(mutation.value).slice(0, 40)}` : ''})`,
            true,
            extra,
          );
        }),
        { seed: SEED + 1, numRuns: BROKEN_RUNS, endOnFailure: true },
      );
    } finally {
      report('broken requests', BROKEN_RUNS);
    }
    await expectBooksBalanced(server.db);
    console.log(`[fuzz] total: ${stats.cases} cases fuzzed (seed ${SEED})`);
    if (COLLECT) for (const [key, { count, example }] of collected) console.log(`[fuzz] VIOLATION ×${count}: ${key}\n    ${example}`);
    expect(collected.size).toBe(0);
    expect(stats.cases).toBeGreaterThanOrEqual(5000);
  }, 300_000);
});
