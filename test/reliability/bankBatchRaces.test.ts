// A resend and a failure of the same unanswered payment file, raced both ways: the bank must never
// both receive a copy of the file and see its payout credited back to the customer. Exactly one
// wins (the file waits in the outbox for the transport, or the payout is failed and credited back),
// and the ledger sums to zero per currency after each race.
import { mkdir, readdir, rename } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { executePendingWork } from '../../src/usecases/payroll/execution.js';
import { expectBooksBalanced } from '../support/balances.js';
import { type BankWorld, demo, payouts, payrollAtTheBank, startBankWorld } from '../support/bankBooks.js';
import { readRequest } from '../support/payroll.js';

let world: BankWorld;

beforeAll(async () => {
  world = await startBankWorld();
  await mkdir(join(world.outbox, 'processed'), { recursive: true });
}, 120_000);
afterAll(() => world?.close());

const admin = () => world.server.as(demo.admin);

async function passes(count: number): Promise<void> {
  for (let pass = 0; pass < count; pass++) {
    await executePendingWork(world.worker);
    world.server.clock.advance(2);
  }
}

/** A payroll of two payouts (one to fail, one left open, so the file stays AWAITING_BANK) whose file the transport has delivered and the bank never answered. */
async function deliveredUnansweredBatch(): Promise<{ requestId: string; batchId: string; msgId: string; payoutId: string }> {
  const request = await payrollAtTheBank(world, ['500', '600'], 'none', [demo.priya, demo.mohammed]);
  expect(request.status).toBe('PAYOUT_INITIATED');
  const [row] = await world.server.db.query<{ batch_id: string; msg_id: string }>(
    'SELECT batch_id::text, msg_id FROM bank_file_batches WHERE payroll_request_id = $1',
    [request.id],
  );
  const { batch_id: batchId, msg_id: msgId } = row!;
  await rename(join(world.outbox, `${msgId}.xml`), join(world.outbox, 'processed', `${msgId}.xml`));
  return { requestId: request.id, batchId, msgId, payoutId: payouts(request)[0]!.id };
}

type Order = 'resend first' | 'fail first';

describe('resendBankBatch against failBankBatchPayouts', () => {
  for (const order of ['resend first', 'fail first'] as Order[]) {
    it(`lets exactly one through (${order}): the file leaves, or the payout is credited back`, async () => {
      for (let round = 0; round < 3; round++) {
        const { requestId, batchId, msgId, payoutId } = await deliveredUnansweredBatch();
        const path = { params: { path: { batchId } } };
        const resend = () => admin().POST('/v1/admin/bank/batches/{batchId}/resend', path);
        const fail = () =>
          admin().POST('/v1/admin/bank/batches/{batchId}/fail-payouts', {
            ...path,
            body: { transferIds: [payoutId], reason: 'The bank confirms the file never arrived', bankReference: `CASE-${round}` },
          });
        const [resent, failed] =
          order === 'resend first' ? await Promise.all([resend(), fail()]) : await Promise.all([fail(), resend()]).then(([f, r]) => [r, f] as const);

        // Whichever came second was refused, with the reason the first one gives it.
        expect([resent.response.status, failed.response.status].sort()).toEqual([200, 409]);
        if (resent.response.status === 200) {
          expect(resent.data!.data.outcome).toBe('WRITTEN');
          expect(failed.error).toMatchObject({ success: false, error: { code: 'INVALID_STATE', reason: 'BANK_FILE_IN_OUTBOX' } });
        } else {
          expect(resent.error).toMatchObject({ success: false, error: { code: 'INVALID_STATE', reason: 'PAYOUT_ALREADY_SETTLED' } });
        }

        await passes(3);
        const fileLeaves = (await readdir(world.outbox)).includes(`${msgId}.xml`);
        const payout = payouts(await readRequest(world.server, requestId, demo.dana)).find((transfer) => transfer.id === payoutId)!;
        const creditsBack = await world.server.db.query("SELECT 1 FROM journal_entries WHERE kind = 'PAYOUT_FAILED_CREDIT_BACK' AND transfer_id = $1", [
          payoutId,
        ]);
        expect({ fileLeaves, creditedBack: creditsBack.length > 0 }, `round ${round}`).toEqual(
          resent.response.status === 200 ? { fileLeaves: true, creditedBack: false } : { fileLeaves: false, creditedBack: true },
        );
        expect(payout.status).toBe(fileLeaves ? 'PROCESSING' : 'FAILED');

        // The transport delivers what waits, the bank confirms the rest unpaid: the file is answered in
        // full, so the worker's few batches a pass go to the next round's file.
        if (fileLeaves) await rename(join(world.outbox, `${msgId}.xml`), join(world.outbox, 'processed', `${msgId}.xml`));
        const open = payouts(await readRequest(world.server, requestId, demo.dana))
          .filter((transfer) => transfer.status === 'PROCESSING')
          .map((transfer) => transfer.id);
        const rest = await admin().POST('/v1/admin/bank/batches/{batchId}/fail-payouts', {
          ...path,
          body: { transferIds: open, reason: 'The bank confirms it will not pay', bankReference: `CASE-${round}-REST` },
        });
        expect(rest.response.status).toBe(200);
        await passes(3);
        expect((await readRequest(world.server, requestId, demo.dana)).status).toBe('FAILED');

        expect(await world.server.db.query('SELECT currency_code FROM postings GROUP BY currency_code HAVING sum(amount) <> 0')).toEqual([]);
        await expectBooksBalanced(world.server.db);
      }
    }, 240_000);
  }
});
