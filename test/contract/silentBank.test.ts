// A way out of a silent bank, through the typed client: a payroll's payment file the bank never
// answers is listed (age, payouts, amount, MsgId), resent as the very same bytes, and its payouts
// failed by name on the bank's written confirmation: credited back by the worker as a rejection
// would be, the ledger zero per currency, the events emitted, the request out of PAYOUT_INITIATED.
import { createHash } from 'node:crypto';
import { mkdir, readFile, readdir, rename, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPrometheusMetrics } from '../../src/observability/prometheus.js';
import { unansweredBankBatches } from '../../src/store/bank/bankBatches.js';
import { executePendingWork } from '../../src/usecases/payroll/execution.js';
import { expectBooksBalanced } from '../support/balances.js';
import { type BankWorld, demo, payouts, payrollAtTheBank, startBankWorld } from '../support/bankBooks.js';
import { readRequest } from '../support/payroll.js';

let world: BankWorld;
let requestId: string;
let batchId: string;
let msgId: string;
let payoutIds: string[];

beforeAll(async () => {
  world = await startBankWorld();
  const request = await payrollAtTheBank(world, ['1000', '1500.50', '700'], 'none');
  expect(request.status).toBe('PAYOUT_INITIATED');
  requestId = request.id;
  payoutIds = payouts(request).map((payout) => payout.id);
  const [row] = await world.server.db.query<{ batch_id: string; msg_id: string }>(
    'SELECT batch_id::text, msg_id FROM bank_file_batches WHERE payroll_request_id = $1',
    [requestId],
  );
  ({ batch_id: batchId, msg_id: msgId } = row!);
}, 120_000);
afterAll(() => world?.close());

const admin = () => world.server.as(demo.admin);
const customer = () => world.server.as(demo.dana);
const batchPath = () => ({ params: { path: { batchId } } });
const failBody = (transferIds: string[]) => ({ transferIds, reason: 'The bank confirms the file never arrived', bankReference: 'CASE-42' });

async function passes(count: number): Promise<void> {
  for (let pass = 0; pass < count; pass++) {
    await executePendingWork(world.worker);
    world.server.clock.advance(2);
  }
}

describe('GET /v1/admin/bank/batches', () => {
  it('lists the file the bank never answered, with its age, payouts, amount and MsgId', async () => {
    world.server.clock.advance(13 * 3600);
    const listed = await admin().GET('/v1/admin/bank/batches', { params: { query: { unanswered: true } } });
    expect(listed.response.status).toBe(200);
    const batch = listed.data!.data.items.find((item) => item.batchId === batchId)!;
    expect(batch).toMatchObject({
      messageId: msgId,
      payrollRequestId: requestId,
      status: 'AWAITING_BANK',
      currencyCode: 'AED',
      payoutCount: 3,
      openPayoutCount: 3,
      reportCount: 0,
      resendCount: 0,
      overdue: true,
    });
    expect(batch.ageSeconds).toBeGreaterThanOrEqual(13 * 3600);
    expect(batch.writtenAt).toBeDefined();
    const [sum] = await world.server.db.query<{ total: string }>(
      "SELECT sum(amount)::text AS total FROM transfers WHERE payroll_request_id = $1 AND transfer_type = 'BANK_TO_BENEFICIARY'",
      [requestId],
    );
    expect(Number(batch.amount)).toBe(Number(sum!.total));
    expect(listed.data!.data.nextCursor).toBeNull();

    // What the alert reads: the oldest unanswered file's age against the bound.
    const unanswered = await unansweredBankBatches(world.server.db, world.server.clock.now());
    expect(unanswered).toEqual({ count: 1, oldestSeconds: batch.ageSeconds });
    const { registry } = createPrometheusMetrics({
      pools: {},
      backlog: async () => ({ items: [], failingEndpoints: 0, bankExceptions: [], bankBatches: { ...unanswered, maxAgeSeconds: 43_200 } }),
    });
    const scraped = await registry.metrics();
    expect(scraped).toContain(`payroll_bank_batch_oldest_unanswered_seconds ${batch.ageSeconds}`);
    expect(scraped).toContain('payroll_bank_batch_unanswered_max_age_seconds 43200');
    expect(scraped).toContain('payroll_bank_batches_unanswered 1');
  });

  it('refuses a customer, and a cursor of another filter', async () => {
    expect((await customer().GET('/v1/admin/bank/batches', {})).response.status).toBe(403);
    const first = await admin().GET('/v1/admin/bank/batches', { params: { query: { limit: 1 } } });
    expect(first.response.status).toBe(200);
    const cursor = first.data!.data.nextCursor;
    if (cursor) {
      const mismatched = await admin().GET('/v1/admin/bank/batches', { params: { query: { unanswered: true, cursor } } });
      expect(mismatched.response.status).toBe(400);
    }
  });
});

describe('POST /v1/admin/bank/batches/{batchId}/resend', () => {
  it('writes the very same file again, owner-only, once the transport has taken it; idempotent while it waits', async () => {
    const waiting = await admin().POST('/v1/admin/bank/batches/{batchId}/resend', batchPath());
    expect(waiting.response.status).toBe(200);
    expect(waiting.data!.data).toMatchObject({ outcome: 'ALREADY_IN_OUTBOX', fileName: `${msgId}.xml`, resentByUserId: demo.admin });

    // The transport delivers the file: it moves it to processed/.
    const original = await readFile(join(world.outbox, `${msgId}.xml`));
    await mkdir(join(world.outbox, 'processed'), { recursive: true });
    await rename(join(world.outbox, `${msgId}.xml`), join(world.outbox, 'processed', `${msgId}.xml`));

    const resent = await admin().POST('/v1/admin/bank/batches/{batchId}/resend', batchPath());
    expect(resent.response.status).toBe(200);
    expect(resent.data!.data).toMatchObject({
      outcome: 'WRITTEN',
      sha256: createHash('sha256').update(original).digest('hex'),
      bytes: original.length,
      batch: { batchId, resendCount: 1, status: 'AWAITING_BANK' },
    });
    const written = join(world.outbox, `${msgId}.xml`);
    expect((await readFile(written)).equals(original)).toBe(true);
    expect((await stat(written)).mode & 0o777).toBe(0o600);
    expect((await readdir(world.outbox)).filter((name) => name.startsWith('.'))).toEqual([]);

    const again = await admin().POST('/v1/admin/bank/batches/{batchId}/resend', batchPath());
    expect(again.data!.data).toMatchObject({ outcome: 'ALREADY_IN_OUTBOX', batch: { resendCount: 1 } });
    const actions = await world.server.db.query(
      'SELECT action, outcome, user_id::text AS "userId" FROM bank_file_batch_actions WHERE batch_id = $1 ORDER BY at',
      [batchId],
    );
    expect(actions).toHaveLength(3);
    expect(actions[1]).toEqual({ action: 'RESEND', outcome: 'WRITTEN', userId: demo.admin });
  });

  it('refuses a customer and an unknown batch', async () => {
    expect((await customer().POST('/v1/admin/bank/batches/{batchId}/resend', batchPath())).response.status).toBe(403);
    const unknown = await admin().POST('/v1/admin/bank/batches/{batchId}/resend', { params: { path: { batchId: '5d0c6a3e-7b2f-4c1e-9a8d-2f3b4c5d6e7f' } } });
    expect(unknown.response.status).toBe(404);
    expect(unknown.error).toMatchObject({ success: false, error: { code: 'NOT_FOUND' } });
  });
});

describe('POST /v1/admin/bank/batches/{batchId}/fail-payouts', () => {
  it('fails named payouts with the bank’s confirmation: credited back by the worker, balanced, announced, audited', async () => {
    const [first, second, third] = payoutIds as [string, string, string];
    const dana = customer();
    expect((await dana.POST('/v1/admin/bank/batches/{batchId}/fail-payouts', { ...batchPath(), body: failBody([first]) })).response.status).toBe(403);
    const missing = await admin().POST('/v1/admin/bank/batches/{batchId}/fail-payouts', {
      params: { path: { batchId: '5d0c6a3e-7b2f-4c1e-9a8d-2f3b4c5d6e7f' } },
      body: failBody([first]),
    });
    expect(missing.response.status).toBe(404);
    const notInBatch = await admin().POST('/v1/admin/bank/batches/{batchId}/fail-payouts', {
      ...batchPath(),
      body: failBody([first, '5d0c6a3e-7b2f-4c1e-9a8d-2f3b4c5d6e7f']),
    });
    expect(notInBatch.response.status).toBe(400);
    expect(notInBatch.error).toMatchObject({ error: { code: 'VALIDATION_ERROR', reason: 'PAYOUT_NOT_IN_BATCH', field: '/transferIds/1' } });

    // The resent copy still waits in the outbox: the bank may yet pay it, so nothing is failed.
    const waiting = await admin().POST('/v1/admin/bank/batches/{batchId}/fail-payouts', { ...batchPath(), body: failBody([first]) });
    expect(waiting.response.status).toBe(409);
    expect(waiting.error).toMatchObject({ error: { code: 'INVALID_STATE', reason: 'BANK_FILE_IN_OUTBOX' } });
    await rename(join(world.outbox, `${msgId}.xml`), join(world.outbox, 'processed', `${msgId}.xml`));

    const failed = await admin().POST('/v1/admin/bank/batches/{batchId}/fail-payouts', { ...batchPath(), body: failBody([first, second]) });
    expect(failed.response.status).toBe(200);
    expect(failed.data!.data).toMatchObject({ transferIds: [first, second], failedByUserId: demo.admin, batch: { openPayoutCount: 1 } });
    expect(failed.data!.data.failureReason).toContain('CASE-42');

    const twice = await admin().POST('/v1/admin/bank/batches/{batchId}/fail-payouts', { ...batchPath(), body: failBody([third, first]) });
    expect(twice.response.status).toBe(409);
    expect(twice.error).toMatchObject({ error: { code: 'INVALID_STATE', reason: 'PAYOUT_ALREADY_SETTLED', field: '/transferIds/1' } });
    const resend = await admin().POST('/v1/admin/bank/batches/{batchId}/resend', batchPath());
    expect(resend.error).toMatchObject({ error: { code: 'INVALID_STATE', reason: 'PAYOUT_ALREADY_SETTLED' } });

    await passes(3);
    const partly = await readRequest(world.server, requestId, demo.dana);
    const byId = new Map(payouts(partly).map((payout) => [payout.id, payout]));
    expect(byId.get(first)).toMatchObject({ status: 'FAILED', failureReason: failed.data!.data.failureReason });
    expect(byId.get(second)?.status).toBe('FAILED');
    expect(byId.get(third)?.status).toBe('PROCESSING');
    expect(partly.status).toBe('PAYOUT_INITIATED');

    // The last one too: the request leaves PAYOUT_INITIATED by the rule every payout outcome follows.
    expect((await admin().POST('/v1/admin/bank/batches/{batchId}/fail-payouts', { ...batchPath(), body: failBody([third]) })).response.status).toBe(200);
    await passes(3);
    const done = await readRequest(world.server, requestId, demo.dana);
    expect(done.status).toBe('FAILED');
    expect(payouts(done).every((payout) => payout.status === 'FAILED')).toBe(true);

    await expectBooksBalanced(world.server.db);
    expect(await world.server.db.query('SELECT currency_code FROM postings GROUP BY currency_code HAVING sum(amount) <> 0')).toEqual([]);
    const events = await world.server.db.query<{ resource_id: string }>(
      `SELECT resource_id::text FROM events WHERE type = 'transfer.status_changed' AND payload->>'status' = 'FAILED' AND resource_id = ANY($1::uuid[])`,
      [payoutIds],
    );
    expect(events.map((event) => event.resource_id).sort()).toEqual([...payoutIds].sort());
    const statusEvents = await world.server.db.query(
      `SELECT 1 FROM events WHERE type = 'payroll_request.status_changed' AND resource_id = $1 AND payload->>'status' = 'FAILED'`,
      [requestId],
    );
    expect(statusEvents).toHaveLength(1);
    const audit = await world.server.db.query(
      `SELECT user_id::text AS "userId", reason, bank_reference AS "bankReference", cardinality(transfer_ids) AS n
         FROM bank_file_batch_actions WHERE batch_id = $1 AND action = 'FAIL_PAYOUTS' ORDER BY at, n DESC`,
      [batchId],
    );
    expect(audit).toEqual([
      { userId: demo.admin, reason: 'The bank confirms the file never arrived', bankReference: 'CASE-42', n: 2 },
      { userId: demo.admin, reason: 'The bank confirms the file never arrived', bankReference: 'CASE-42', n: 1 },
    ]);

    // Answered in full now: neither listed as unanswered nor open to another action.
    const listed = await admin().GET('/v1/admin/bank/batches', { params: { query: { unanswered: true } } });
    expect(listed.data!.data.items.map((item) => item.batchId)).not.toContain(batchId);
    const after = await admin().POST('/v1/admin/bank/batches/{batchId}/fail-payouts', { ...batchPath(), body: failBody([third]) });
    expect(after.response.status).toBe(409);
    expect(after.error).toMatchObject({ error: { code: 'INVALID_STATE', reason: 'BANK_BATCH_NOT_AWAITING' } });
  }, 120_000);
});
