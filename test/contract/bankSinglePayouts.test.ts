// A single payout on the bank rail is in the bank's books as a payroll payout is: a statement past
// the grace days that does not book it raises MISSING_BOOKING (answered by its later booking), and
// its return is matched: the payout RETURNED, what the bank brought back credited to the account it
// was paid from, once, in a balanced entry, with its payout.status_changed event.
import { access, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { components } from '../../generated/api.js';
import { answerPaymentFile } from '../../src/adapters/bank/iso20022/bankSimulator.js';
import { Money } from '../../src/domain/money/money.js';
import { executePendingWork } from '../../src/usecases/payroll/execution.js';
import type { World } from '../../src/world/types.js';
import { balancesOf, expectBooksBalanced } from '../support/balances.js';
import { type BankWorld, apply, demo, endToEndIdOf, entry, message, report, startBankWorld } from '../support/bankBooks.js';
import { worldWith } from '../support/builders.js';
import { demoWorld } from '../support/globalSetupTemplates.js';
import { waitFor } from '../support/polling.js';

/** Acme's FIREBLOCKS account, given an IBAN and a BIC: its single payouts go to the bank as files. */
const fireblocks = { accountId: '7b1e0004-0000-4000-8000-000000000001', iban: 'AE070331234567890123456', bic: 'EBILAEAD' };
const usd = { iban: fireblocks.iban, currency: 'USD' };

let world: BankWorld;
beforeAll(async () => {
  const bankWorld = worldWith({ accounts: { [fireblocks.accountId]: { iban: fireblocks.iban, bic: fireblocks.bic } } }, demoWorld() as World);
  world = await startBankWorld({ world: bankWorld });
}, 120_000);
afterAll(() => world?.close());

const dana = () => world.server.as(demo.dana);
const admin = () => world.server.as(demo.admin);

/** One worker pass, the clock then moved past the recheck: what `waitFor` repeats until the bank's files have done their part. */
async function pass(): Promise<void> {
  await executePendingWork(world.worker);
  world.server.clock.advance(2);
}

async function readPayout(payoutId: string) {
  const read = await dana().GET('/v1/accounts/{accountId}/payouts/{payoutId}', { params: { path: { accountId: fireblocks.accountId, payoutId } } });
  expect(read.response.status).toBe(200);
  return read.data!.data;
}

/**
 * A single payout of `amount` USD to Priya, made through the API, sent to the bank in a payment file
 * of its own (read from the outbox), answered by the bank's pain.002: `settled` ACSC, so that it is
 * COMPLETED, or `pending` the acceptance only, so that it stays PROCESSING.
 */
async function paidSinglePayout(amount: string, report: 'settled' | 'pending' = 'settled') {
  const accountId = fireblocks.accountId;
  const query = { amount, currency: 'USD', beneficiaryId: demo.priya };
  const estimate = await dana().GET('/v1/accounts/{accountId}/payouts/estimate', { params: { path: { accountId }, query } });
  const created = await dana().POST('/v1/accounts/{accountId}/payouts', {
    params: { path: { accountId } },
    body: { ...query, feeHash: estimate.data!.data.feeHash },
  });
  expect(created.response.status).toBe(201);
  const payoutId = created.data!.data.id;
  const file = join(world.outbox, `${endToEndIdOf(payoutId)}.xml`);
  const written = () =>
    access(file).then(
      () => true,
      () => false,
    );
  await waitFor(`the payment file of payout ${payoutId}`, async () => (await pass(), written()), Boolean, { deadlineMs: 60_000 });
  const answer = await answerPaymentFile(await readFile(file, 'utf8'), () => false, world.server.clock.now());
  await writeFile(join(world.inbox, `${answer.immediate.msgId}.xml`), answer.immediate.xml);
  if (report === 'settled') await writeFile(join(world.inbox, `${answer.settled!.msgId}.xml`), answer.settled!.xml);
  const expected = report === 'settled' ? 'COMPLETED' : 'PROCESSING';
  return waitFor(
    `payout ${payoutId} ${expected}`,
    async () => (await pass(), readPayout(payoutId)),
    (payout) => payout.status === expected,
    {
      deadlineMs: 60_000,
    },
  );
}

type PayoutEvent = Extract<components['schemas']['WebhookEvent'], { type: 'payout.status_changed' }>;

/** The customer's payout.status_changed events after `cursor`, every page of them; with the cursor after the last. */
async function payoutEventsPage(cursor: string | undefined): Promise<{ events: PayoutEvent[]; cursor: string | undefined }> {
  const events: PayoutEvent[] = [];
  for (;;) {
    const query = { type: ['payout.status_changed' as const], limit: 100, ...(cursor && { cursor }) };
    const page = await dana().GET('/v1/customers/events', { params: { query } });
    expect(page.response.status).toBe(200);
    const { items, nextCursor, hasMore } = page.data!.data;
    events.push(...items.filter((event): event is PayoutEvent => event.type === 'payout.status_changed'));
    cursor = nextCursor ?? cursor;
    if (!hasMore) return { events, cursor };
  }
}

const lastPayoutEventCursor = async () => (await payoutEventsPage(undefined)).cursor;
const payoutEventsAfter = async (cursor: string | undefined) => (await payoutEventsPage(cursor)).events;

async function missingBookingOf(payoutId: string) {
  const listed = await admin().GET('/v1/admin/bank/exceptions', { params: { query: { kind: 'MISSING_BOOKING' } } });
  expect(listed.response.status).toBe(200);
  return listed.data!.data.items.find((item) => item.transferId === payoutId);
}

describe('a single payout on the bank rail: MISSING_BOOKING', () => {
  it('is raised by a statement past the grace days that does not book it, and answered by its later booking', async () => {
    const payout = await paidSinglePayout('250.00');
    expect(await missingBookingOf(payout.id)).toBeUndefined();

    await apply(world, message('camt.053', [report([], { amount: '0', date: '2026-11-30' }, usd)]));
    expect(await missingBookingOf(payout.id)).toMatchObject({
      status: 'OPEN',
      endToEndId: endToEndIdOf(payout.id),
      expectedAmount: '250.00',
      currencyCode: 'USD',
    });

    const booking = message('camt.054', [
      report([entry('DBIT', '250.00', { endToEndId: endToEndIdOf(payout.id), reference: 'BK-SINGLE-1', currency: 'USD' })], undefined, usd),
    ]);
    expect(await apply(world, booking)).toMatchObject({ kind: 'applied', exceptions: 0 });
    expect(await missingBookingOf(payout.id)).toMatchObject({
      status: 'RESOLVED',
      resolution: { resolvedBy: 'BANK_FILE', messageId: booking.msgId, bankReference: 'BK-SINGLE-1' },
    });
    expect(await readPayout(payout.id)).toMatchObject({ status: 'COMPLETED', bankBooking: { bankReference: 'BK-SINGLE-1' } });
    await expectBooksBalanced(world.server.db);
  }, 120_000);
});

describe('a single payout on the bank rail: a booking', () => {
  it('completes a payout the status report left PROCESSING, its booking kept on it, and counts it once', async () => {
    const payout = await paidSinglePayout('180.00', 'pending');
    const booked = entry('DBIT', '180.00', { endToEndId: endToEndIdOf(payout.id), reference: 'BK-SINGLE-2', currency: 'USD' });
    const booking = message('camt.054', [report([booked], undefined, usd)]);
    expect(await apply(world, booking)).toMatchObject({ kind: 'applied', exceptions: 0 });
    // The day's statement reports the same booking: recognised, nothing more.
    expect(await apply(world, message('camt.053', [report([booked], undefined, usd)]))).toMatchObject({ kind: 'applied', exceptions: 0 });
    const completed = await waitFor(
      `payout ${payout.id} COMPLETED`,
      async () => (await pass(), readPayout(payout.id)),
      (read) => read.status === 'COMPLETED',
      {
        deadlineMs: 60_000,
      },
    );
    expect(completed).toMatchObject({ bankBooking: { bankReference: 'BK-SINGLE-2', charges: '0.00' } });
    await expectBooksBalanced(world.server.db);
  }, 120_000);
});

describe('a single payout on the bank rail: a return', () => {
  it('returns the payout: RETURNED, the account credited what came back exactly once, the ledger balanced, the event recorded', async () => {
    const payout = await paidSinglePayout('400.00');
    const before = await balancesOf(world.server.db, payout.accountCurrencyId);
    const cursor = await lastPayoutEventCursor();
    const line = { endToEndId: endToEndIdOf(payout.id), reference: 'RT-SINGLE-1', returnCode: 'AC04', returnText: 'Account closed', currency: 'USD' };
    const bounced = message('camt.054', [report([entry('CRDT', '392.50', line)], undefined, usd)]);

    expect(await apply(world, bounced)).toMatchObject({ kind: 'applied', exceptions: 0 });
    // The same file fed again, and the day's statement reporting the same return: nothing more moves.
    expect(await apply(world, bounced)).toEqual({ kind: 'already-applied' });
    expect(await apply(world, message('camt.053', [report([entry('CRDT', '392.50', line)], undefined, usd)]))).toMatchObject({
      kind: 'applied',
      exceptions: 0,
    });

    const returned = await readPayout(payout.id);
    expect(returned).toMatchObject({
      status: 'RETURNED',
      bankReturn: {
        reasonCode: 'AC04',
        reasonText: 'Account closed',
        bankReference: 'RT-SINGLE-1',
        amount: '392.50',
        charges: '7.50',
        creditedAmount: '392.50',
      },
    });
    const after = await balancesOf(world.server.db, payout.accountCurrencyId);
    expect(after.balance.minus(before.balance).equals(new Money('392.50')), `credited ${after.balance.minus(before.balance).toFixed()}`).toBe(true);
    expect(after.available.minus(before.available).equals(new Money('392.50'))).toBe(true);
    await expectBooksBalanced(world.server.db);

    const returnedEvents = await waitFor(
      `the RETURNED event of payout ${payout.id}`,
      async () => (await payoutEventsAfter(cursor)).filter((event) => event.data.id === payout.id && event.data.status === 'RETURNED'),
      (events) => events.length > 0,
    );
    expect(returnedEvents).toHaveLength(1);

    const exceptions = await admin().GET('/v1/admin/bank/exceptions', { params: { query: { status: 'OPEN' } } });
    expect(exceptions.data!.data.items.filter((item) => item.endToEndId === endToEndIdOf(payout.id))).toEqual([]);
  }, 120_000);

  it('a return of a payout that is not COMPLETED moves nothing and is an exception', async () => {
    const payout = await paidSinglePayout('120.00');
    const line = { endToEndId: endToEndIdOf(payout.id), reference: 'RT-SINGLE-2', returnCode: 'AC04', currency: 'USD' };
    expect(await apply(world, message('camt.054', [report([entry('CRDT', '120.00', line)], undefined, usd)]))).toMatchObject({ exceptions: 0 });
    const before = await balancesOf(world.server.db, payout.accountCurrencyId);
    const again = { ...line, reference: 'RT-SINGLE-3' };
    expect(await apply(world, message('camt.054', [report([entry('CRDT', '120.00', again)], undefined, usd)]))).toMatchObject({ exceptions: 1 });
    const after = await balancesOf(world.server.db, payout.accountCurrencyId);
    expect(after.balance.equals(before.balance)).toBe(true);
    expect((await readPayout(payout.id)).status).toBe('RETURNED');
    await expectBooksBalanced(world.server.db);
  }, 120_000);
});
