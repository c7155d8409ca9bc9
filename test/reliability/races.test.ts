/**
 * Races. Meaningful on PostgreSQL (TEST_DATABASE_URL), where requests really run at once on
 * several connections; on the embedded database transactions are serialised but the steps of
 * concurrent requests and workers still interleave. After each race: balances equal the ledger,
 * and no transfer or payout was sent to the rails twice.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { Money } from '../../src/domain/money/money.js';
import { ids } from '../fixtures/world.js';
import { balancesOf, expectBooksBalanced } from '../support/balances.js';
import { worldWith } from '../support/builders.js';
import { TEST_DATABASE_URL } from '../support/database.js';
import { type TestServer, startTestServer } from '../support/server.js';
import { drain, workerFor } from '../support/worker.js';
import { type Api, type Entry, accept, apiOf, call, cancel, count, createRequest, dataOf, estimate, extraBeneficiaries, quote, read, recordFx } from './api.js';

let server: TestServer;
let api: Api;
const extra = extraBeneficiaries(ids.customerA, 40);
const outcomes: string[] = [];

beforeAll(async () => {
  server = await startTestServer({ world: worldWith({ moreBeneficiaries: extra }) });
  api = apiOf(server);
});
afterAll(async () => {
  console.log(`[races] on ${TEST_DATABASE_URL ? 'PostgreSQL' : 'embedded'}:\n  ${outcomes.join('\n  ')}`);
  await server?.close();
});
afterEach(async () => {
  await expectBooksBalanced(server.db);
  const [sent] = await server.db.query<{ max: number | null }>('SELECT max(calls)::int AS max FROM simulated_operations');
  expect(sent!.max ?? 1, 'a transfer or payout was sent to the rails twice').toBe(1);
});

const balance = async (accountCurrencyId: string) => (await balancesOf(server.db, accountCurrencyId)).balance;
const tally = (statuses: number[]) =>
  Object.entries(statuses.reduce<Record<number, number>>((acc, s) => ({ ...acc, [s]: (acc[s] ?? 0) + 1 }), {}))
    .map(([s, n]) => `${n}×${s}`)
    .join(', ');
const sortKeys = (value: unknown): unknown =>
  Array.isArray(value)
    ? value.map(sortKeys)
    : value && typeof value === 'object'
      ? Object.fromEntries(
          Object.entries(value)
            .sort(([a], [b]) => a.localeCompare(b))
            .map(([k, v]) => [k, sortKeys(v)]),
        )
      : value;
const codeOf = (response: { json: unknown }) => (response.json as { error?: { code: string } }).error?.code;

describe('races', () => {
  it('50 concurrent creates with one feeHash: one 201, 49 × 409 FEE_HASH_ALREADY_USED, one debit', async () => {
    const { estimate: estimated, createBody } = await estimate(api, [{ beneficiaryId: ids.beneficiaryA1, amount: '100.00' }]);
    const before = await balance(ids.acAUsd);
    const results = await Promise.all(Array.from({ length: 50 }, () => call(api, 'POST', '/v1/customers/payroll/requests', ids.userA, createBody)));
    const statuses = results.map((r) => r.status);
    expect(statuses.filter((s) => s === 201)).toHaveLength(1);
    expect(results.filter((r) => r.status === 409 && codeOf(r) === 'FEE_HASH_ALREADY_USED')).toHaveLength(49);
    expect(before.minus(await balance(ids.acAUsd)).equals(estimated.totalAmount)).toBe(true);
    await expectOneRequestDebitedOnce(createBody.feeHash);
    outcomes.push(`50 creates with one feeHash: ${tally(statuses)}`);
  });

  it('20 concurrent creates on one account, each with its own feeHash: every one 201 (or 400 INSUFFICIENT_FUNDS), each debited once', async () => {
    const estimates = [];
    for (let i = 0; i < 20; i++) estimates.push(await estimate(api, [{ beneficiaryId: extra[i]!.id, amount: `${30 + i}.10` }]));
    const before = await balance(ids.acAUsd);
    const results = await Promise.all(estimates.map(({ createBody }) => call(api, 'POST', '/v1/customers/payroll/requests', ids.userA, createBody)));
    const statuses = results.map((r) => r.status);
    for (const result of results) {
      expect(result.status === 201 || (result.status === 400 && codeOf(result) === 'INSUFFICIENT_FUNDS'), result.text).toBe(true);
    }
    const created = estimates.filter((_unused, i) => results[i]!.status === 201);
    expect(created.length).toBeGreaterThan(0);
    for (const { createBody } of created) await expectOneRequestDebitedOnce(createBody.feeHash);
    const debited = created.reduce((sum, { estimate: e }) => sum.plus(e.totalAmount), new Money(0));
    expect(before.minus(await balance(ids.acAUsd)).equals(debited)).toBe(true);
    outcomes.push(`20 creates on one account, own feeHashes: ${tally(statuses)}`);
  });

  it('20 concurrent single payouts from one account: every one 201 (or 400 INSUFFICIENT_FUNDS), each debited once', async () => {
    const bodies = [];
    for (let i = 0; i < 20; i++) {
      const beneficiaryId = extra[20 + i]!.id;
      const amount = `${40 + i}.00`;
      const path = `/v1/accounts/${ids.accountAUsd}/payouts/estimate?amount=${amount}&currency=USD&beneficiaryId=${beneficiaryId}`;
      const { feeHash } = dataOf<{ feeHash: string }>(await call(api, 'GET', path, ids.userA));
      bodies.push({ feeHash, beneficiaryId, amount, currency: 'USD' });
    }
    const results = await Promise.all(bodies.map((body) => call(api, 'POST', `/v1/accounts/${ids.accountAUsd}/payouts`, ids.userA, body)));
    for (const result of results) {
      expect(result.status === 201 || (result.status === 400 && codeOf(result) === 'INSUFFICIENT_FUNDS'), result.text).toBe(true);
    }
    const created = results.filter((r) => r.status === 201).map((r) => (r.json as { data: { id: string } }).data.id);
    expect(created.length).toBeGreaterThan(0);
    const debits = await count(server.db, "SELECT count(*) AS n FROM journal_entries WHERE kind = 'SINGLE_PAYOUT_DEBITED' AND payout_id = ANY($1::uuid[])", [
      created,
    ]);
    expect(debits).toBe(created.length);
    outcomes.push(`20 single payouts from one account: ${tally(results.map((r) => r.status))}`);
  });

  it('50 concurrent accepts of one quote: one 200, 49 × 409 INVALID_STATE, the request QUOTE_ACCEPTED once', async () => {
    const { id } = await createRequest(api, [{ beneficiaryId: ids.beneficiaryA2, amount: '50.00' }]);
    dataOf(await quote(api, id, server.clock.now()));
    const results = await Promise.all(Array.from({ length: 50 }, () => accept(api, id)));
    const statuses = results.map((r) => r.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(1);
    expect(results.filter((r) => r.status === 409 && codeOf(r) === 'INVALID_STATE')).toHaveLength(49);
    const winner = results.find((r) => r.status === 200)!;
    expect((winner.json as { data: { status: string } }).data.status).toBe('QUOTE_ACCEPTED');
    expect((await read(api, id)).status).toBe('QUOTE_ACCEPTED');
    // Exactly one transition: the request starts executing once (one source debit transfer).
    await Promise.all([drain(workerFor(server)), drain(workerFor(server))]);
    expect(
      await count(server.db, "SELECT count(*) AS n FROM transfers WHERE payroll_request_id = $1 AND transfer_type = 'PROCESSOR_INTERNAL_DEBIT'", [id]),
    ).toBe(1);
    outcomes.push(`50 accepts of one quote: ${tally(statuses)}`);
  });

  it('cancel racing accept (12 rounds, 3 cancels and 3 accepts each): exactly one wins; a refund exactly when a cancel won', async () => {
    const wins = { cancel: 0, accept: 0 };
    for (let round = 0; round < 12; round++) {
      const before = await balance(ids.acAUsd);
      const { id, totalAmount } = await createRequest(api, [{ beneficiaryId: ids.beneficiaryA3, amount: `${20 + round}.00` }]);
      dataOf(await quote(api, id, server.clock.now()));
      // Alternate which side leaves a moment (a millisecond or two) ahead, so that both can win.
      const first = round % 2 === 0 ? ('cancel' as const) : ('accept' as const);
      const racers = Array.from({ length: 6 }, (_unused, i) => (i < 3 ? first : first === 'cancel' ? ('accept' as const) : ('cancel' as const)));
      const results = await Promise.all(
        racers.map(async (kind, i) => {
          if (i >= 3) await new Promise((resolve) => setTimeout(resolve, round % 3));
          return kind === 'cancel' ? cancel(api, id, `race ${round}`) : accept(api, id);
        }),
      );
      const won = results.map((r, i) => [r, racers[i]!] as const).filter(([r]) => r.status === 200);
      expect(won, `round ${round}: ${tally(results.map((r) => r.status))}`).toHaveLength(1);
      expect(results.filter((r) => r.status === 409 && codeOf(r) === 'INVALID_STATE')).toHaveLength(5);
      const winner = won[0]![1];
      wins[winner] += 1;
      const refunds = await count(server.db, "SELECT count(*) AS n FROM journal_entries WHERE kind = 'PAYROLL_CANCELLED' AND payroll_request_id = $1", [id]);
      const status = (await read(api, id)).status;
      if (winner === 'cancel') {
        expect(status).toBe('CANCELLED');
        expect(refunds).toBe(1);
        expect((await balance(ids.acAUsd)).equals(before)).toBe(true);
      } else {
        expect(status).toBe('QUOTE_ACCEPTED');
        expect(refunds).toBe(0);
        expect(before.minus(await balance(ids.acAUsd)).equals(totalAmount)).toBe(true);
      }
    }
    await drain(workerFor(server)); // the accepted ones start executing; nothing is left half-way
    outcomes.push(`cancel racing accept: 12 rounds, cancel won ${wins.cancel}, accept won ${wins.accept}, one winner each time`);
  });

  it.each([2, 3])('%i workers racing over the same transfers and payouts of a 40-beneficiary request: each sent once, COMPLETED', async (workers) => {
    const entries: Entry[] = extra.map((b, i) => ({ beneficiaryId: b.id, amount: `${10 + i}.25` }));
    const { id } = await createRequest(api, entries);
    dataOf(await quote(api, id, server.clock.now()));
    dataOf(await accept(api, id));
    const pool = Array.from({ length: workers }, () => workerFor(server));
    await Promise.all(pool.map((deps) => drain(deps)));
    dataOf(await recordFx(api, id));
    await Promise.all(pool.map((deps) => drain(deps)));
    const done = await read(api, id);
    expect(done.status).toBe('COMPLETED');
    expect(done.transfers).toHaveLength(42);
    expect(done.transfers.every((t) => t.status === 'COMPLETED' && t.externalId)).toBe(true);
    expect(new Set(done.transfers.map((t) => t.externalId)).size).toBe(42);
    const sent = await server.db.query<{ calls: number }>(
      'SELECT calls FROM simulated_operations WHERE transfer_id IN (SELECT id FROM transfers WHERE payroll_request_id = $1)',
      [id],
    );
    expect(sent.map((row) => row.calls)).toEqual(Array(42).fill(1));
    expect(await count(server.db, "SELECT count(*) AS n FROM journal_entries WHERE kind = 'PAYOUT_SENT' AND payroll_request_id = $1", [id])).toBe(40);
    outcomes.push(`${workers} workers over a 40-beneficiary request: 42 transfers, each sent once, COMPLETED`);
  });

  it('3 workers racing over 12 single payouts: each sent once and COMPLETED, each debited once', async () => {
    const payoutIds: string[] = [];
    for (let i = 0; i < 12; i++) {
      const beneficiaryId = extra[i]!.id;
      const amount = `${100 + i}.00`;
      const estimated = dataOf<{ feeHash: string }>(
        await call(api, 'GET', `/v1/accounts/${ids.accountAUsd}/payouts/estimate?amount=${amount}&currency=USD&beneficiaryId=${beneficiaryId}`, ids.userA),
      );
      const created = dataOf<{ id: string }>(
        await call(api, 'POST', `/v1/accounts/${ids.accountAUsd}/payouts`, ids.userA, { feeHash: estimated.feeHash, beneficiaryId, amount, currency: 'USD' }),
        201,
      );
      payoutIds.push(created.id);
    }
    await Promise.all([0, 1, 2].map(() => drain(workerFor(server))));
    const rows = await server.db.query<{ status: string; calls: number; debits: number }>(
      `SELECT p.status, o.calls, (SELECT count(*)::int FROM journal_entries l WHERE l.payout_id = p.id AND l.kind = 'SINGLE_PAYOUT_DEBITED') AS debits
         FROM payouts p JOIN simulated_operations o ON o.transfer_id = p.id WHERE p.id = ANY($1::uuid[])`,
      [payoutIds],
    );
    expect(rows).toHaveLength(12);
    expect(rows.every((row) => row.status === 'COMPLETED' && row.calls === 1 && row.debits === 1)).toBe(true);
    outcomes.push('3 workers over 12 single payouts: each sent once, debited once, COMPLETED');
  });

  it('20 concurrent createPayrollRequest with one Idempotency-Key: the same 201 body for all, one request, one debit', async () => {
    const { estimate: estimated, createBody } = await estimate(api, [{ beneficiaryId: ids.beneficiaryA4, amount: '77.70' }]);
    const before = await balance(ids.acAUsd);
    const key = `race-${Date.now()}`;
    const results = await Promise.all(
      Array.from({ length: 20 }, () => call(api, 'POST', '/v1/customers/payroll/requests', ids.userA, createBody, { 'Idempotency-Key': key })),
    );
    expect(results.map((r) => r.status)).toEqual(Array(20).fill(201));
    // The same body, as JSON values (a replay comes back from jsonb, whose key order may differ).
    for (const result of results) expect(result.json).toEqual(results[0]!.json);
    const bodies = new Set(results.map((r) => JSON.stringify(sortKeys(r.json))));
    expect(bodies.size).toBe(1);
    await expectOneRequestDebitedOnce(createBody.feeHash);
    expect(before.minus(await balance(ids.acAUsd)).equals(estimated.totalAmount)).toBe(true);
    outcomes.push(`20 creates with one Idempotency-Key: ${tally(results.map((r) => r.status))}, ${bodies.size} distinct body, one request, one debit`);
  });

  // The fingerprint canonicalises the JSON body, so key order and spacing do not count.
  it('a repeat of the same body with its keys in another order replays the first answer (key order is not significant)', async () => {
    const { createBody } = await estimate(api, [{ beneficiaryId: ids.beneficiaryA5, amount: '12.00' }]);
    const key = `key-order-${Date.now()}`;
    const first = await call(api, 'POST', '/v1/customers/payroll/requests', ids.userA, createBody, { 'Idempotency-Key': key });
    expect(first.status).toBe(201);
    const reordered = Object.fromEntries(Object.entries(createBody).reverse());
    const again = await call(api, 'POST', '/v1/customers/payroll/requests', ids.userA, reordered, { 'Idempotency-Key': key });
    expect(again.status, again.text).toBe(201);
    expect(again.json).toEqual(first.json);
  });
});

/** Exactly one payroll request holds the feeHash, and exactly one creation debit was journaled for it. */
async function expectOneRequestDebitedOnce(feeHash: string): Promise<void> {
  expect(await count(server.db, 'SELECT count(*) AS n FROM payroll_requests WHERE fee_hash = $1', [feeHash])).toBe(1);
  const debits =
    "SELECT count(*) AS n FROM journal_entries WHERE kind = 'PAYROLL_CREATED' AND payroll_request_id IN (SELECT id FROM payroll_requests WHERE fee_hash = $1)";
  expect(await count(server.db, debits, [feeHash])).toBe(1);
}
