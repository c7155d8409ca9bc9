/**
 * Payroll at scale: 10,000 payouts go to the bank as one batch and are booked set-based.
 * 1. The money invariants through the real use cases (the API in this process, the worker's own
 *    code): every split paid exactly its quoted amount once (a FAIL… reference bounced and credited
 *    back instead), one transfer, three status events and one journal entry per payout, the
 *    ledger summing to zero per currency and every balance equal to its postings.
 * 2. A worker process SIGKILLed in the middle of a 10,000-payout batch: a new worker resumes the
 *    same batch and nothing is lost or paid twice.
 * 3. The window between the batch's submission and its record, made to happen on a small payroll.
 */
import { once } from 'node:events';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildWorker } from '../../src/composition/worker.js';
import { loadConfig } from '../../src/config/config.js';
import { Money } from '../../src/domain/money/money.js';
import { createLogger } from '../../src/observability/logger.js';
import type { Database } from '../../src/store/database/db.js';
import { loadPayoutBatch } from '../../src/store/payouts/payoutBatches.js';
import { ids } from '../fixtures/world.js';
import { expectBooksBalanced } from '../support/balances.js';
import { crashWindow } from '../support/crashWindows.js';
import { waitFor } from '../support/polling.js';
import { type Started, killLeftovers, startEntry } from '../support/processes.js';
import { type TestServer, startTestServer } from '../support/server.js';
import { drain, workerFor } from '../support/worker.js';
import {
  type ApiOnDatabase,
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

const PAYOUTS = 10_000;
/** Every FAIL_EVERY-th beneficiary's account is closed at the simulated bank. */
const FAIL_EVERY = 1_000;

type Scale = ApiOnDatabase;

/** A database whose customer A has PAYOUTS more beneficiaries, and the API on it without a worker. */
async function scaleWorld(): Promise<Scale> {
  const beneficiaries = extraBeneficiaries(ids.customerA, PAYOUTS).map((b, i) => ((i + 1) % FAIL_EVERY === 0 ? { ...b, reference: `FAIL-${b.reference}` } : b));
  return apiWithBeneficiaries(beneficiaries, false);
}

/** Estimate, create, quote, accept, the two legs by an in-test worker, the FX record: PAYOUTS payouts PENDING in one batch. */
async function payoutsInitiated(scale: Scale): Promise<string> {
  const entries = extraBeneficiaries(ids.customerA, PAYOUTS).map((b, i) => ({
    beneficiaryId: b.id,
    amount: `${10 + (i % 40)}.${String(i % 100).padStart(2, '0')}`,
  }));
  const { id } = await createRequest(scale.api, entries);
  dataOf(await quote(scale.api, id, new Date()));
  dataOf(await accept(scale.api, id));
  await drain(buildWorker(loadConfig({ NODE_ENV: 'test', SIMULATED_SETTLEMENT_MS: '0' }), scale.database.db, createLogger('silent')).deps);
  dataOf(await recordFx(scale.api, id));
  return id;
}

interface PayoutRow {
  split_id: string;
  quoted_amount: string;
  quoted_source: string;
  returned: string | null;
  reference: string;
  transfer_id: string;
  status: string;
  amount: string;
  external_id: string | null;
  sent: string | null;
  calls: number | null;
}

/** Each split with its one payout and what the bank booked for it. */
async function payoutsOf(db: Database, requestId: string): Promise<PayoutRow[]> {
  return db.query<PayoutRow>(
    `SELECT s.id AS split_id, s.quoted_amount::text, s.quoted_source_currency_amount::text AS quoted_source,
            s.returned_source_currency_amount::text AS returned, s.beneficiary_snapshot->>'reference' AS reference,
            t.id AS transfer_id, t.status, t.amount::text, t.external_id, o.amount::text AS sent, o.calls
       FROM amount_splits s JOIN transfers t ON t.amount_split_id = s.id
       LEFT JOIN simulated_operations o ON o.transfer_id = t.id
      WHERE s.payroll_request_id = $1`,
    [requestId],
  );
}

/** Every split paid its quoted amount once (or bounced and credited back once), booked once, announced three times. */
async function expectPaidOnce(db: Database, requestId: string): Promise<void> {
  const payouts = await payoutsOf(db, requestId);
  expect(payouts).toHaveLength(PAYOUTS);
  expect(await count(db, "SELECT count(*) AS n FROM transfers WHERE payroll_request_id = $1 AND transfer_type = 'BANK_TO_BENEFICIARY'", [requestId])).toBe(
    PAYOUTS,
  );
  const wrong = payouts.filter((p) => {
    const fails = p.reference.startsWith('FAIL');
    const paidAsQuoted = new Money(p.amount).equals(p.quoted_amount) && p.sent !== null && new Money(p.sent).equals(p.quoted_amount);
    const creditedBack = fails ? p.returned === p.quoted_source : p.returned === null;
    return p.status !== (fails ? 'FAILED' : 'COMPLETED') || !paidAsQuoted || !creditedBack || !p.external_id;
  });
  expect(wrong.slice(0, 3)).toEqual([]);
  expect(new Set(payouts.map((p) => p.external_id)).size).toBe(PAYOUTS);
  // One journal entry per payout, of the kind its outcome calls for.
  const entries = await db.query<{ kind: string; n: number; transfers: number }>(
    `SELECT kind, count(*)::int AS n, count(DISTINCT transfer_id)::int AS transfers FROM journal_entries
      WHERE payroll_request_id = $1 AND kind IN ('PAYOUT_SENT', 'PAYOUT_FAILED_CREDIT_BACK') GROUP BY kind ORDER BY kind`,
    [requestId],
  );
  const failed = PAYOUTS / FAIL_EVERY;
  expect(entries).toEqual([
    { kind: 'PAYOUT_FAILED_CREDIT_BACK', n: failed, transfers: failed },
    { kind: 'PAYOUT_SENT', n: PAYOUTS - failed, transfers: PAYOUTS - failed },
  ]);
  // INITIATED, PROCESSING and the outcome: three transfer.status_changed events per payout, numbered 1..3.
  const events = await db.query<{ sequences: string; n: number }>(
    `SELECT string_agg(e.sequence::text, ',' ORDER BY e.sequence) AS sequences, count(*)::int AS n
       FROM events e JOIN transfers t ON t.id = e.resource_id
      WHERE t.payroll_request_id = $1 AND t.transfer_type = 'BANK_TO_BENEFICIARY' AND e.type = 'transfer.status_changed'
      GROUP BY e.resource_id`,
    [requestId],
  );
  expect(events).toHaveLength(PAYOUTS);
  expect(events.every((row) => row.sequences === '1,2,3')).toBe(true);
  // The partner bank's payroll account paid out exactly the payouts that completed.
  const [bank] = await db.query<{ total: string }>(
    `SELECT COALESCE(sum(p.amount), 0)::text AS total FROM postings p JOIN journal_entries je ON je.id = p.journal_entry_id
      WHERE je.payroll_request_id = $1 AND je.kind = 'PAYOUT_SENT' AND p.account_key LIKE 'PLATFORM_BANK:%'`,
    [requestId],
  );
  const paid = payouts.filter((p) => p.status === 'COMPLETED').reduce((sum, p) => sum.plus(p.amount), new Money(0));
  expect(new Money(bank!.total).negated().equals(paid)).toBe(true);
  await expectBooksBalanced(db);
}

describe(`payroll at scale: ${PAYOUTS} payouts as one batch`, () => {
  let scale: Scale;
  beforeAll(async () => {
    scale = await scaleWorld();
  }, 180_000);
  afterAll(async () => {
    killLeftovers();
    await scale?.http.close();
    await scale?.database.drop();
  });

  it('every split is paid its quoted amount once, the ledger sums to zero and balances equal postings', async () => {
    const id = await payoutsInitiated(scale);
    const worker = buildWorker(loadConfig({ NODE_ENV: 'test', SIMULATED_SETTLEMENT_MS: '0' }), scale.database.db, createLogger('silent')).deps;
    const started = Date.now();
    await drain(worker);
    const done = await read(scale.api, id);
    expect(done.status).toBe('PARTIALLY_COMPLETED');
    const failedSplits = done.amountSplitDetails.filter((split) => split.returnedSourceCurrencyAmount !== null);
    expect(failedSplits).toHaveLength(PAYOUTS / FAIL_EVERY);
    const returned = failedSplits.reduce((sum, split) => sum.plus(split.returnedSourceCurrencyAmount!), new Money(0));
    expect(new Money(done.returnedAmount).equals(returned)).toBe(true);
    await expectPaidOnce(scale.database.db, id);
    expect(await count(scale.database.db, 'SELECT count(*) AS n FROM payout_batches WHERE payroll_request_id = $1 AND status = $2', [id, 'CLOSED'])).toBe(1);
    console.log(`[payroll at scale] ${PAYOUTS} payouts from the FX record to ${done.status} in ${Date.now() - started} ms (worker in the test process)`);
  }, 300_000);

  it('a worker SIGKILLed in the middle of the batch loses and doubles nothing', async () => {
    const id = await payoutsInitiated(scale);
    const statuses = async () =>
      Object.fromEntries(
        (
          await scale.database.db.query<{ status: string; n: number }>(
            "SELECT status, count(*)::int AS n FROM transfers WHERE payroll_request_id = $1 AND transfer_type = 'BANK_TO_BENEFICIARY' GROUP BY status",
            [id],
          )
        ).map((row) => [row.status, row.n]),
      ) as Record<string, number>;
    const startWorker = () =>
      startEntry('src/worker/main.ts', {
        DATABASE_URL: scale.database.url,
        SIMULATED_SETTLEMENT_MS: '300',
        WORKER_POLL_MS: '20',
        WORKER_LEASE_MS: '2000',
        LOG_LEVEL: 'silent',
      });
    // Killed once some payouts are settled and others not: mid-settlement of the batch.
    const first = startWorker();
    const running = (worker: Started) => {
      if (worker.child.exitCode !== null) throw new Error(`the worker exited (${worker.child.exitCode}):\n${worker.stderr.join('\n')}`);
    };
    const settledSoFar = () => {
      running(first);
      return statuses();
    };
    const atKill = await waitFor('some payouts settled', settledSoFar, (now) => (now.COMPLETED ?? 0) + (now.FAILED ?? 0) > 0, {
      deadlineMs: 120_000,
      everyMs: 5,
    });
    first.child.kill('SIGKILL');
    await once(first.child, 'exit');
    const afterKill = await statuses();
    expect((afterKill.COMPLETED ?? 0) + (afterKill.FAILED ?? 0), `the kill must land in the middle: ${JSON.stringify(afterKill)}`).toBeLessThan(PAYOUTS);

    const second = startWorker();
    const requestStatus = async () => {
      running(second);
      return (await read(scale.api, id)).status;
    };
    const status = await waitFor('the request finished', requestStatus, (now) => ['COMPLETED', 'PARTIALLY_COMPLETED', 'FAILED'].includes(now), {
      deadlineMs: 120_000,
      everyMs: 100,
    });
    second.child.kill('SIGTERM');
    await once(second.child, 'exit');
    expect(status, JSON.stringify(await statuses())).toBe('PARTIALLY_COMPLETED');
    await expectPaidOnce(scale.database.db, id);
    // The bank saw one batch and each payout once: the second worker only read the batch's statuses.
    const [batch] = await scale.database.db.query<{ calls: number; item_count: number }>(
      'SELECT sb.calls, sb.item_count FROM simulated_batches sb JOIN payout_batches b ON b.id = sb.batch_id WHERE b.payroll_request_id = $1',
      [id],
    );
    expect(batch).toEqual({ calls: 1, item_count: PAYOUTS });
    const calls = await scale.database.db.query<{ calls: number; n: number }>(
      'SELECT o.calls, count(*)::int AS n FROM simulated_operations o JOIN transfers t ON t.id = o.transfer_id WHERE t.payroll_request_id = $1 AND t.batch_id IS NOT NULL GROUP BY o.calls',
      [id],
    );
    expect(calls).toEqual([{ calls: 1, n: PAYOUTS }]);
    console.log(`[payroll at scale] worker SIGKILLed with ${JSON.stringify(atKill)}; the second finished it: ${status}, every payout once`);
  }, 300_000);
});

/**
 * The crash window between the batch's submission and its record, made to happen: a worker marked
 * the items INITIATED, submitted the batch and died before recording it (the batch still CREATED,
 * its lease run out). The next worker submits the same batch again — the bank knows its id — and
 * every beneficiary is paid once.
 */
describe('crash window between the batch submission and its record', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server?.close());

  it('the batch is submitted again under the same id and each payout is paid once', async () => {
    const api = apiOf(server);
    const worker = workerFor(server);
    const id = await requestWithPayouts(server, api, 40);
    // The dead worker's acts: the items INITIATED, the batch submitted, nothing recorded, the lease run out.
    const [batch] = await server.db.query<{ id: string }>('SELECT id FROM payout_batches WHERE payroll_request_id = $1', [id]);
    await crashWindow.batchSubmittedNotRecorded(server.db, batch!.id, new Date(server.clock.now().getTime() - 1000));
    // Asked to pay today: the bank pays no earlier than the day a file asks for.
    const today = server.clock.now().toISOString().slice(0, 10);
    const first = await worker.batchRails.submitBatch(await loadPayoutBatch(server.db, batch!.id, today));

    await drain(worker);
    const done = await read(api, id);
    expect(done.status).toBe('COMPLETED');
    const payouts = done.transfers.filter((transfer) => transfer.transferType === 'BANK_TO_BENEFICIARY');
    expect(payouts.map((payout) => payout.externalId)).toEqual(payouts.map((payout) => first.externalIds.get(payout.id)));
    const [sent] = await server.db.query<{ calls: number; status: string }>(
      'SELECT sb.calls, b.status FROM simulated_batches sb JOIN payout_batches b ON b.id = sb.batch_id WHERE sb.batch_id = $1',
      [batch!.id],
    );
    expect(sent).toEqual({ calls: 2, status: 'CLOSED' });
    expect(await count(server.db, "SELECT count(*) AS n FROM journal_entries WHERE payroll_request_id = $1 AND kind = 'PAYOUT_SENT'", [id])).toBe(3);
    await expectBooksBalanced(server.db);
  });
});
