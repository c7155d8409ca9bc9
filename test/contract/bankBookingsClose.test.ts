// Bookings close what they answer: a MISSING_BOOKING is resolved by the bank's own later booking or
// return of the payout (its MsgId and AcctSvcrRef recorded); a booking of a payout an operator
// failed and credited back is an exception of its own kind; a statement whose balances are in
// another currency than the account's is refused whole.
import { mkdir, rename } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { executePendingWork } from '../../src/usecases/payroll/execution.js';
import { balancesOf, expectBooksBalanced } from '../support/balances.js';
import { type BankWorld, apply, demo, endToEndIdOf, entry, message, payouts, payrollAtTheBank, report, startBankWorld } from '../support/bankBooks.js';
import { readRequest } from '../support/payroll.js';

let world: BankWorld;
beforeAll(async () => (world = await startBankWorld()), 120_000);
afterAll(() => world?.close());

const db = () => world.server.db;
const admin = () => world.server.as(demo.admin);
const passes = async (count: number) => {
  for (let pass = 0; pass < count; pass++) {
    await executePendingWork(world.worker);
    world.server.clock.advance(2);
  }
};
const exceptionOf = async (transferId: string, kind: string) => {
  const [row] = await db().query<{ id: string }>('SELECT id::text FROM bank_exceptions WHERE transfer_id = $1 AND kind = $2', [transferId, kind]);
  expect(row, `a ${kind} of ${transferId}`).toBeDefined();
  const read = await admin().GET('/v1/admin/bank/exceptions/{exceptionId}', { params: { path: { exceptionId: row!.id } } });
  expect(read.response.status).toBe(200);
  return read.data!.data;
};

describe('applyBankBooks: a MISSING_BOOKING answered by the bank', () => {
  it('is resolved by a later booking, and by a return, of the payout: the message and its AcctSvcrRef recorded', async () => {
    const request = await payrollAtTheBank(world, ['300', '200'], 'settled');
    const [booked, returned] = payouts(request);
    expect([booked!.status, returned!.status]).toEqual(['COMPLETED', 'COMPLETED']);

    // A statement past the grace days, booking neither.
    await apply(world, message('camt.053', [report([], { amount: '0', date: '2026-11-30' })]));
    for (const payout of [booked!, returned!]) expect(await exceptionOf(payout.id, 'MISSING_BOOKING')).toMatchObject({ status: 'OPEN' });

    const booking = message('camt.054', [report([entry('DBIT', booked!.amount, { endToEndId: endToEndIdOf(booked!.id), reference: 'BK-LATE-1' })])]);
    expect(await apply(world, booking)).toMatchObject({ kind: 'applied', exceptions: 0 });
    const answered = await exceptionOf(booked!.id, 'MISSING_BOOKING');
    expect(answered).toMatchObject({
      status: 'RESOLVED',
      resolution: { resolvedBy: 'BANK_FILE', messageId: booking.msgId, bankReference: 'BK-LATE-1', resolvedAt: world.server.clock.now().toISOString() },
    });
    expect(answered.resolution).not.toHaveProperty('resolvedByUserId');
    const after = payouts(await readRequest(world.server, request.id, demo.dana));
    expect(after.find((payout) => payout.id === booked!.id)).toMatchObject({ status: 'COMPLETED', bankBooking: { bankReference: 'BK-LATE-1' } });
    // The other payout's stays open: nothing of the bank's answered it yet.
    expect(await exceptionOf(returned!.id, 'MISSING_BOOKING')).toMatchObject({ status: 'OPEN' });

    const bounced = message('camt.054', [
      report([entry('CRDT', returned!.amount, { endToEndId: endToEndIdOf(returned!.id), reference: 'RT-LATE-2', returnCode: 'AC04', returnText: 'Closed' })]),
    ]);
    expect(await apply(world, bounced)).toMatchObject({ kind: 'applied', exceptions: 0 });
    expect(await exceptionOf(returned!.id, 'MISSING_BOOKING')).toMatchObject({
      status: 'RESOLVED',
      resolution: { resolvedBy: 'BANK_FILE', messageId: bounced.msgId, bankReference: 'RT-LATE-2' },
    });
    const open = await admin().GET('/v1/admin/bank/exceptions', { params: { query: { status: 'OPEN', kind: 'MISSING_BOOKING' } } });
    expect(open.data!.data.items.map((item) => item.transferId)).not.toContain(booked!.id);
    await expectBooksBalanced(db());
  }, 120_000);
});

describe('applyBankBooks: a booking of a payout an operator failed', () => {
  it('is a BOOKED_AFTER_FAILURE, not an AMOUNT_MISMATCH: the bank paid what we credited back; nothing moves', async () => {
    const request = await payrollAtTheBank(world, ['150', '90'], 'none');
    const [failed] = payouts(request);
    const [row] = await db().query<{ batch_id: string; msg_id: string }>('SELECT batch_id::text, msg_id FROM bank_file_batches WHERE payroll_request_id = $1', [
      request.id,
    ]);
    // The transport delivered the file; the bank confirms in writing it will not pay this payout.
    await mkdir(join(world.outbox, 'processed'), { recursive: true });
    await rename(join(world.outbox, `${row!.msg_id}.xml`), join(world.outbox, 'processed', `${row!.msg_id}.xml`));
    const failure = await admin().POST('/v1/admin/bank/batches/{batchId}/fail-payouts', {
      params: { path: { batchId: row!.batch_id } },
      body: { transferIds: [failed!.id], reason: 'The bank confirms it will not pay', bankReference: 'CASE-7' },
    });
    expect(failure.response.status).toBe(200);
    await passes(3);
    expect(payouts(await readRequest(world.server, request.id, demo.dana)).find((payout) => payout.id === failed!.id)?.status).toBe('FAILED');

    const balance = await balancesOf(db(), demo.partnerAed);
    const customer = await balancesOf(db(), demo.acmeUsd);
    const late = message('camt.054', [report([entry('DBIT', failed!.amount, { endToEndId: endToEndIdOf(failed!.id), reference: 'BK-AFTER' })])]);
    expect(await apply(world, late)).toMatchObject({ kind: 'applied', exceptions: 1 });
    expect(await exceptionOf(failed!.id, 'BOOKED_AFTER_FAILURE')).toMatchObject({
      status: 'OPEN',
      kind: 'BOOKED_AFTER_FAILURE',
      bankReference: 'BK-AFTER',
      bookedAmount: failed!.amount,
    });
    expect(await db().query("SELECT 1 FROM bank_exceptions WHERE transfer_id = $1 AND kind = 'AMOUNT_MISMATCH'", [failed!.id])).toEqual([]);
    expect(payouts(await readRequest(world.server, request.id, demo.dana)).find((payout) => payout.id === failed!.id)?.status).toBe('FAILED');
    expect((await balancesOf(db(), demo.partnerAed)).balance.equals(balance.balance)).toBe(true);
    expect((await balancesOf(db(), demo.acmeUsd)).balance.equals(customer.balance)).toBe(true);
    await expectBooksBalanced(db());
  }, 120_000);
});

describe('applyBankBooks: a statement in another currency', () => {
  it("refuses a camt.053 whose balances' currency is not the account's, changing nothing", async () => {
    const statement = report([], { amount: '100.00', date: '2026-12-01' });
    const foreign = message('camt.053', [{ ...statement, balances: statement.balances.map((balance) => ({ ...balance, currency: 'EUR' })) }]);
    const outcome = await apply(world, foreign);
    expect(outcome).toMatchObject({ kind: 'rejected', reason: expect.stringContaining('EUR') });
    expect(await db().query('SELECT 1 FROM bank_books_messages WHERE msg_id = $1', [foreign.msgId])).toEqual([]);
    expect(await db().query('SELECT 1 FROM bank_statements WHERE msg_id = $1', [foreign.msgId])).toEqual([]);
  });
});
