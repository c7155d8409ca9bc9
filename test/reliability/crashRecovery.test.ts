/**
 * Crash recovery: a worker process is killed with SIGKILL in the middle of the payouts of a
 * 200-beneficiary payroll; a new worker process resumes, and every beneficiary is paid exactly
 * once and the request reaches COMPLETED. The workers are separate processes sharing one
 * database on the suite's server (the embedded PostgreSQL, or TEST_DATABASE_URL's).
 */
import { once } from 'node:events';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Money } from '../../src/domain/money/money.js';
import { loadConfig } from '../../src/config/config.js';
import { createLogger } from '../../src/observability/logger.js';
import { buildWorker } from '../../src/composition/worker.js';
import type { Database } from '../../src/store/database/db.js';
import { simulatedBooksOf } from '../../src/store/bank/simulatedOperations.js';
import { SimulatedRails } from '../../src/adapters/processor/rails.js';
import { ids } from '../fixtures/world.js';
import { expectBooksBalanced } from '../support/balances.js';
import { crashWindow } from '../support/crashWindows.js';
import type { Listening } from '../support/http.js';
import { waitFor } from '../support/polling.js';
import { killLeftovers, startEntry } from '../support/processes.js';
import { type TestServer, startTestServer } from '../support/server.js';
import { drain, workerFor } from '../support/worker.js';
import {
  type Api,
  accept,
  apiOf,
  apiWithBeneficiaries,
  count,
  createRequest,
  dataOf,
  extraBeneficiaries,
  quote,
  read,
  recordFx,
  requestWithPayouts,
} from './api.js';

const BENEFICIARIES = 200;
const KILL_AFTER_COMPLETED = 60;

describe(`crash recovery: SIGKILL of the worker during a ${BENEFICIARIES}-beneficiary payroll`, () => {
  let database: { db: Database; drop: () => Promise<void>; url: string };
  let http: Listening;
  let api: Api;
  const beneficiaries = extraBeneficiaries(ids.customerA, BENEFICIARIES);

  beforeAll(async () => {
    // The API in this process, without a worker: the workers are the child processes below.
    ({ database, http, api } = await apiWithBeneficiaries(beneficiaries, true));
  }, 120_000);

  afterAll(async () => {
    killLeftovers();
    await http?.close();
    await database?.drop();
  });

  /** A worker process on the test database; its output, for the messages of failed expectations. */
  function startWorker(name: string) {
    const worker = startEntry('src/worker/main.ts', {
      DATABASE_URL: database.url,
      SIMULATED_SETTLEMENT_MS: '200',
      WORKER_POLL_MS: '20',
      WORKER_LEASE_MS: '2000',
      LOG_LEVEL: 'silent',
    });
    return { child: worker.child, output: () => [...worker.stdout, ...worker.stderr].map((line) => `${name}: ${line}`).join('\n') };
  }

  async function payoutStatuses(requestId: string): Promise<Record<string, number>> {
    const rows = await database.db.query<{ status: string; n: number }>(
      "SELECT status, count(*)::int AS n FROM transfers WHERE payroll_request_id = $1 AND transfer_type = 'BANK_TO_BENEFICIARY' GROUP BY status",
      [requestId],
    );
    return Object.fromEntries(rows.map((row) => [row.status, Number(row.n)]));
  }

  /** The payouts' statuses, as long as `worker` runs. */
  const statusesWhile = (worker: ReturnType<typeof startWorker>, requestId: string) => () => {
    if (worker.child.exitCode !== null) throw new Error(`the worker exited early:\n${worker.output()}`);
    return payoutStatuses(requestId);
  };

  it('every beneficiary is paid exactly once and the request reaches COMPLETED', async () => {
    // Through the API: estimate, create, quote, accept; the debit and the move to the bank by an
    // in-test worker; the FX record creates the 200 payouts (PAYOUT_INITIATED).
    const entries = beneficiaries.map((b, i) => ({ beneficiaryId: b.id, amount: `${25 + (i % 50)}.${String(i % 100).padStart(2, '0')}` }));
    const { id } = await createRequest(api, entries);
    dataOf(await quote(api, id, new Date()));
    dataOf(await accept(api, id));
    const preparation = buildWorker(loadConfig({ NODE_ENV: 'test', SIMULATED_SETTLEMENT_MS: '0' }), database.db, createLogger('silent')).deps;
    await drain(preparation);
    expect((await read(api, id)).status).toBe('EXECUTING');
    dataOf(await recordFx(api, id));
    expect((await read(api, id)).status).toBe('PAYOUT_INITIATED');
    expect(await payoutStatuses(id)).toEqual({ PENDING: BENEFICIARIES });

    // Worker 1 runs until about a third of the payouts are COMPLETED (others still PENDING,
    // INITIATED or PROCESSING at the rails); then SIGKILL: no clean-up, its leases left behind.
    const first = startWorker('worker 1');
    const atKill = await waitFor(
      `${KILL_AFTER_COMPLETED} payouts COMPLETED by worker 1`,
      statusesWhile(first, id),
      (now) => (now.COMPLETED ?? 0) >= KILL_AFTER_COMPLETED,
      {
        deadlineMs: 60_000,
        everyMs: 10,
        context: first.output,
      },
    );
    first.child.kill('SIGKILL');
    const [, signal] = await once(first.child, 'exit');
    expect(signal).toBe('SIGKILL');
    const afterKill = await payoutStatuses(id);
    expect(afterKill.COMPLETED ?? 0, 'the kill must land in the middle of the payouts').toBeLessThan(BENEFICIARIES);

    // Worker 2 resumes (items the dead worker held come back when their 2 s lease runs out).
    const started = Date.now();
    const second = startWorker('worker 2');
    const requestStatus = async () => {
      if (second.child.exitCode !== null) throw new Error(`worker 2 exited early:\n${second.output()}`);
      return (await read(api, id)).status;
    };
    const status = await waitFor('the request finished by worker 2', requestStatus, (now) => ['COMPLETED', 'PARTIALLY_COMPLETED', 'FAILED'].includes(now), {
      deadlineMs: 60_000,
      everyMs: 50,
      context: () => second.output(),
    });
    const resumedMs = Date.now() - started;
    second.child.kill('SIGTERM');
    await once(second.child, 'exit');
    expect(status, JSON.stringify(await payoutStatuses(id))).toBe('COMPLETED');

    // Every beneficiary has exactly one payout, COMPLETED, with its own external id.
    const payouts = await database.db.query<{ beneficiary_id: string; transfer_id: string; status: string; amount: string; external_id: string | null }>(
      `SELECT s.beneficiary_id, t.id AS transfer_id, t.status, t.amount::text AS amount, t.external_id
         FROM amount_splits s JOIN transfers t ON t.amount_split_id = s.id WHERE s.payroll_request_id = $1`,
      [id],
    );
    expect(payouts).toHaveLength(BENEFICIARIES);
    expect(new Set(payouts.map((p) => p.beneficiary_id)).size).toBe(BENEFICIARIES);
    expect(payouts.every((p) => p.status === 'COMPLETED' && p.external_id)).toBe(true);
    expect(new Set(payouts.map((p) => p.external_id)).size).toBe(BENEFICIARIES);
    expect(await count(database.db, "SELECT count(*) AS n FROM transfers WHERE payroll_request_id = $1 AND transfer_type = 'BANK_TO_BENEFICIARY'", [id])).toBe(
      BENEFICIARIES,
    );

    // The rails saw each transfer as ONE operation (its id is their idempotency key). A submit
    // the killed worker made but did not record is made again by worker 2: calls = 2, the same
    // operation, not a second payment. Only the item in flight at the kill can be in that case.
    const operations = await database.db.query<{ transfer_id: string; calls: number; amount: string; external_id: string }>(
      'SELECT transfer_id, calls, amount::text AS amount, external_id FROM simulated_operations WHERE transfer_id = ANY($1::uuid[])',
      [payouts.map((p) => p.transfer_id)],
    );
    expect(operations).toHaveLength(BENEFICIARIES);
    const retried = operations.filter((op) => op.calls > 1);
    expect(operations.every((op) => op.calls <= 2)).toBe(true);
    expect(retried.length).toBeLessThanOrEqual(2);
    const byTransfer = new Map(operations.map((op) => [op.transfer_id, op]));
    for (const payout of payouts) {
      expect(byTransfer.get(payout.transfer_id)!.external_id).toBe(payout.external_id);
      expect(new Money(byTransfer.get(payout.transfer_id)!.amount).equals(payout.amount)).toBe(true);
    }

    // Paid once in the books too: one PAYOUT_SENT journal entry per transfer, its partner-bank postings summing to the payouts.
    const ledger = await database.db.query<{ transfer_id: string; n: number; total: string }>(
      `SELECT je.transfer_id, count(*)::int AS n, sum(p.amount)::text AS total FROM journal_entries je JOIN postings p ON p.journal_entry_id = je.id
        WHERE je.payroll_request_id = $1 AND je.kind = 'PAYOUT_SENT' AND p.account_key LIKE 'PLATFORM_BANK:%' GROUP BY je.transfer_id`,
      [id],
    );
    expect(ledger).toHaveLength(BENEFICIARIES);
    expect(ledger.every((row) => Number(row.n) === 1)).toBe(true);
    const paid = payouts.reduce((sum, p) => sum.plus(p.amount), new Money(0));
    const booked = ledger.reduce((sum, row) => sum.plus(row.total), new Money(0));
    expect(booked.negated().equals(paid)).toBe(true);
    const simulated = operations.reduce((sum, op) => sum.plus(op.amount), new Money(0));
    expect(simulated.equals(paid)).toBe(true);
    // The payouts are the quoted amounts (payout_amount), never more than the source funded at the quote;
    // what the FX record brought in beyond or short of them is the platform's FX result.
    const [fx] = await database.db.query<{ to_amount: string; payout_amount: string; fx_result_amount: string; from_amount: string; quote_rate: string }>(
      `SELECT f.to_amount::text, f.payout_amount::text, f.fx_result_amount::text, f.from_amount::text, r.quote_rate::text
         FROM fx_exchanges f JOIN payroll_requests r ON r.id = f.payroll_request_id WHERE f.payroll_request_id = $1`,
      [id],
    );
    expect(paid.equals(fx!.payout_amount)).toBe(true);
    expect(paid.lessThanOrEqualTo(new Money(fx!.from_amount).times(fx!.quote_rate))).toBe(true);
    expect(paid.plus(fx!.fx_result_amount).equals(fx!.to_amount)).toBe(true);
    await expectBooksBalanced(database.db);

    console.log(
      `[crash recovery] ${BENEFICIARIES} payouts; worker 1 SIGKILLed with ${JSON.stringify(atKill)}; worker 2 finished in ${resumedMs} ms; ` +
        `${retried.length} submit(s) repeated idempotently; every beneficiary paid once (${paid.toString()} AED), request COMPLETED, ledger clean`,
    );
  }, 150_000);
});

/**
 * The one crash window a SIGKILL rarely hits, made to happen: a worker submitted a payout to the
 * rails and died before recording it (the transfer still INITIATED, its lease run out). The next
 * worker submits again — the same operation at the rails, keyed by the transfer id — and the
 * beneficiary is paid once. Runs on both databases.
 */
describe('crash window between the submit to the rails and its record', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server?.close());

  it('a transfer submitted by a dead worker is submitted again idempotently and paid once', async () => {
    const api = apiOf(server);
    const worker = workerFor(server);
    const id = await requestWithPayouts(server, api, 30);
    const [victim] = await server.db.query<{ id: string; amount: string; currency_code: string }>(
      "SELECT id, amount::text AS amount, currency_code FROM transfers WHERE payroll_request_id = $1 AND transfer_type = 'BANK_TO_BENEFICIARY' ORDER BY position LIMIT 1",
      [id],
    );
    // The dead worker's last acts: INITIATED under a lease that has run out, then the submit.
    await crashWindow.transferInitiatedNotRecorded(server.db, victim!.id, new Date(server.clock.now().getTime() - 1000));
    const rails = new SimulatedRails(simulatedBooksOf(server.db), 0, server.clock.now);
    const { externalId } = await rails.submit({
      transferId: victim!.id,
      kind: 'BANK_TO_BENEFICIARY',
      amount: victim!.amount,
      currencyCode: victim!.currency_code,
      accountProvider: 'PAYROLL_PARTNER_BANK',
      beneficiaryReference: null,
    });

    await drain(worker);
    const done = await read(api, id);
    expect(done.status).toBe('COMPLETED');
    expect(done.transfers.find((t) => t.id === victim!.id)).toMatchObject({ status: 'COMPLETED', externalId });
    const calls = await server.db.query<{ transfer_id: string; calls: number }>(
      "SELECT o.transfer_id, o.calls FROM simulated_operations o JOIN transfers t ON t.id = o.transfer_id WHERE t.payroll_request_id = $1 AND t.transfer_type = 'BANK_TO_BENEFICIARY'",
      [id],
    );
    expect(calls).toHaveLength(3);
    expect(Object.fromEntries(calls.map((row) => [row.transfer_id === victim!.id ? 'victim' : row.transfer_id, row.calls]))).toMatchObject({ victim: 2 });
    expect(calls.filter((row) => row.transfer_id !== victim!.id).every((row) => row.calls === 1)).toBe(true);
    expect(await count(server.db, "SELECT count(*) AS n FROM journal_entries WHERE transfer_id = $1 AND kind = 'PAYOUT_SENT'", [victim!.id])).toBe(1);
    await expectBooksBalanced(server.db);
  });
});
