// What the bank booked (camt.053/054 as BankToCustomerMessage values) applied to our books through
// the real use case, on payouts paid over the ISO 20022 rail: bookings complete and record, charges
// and returns post balanced entries, returns revise the request, whatever does not match becomes an
// exception, and a statement is reconciled against the ledger.
import { Decimal } from 'decimal.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { balancesOf, expectBooksBalanced } from '../support/balances.js';
import { type BankWorld, apply, demo, endToEndIdOf, entry, message, payouts, payrollAtTheBank, report, startBankWorld } from '../support/bankBooks.js';
import { readRequest } from '../support/payroll.js';

let world: BankWorld;
beforeAll(async () => (world = await startBankWorld()), 120_000);
afterAll(() => world?.close());

const db = () => world.server.db;
const passes = async (count: number) => {
  const { executePendingWork } = await import('../../src/usecases/payroll/execution.js');
  for (let pass = 0; pass < count; pass++) await executePendingWork(world.worker);
};
const exceptionsOf = (msgId: string) =>
  db().query<{ kind: string; transfer_id: string | null; difference: string | null }>(
    'SELECT kind, transfer_id, difference::text FROM bank_exceptions WHERE msg_id = $1 ORDER BY kind',
    [msgId],
  );
const eventsOf = (resourceId: string, type: string) =>
  db().query<{ payload: { status: string; returnedAmount?: string; bankReturn?: object; bankBooking?: object } }>(
    'SELECT payload FROM events WHERE resource_id = $1 AND type = $2 ORDER BY sequence',
    [resourceId, type],
  );
const quotedSourceOf = async (splitId: string) =>
  new Decimal((await db().query<{ q: string }>('SELECT quoted_source_currency_amount::text AS q FROM amount_splits WHERE id = $1', [splitId]))[0]!.q);
/** The ledger's balance of the partner-bank AED account before the end of `day`. */
const ledgerAt = async (day: string) =>
  (
    await db().query<{ b: string }>(
      `SELECT COALESCE(sum(p.amount), 0)::numeric(20,2)::text AS b FROM postings p JOIN journal_entries j ON j.id = p.journal_entry_id
        WHERE p.account_currency_id = $1 AND j.created_at < ($2::date + 1)`,
      [demo.partnerAed, day],
    )
  )[0]!.b;

describe('applyBankBooks: bookings', () => {
  it('a booking completes a payout pain.002 left PROCESSING, records its date and reference, and posts its charges', async () => {
    const request = await payrollAtTheBank(world, ['1000', '500'], 'pending');
    const [first, second] = payouts(request);
    expect([first!.status, second!.status]).toEqual(['PROCESSING', 'PROCESSING']);
    const before = await balancesOf(db(), demo.partnerAed);
    const withCharges = new Decimal(first!.amount).plus('5.00').toFixed(2);
    const notification = message('camt.054', [
      report([
        entry('DBIT', withCharges, { endToEndId: endToEndIdOf(first!.id), reference: 'BK-1', charges: '5.00' }),
        entry('DBIT', second!.amount, { endToEndId: endToEndIdOf(second!.id), reference: 'BK-2' }),
      ]),
    ]);
    expect(await apply(world, notification)).toEqual({ kind: 'applied', entries: 2, exceptions: 0 });
    await passes(2);

    const after = await readRequest(world.server, request.id, demo.dana);
    expect(after.status).toBe('COMPLETED');
    const [booked, plain] = payouts(after);
    expect(booked).toMatchObject({ status: 'COMPLETED', bankBooking: { bookedAt: '2026-11-23T00:00:00.000Z', bankReference: 'BK-1', charges: '5.00' } });
    expect(plain).toMatchObject({ status: 'COMPLETED', bankBooking: { bankReference: 'BK-2', charges: '0.00' } });
    // The partner account's ledger follows the bank's: both payouts and the charge left it.
    const expected = before.balance.minus(withCharges).minus(second!.amount);
    expect((await balancesOf(db(), demo.partnerAed)).balance.equals(expected)).toBe(true);
    const charges = await db().query<{ key: string; amount: string }>(
      `SELECT p.account_key AS key, p.amount::text FROM journal_entries j JOIN postings p ON p.journal_entry_id = j.id
        WHERE j.kind = 'BANK_CHARGES' AND j.transfer_id = $1 ORDER BY p.amount`,
      [first!.id],
    );
    expect(charges.map((row) => [row.key, new Decimal(row.amount).toFixed(2)])).toEqual([
      [`PLATFORM_BANK:${demo.partnerAed}`, '-5.00'],
      ['BANK_CHARGES', '5.00'],
    ]);
    await expectBooksBalanced(db());
    // The transfer's COMPLETED event carries its booking.
    const events = await eventsOf(first!.id, 'transfer.status_changed');
    expect(events.at(-1)!.payload).toMatchObject({ status: 'COMPLETED', bankBooking: { bankReference: 'BK-1' } });

    // The same message again changes nothing; the day's statement reporting the same bookings is no duplicate.
    const balance = await balancesOf(db(), demo.partnerAed);
    expect(await apply(world, notification)).toEqual({ kind: 'already-applied' });
    const statement = message('camt.053', [
      report([
        entry('DBIT', withCharges, { endToEndId: endToEndIdOf(first!.id), reference: 'BK-1', charges: '5.00' }),
        entry('DBIT', second!.amount, { endToEndId: endToEndIdOf(second!.id), reference: 'BK-2' }),
      ]),
    ]);
    expect(await apply(world, statement)).toEqual({ kind: 'applied', entries: 2, exceptions: 0 });
    expect((await balancesOf(db(), demo.partnerAed)).balance.equals(balance.balance)).toBe(true);
    expect(await readRequest(world.server, request.id, demo.dana)).toEqual(after);
  }, 120_000);

  it('a booking for another amount than the payout is an AMOUNT_MISMATCH, one of a payout the bank rejected a BOOKED_AFTER_FAILURE; neither completes anything', async () => {
    const request = await payrollAtTheBank(world, ['120', '80'], 'settled', [demo.priya, demo.olenaFail]);
    const [paid, bounced] = payouts(request);
    const pending = payouts(await payrollAtTheBank(world, ['60'], 'pending'))[0]!;
    const balance = await balancesOf(db(), demo.partnerAed);
    const wrong = message('camt.054', [
      report([
        entry('DBIT', new Decimal(pending.amount).minus('1.00').toFixed(2), { endToEndId: endToEndIdOf(pending.id), reference: 'BK-W1' }),
        entry('DBIT', bounced!.amount, { endToEndId: endToEndIdOf(bounced!.id), reference: 'BK-W2' }),
        entry('DBIT', paid!.amount, { endToEndId: endToEndIdOf(paid!.id), reference: 'BK-W3' }),
      ]),
    ]);
    expect(await apply(world, wrong)).toEqual({ kind: 'applied', entries: 3, exceptions: 2 });
    expect((await exceptionsOf(wrong.msgId)).map((row) => [row.kind, row.transfer_id, row.difference]).sort()).toEqual(
      [
        ['AMOUNT_MISMATCH', pending.id, '-1.00'],
        // The bank paid in full what it had rejected, and we credited back.
        ['BOOKED_AFTER_FAILURE', bounced!.id, bounced!.amount],
      ].sort(),
    );
    const [row] = await db().query<{ status: string; bank_booking: object | null }>('SELECT status, bank_booking FROM transfers WHERE id = $1', [pending.id]);
    expect(row).toEqual({ status: 'PROCESSING', bank_booking: null });
    expect((await balancesOf(db(), demo.partnerAed)).balance.equals(balance.balance)).toBe(true);
  }, 120_000);

  it("a booking finer than the currency's minor units is an AMOUNT_PRECISION kept as the bank wrote it; nothing is rounded or booked", async () => {
    const pending = payouts(await payrollAtTheBank(world, ['75'], 'pending'))[0]!;
    const balance = await balancesOf(db(), demo.partnerAed);
    const finer = message('camt.054', [
      report([
        entry('DBIT', `${new Decimal(pending.amount).toFixed(2)}1`, { endToEndId: endToEndIdOf(pending.id), reference: 'BK-P1' }),
        entry('DBIT', '0.001', { reference: 'BK-P2' }),
      ]),
    ]);
    expect(await apply(world, finer)).toEqual({ kind: 'applied', entries: 2, exceptions: 2 });
    const listed = await world.server.as(demo.admin).GET('/v1/admin/bank/exceptions', { params: { query: { kind: 'AMOUNT_PRECISION' } } });
    const mine = listed.data!.data.items.filter((item) => item.messageId === finer.msgId);
    expect(mine.map((item) => item.bookedAmount).sort()).toEqual(['0.001', `${new Decimal(pending.amount).toFixed(2)}1`].sort());
    const [row] = await db().query<{ status: string; bank_booking: object | null }>('SELECT status, bank_booking FROM transfers WHERE id = $1', [pending.id]);
    expect(row).toEqual({ status: 'PROCESSING', bank_booking: null });
    expect((await balancesOf(db(), demo.partnerAed)).balance.equals(balance.balance)).toBe(true);
  }, 120_000);

  it('refuses a message about an account that is not ours, changing nothing', async () => {
    const stranger = message('camt.054', [
      { ...report([entry('DBIT', '10.00')]), account: { iban: 'DE89370400440532013000', otherId: null, currency: 'EUR' } },
    ]);
    const outcome = await apply(world, stranger);
    expect(outcome).toMatchObject({ kind: 'rejected', reason: expect.stringContaining('DE89370400440532013000') });
    expect(await db().query('SELECT 1 FROM bank_books_messages WHERE msg_id = $1', [stranger.msgId])).toEqual([]);
  });
});

describe('applyBankBooks: returns', () => {
  it('a return makes the payout RETURNED, the request PARTIALLY_COMPLETED then FAILED, and credits the customer exactly', async () => {
    const request = await payrollAtTheBank(world, ['1000', '500'], 'settled');
    expect(request.status).toBe('COMPLETED');
    const [first, second] = payouts(request);
    const customerBefore = await balancesOf(db(), demo.acmeUsd);
    const partnerBefore = await balancesOf(db(), demo.partnerAed);

    // 10.00 AED of return charges: the customer gets the split's quoted source amount less 10.00 / 3.6530, rounded up.
    const returned = new Decimal(first!.amount).minus('10.00').toFixed(2);
    const returnMessage = message('camt.054', [
      report([entry('CRDT', returned, { endToEndId: endToEndIdOf(first!.id), reference: 'RT-1', returnCode: 'AC04', returnText: 'Account closed' })]),
    ]);
    expect(await apply(world, returnMessage)).toEqual({ kind: 'applied', entries: 1, exceptions: 0 });
    const credit = (await quotedSourceOf(first!.payoutInstruction!.id)).minus(new Decimal('10.00').dividedBy('3.6530').toDecimalPlaces(2, Decimal.ROUND_UP));

    const partial = await readRequest(world.server, request.id, demo.dana);
    expect(partial.status).toBe('PARTIALLY_COMPLETED');
    expect(partial.returnedAmount).toBe(credit.toFixed(2));
    expect(payouts(partial)[0]).toMatchObject({
      status: 'RETURNED',
      bankReturn: {
        reasonCode: 'AC04',
        reasonText: 'Account closed',
        bankReference: 'RT-1',
        amount: returned,
        charges: '10.00',
        creditedAmount: credit.toFixed(2),
      },
    });
    expect((await balancesOf(db(), demo.acmeUsd)).balance.equals(customerBefore.balance.plus(credit))).toBe(true);
    expect((await balancesOf(db(), demo.partnerAed)).balance.equals(partnerBefore.balance.plus(returned))).toBe(true);
    expect((await eventsOf(first!.id, 'transfer.status_changed')).at(-1)!.payload).toMatchObject({ status: 'RETURNED', bankReturn: { reasonCode: 'AC04' } });
    expect((await eventsOf(request.id, 'payroll_request.status_changed')).at(-1)!.payload).toMatchObject({
      status: 'PARTIALLY_COMPLETED',
      returnedAmount: credit.toFixed(2),
    });
    await expectBooksBalanced(db());

    // The last paid payout returned in full: none is left paid, the request is FAILED.
    const full = message('camt.054', [
      report([entry('CRDT', second!.amount, { endToEndId: endToEndIdOf(second!.id), reference: 'RT-2', returnCode: 'AC01' })]),
    ]);
    expect(await apply(world, full)).toEqual({ kind: 'applied', entries: 1, exceptions: 0 });
    const secondCredit = await quotedSourceOf(second!.payoutInstruction!.id);
    const failed = await readRequest(world.server, request.id, demo.dana);
    expect(failed.status).toBe('FAILED');
    expect(failed.returnedAmount).toBe(credit.plus(secondCredit).toFixed(2));
    expect((await eventsOf(request.id, 'payroll_request.status_changed')).at(-1)!.payload).toMatchObject({ status: 'FAILED' });
    expect((await balancesOf(db(), demo.acmeUsd)).balance.equals(customerBefore.balance.plus(credit).plus(secondCredit))).toBe(true);
    await expectBooksBalanced(db());
  }, 120_000);

  it('a second return, a return of a FAILED payout and one larger than the payout move no money and become exceptions', async () => {
    const request = await payrollAtTheBank(world, ['300', '200'], 'settled', [demo.priya, demo.olenaFail]);
    const [paid, bounced] = payouts(request);
    expect([paid!.status, bounced!.status]).toEqual(['COMPLETED', 'FAILED']);
    const first = message('camt.054', [report([entry('CRDT', paid!.amount, { endToEndId: endToEndIdOf(paid!.id), reference: 'RT-A', returnCode: 'AC04' })])]);
    expect(await apply(world, first)).toMatchObject({ kind: 'applied', exceptions: 0 });
    const customer = await balancesOf(db(), demo.acmeUsd);
    const partner = await balancesOf(db(), demo.partnerAed);
    const settled = await readRequest(world.server, request.id, demo.dana);
    expect(settled.status).toBe('FAILED');

    const again = message('camt.054', [
      report([
        entry('CRDT', paid!.amount, { endToEndId: endToEndIdOf(paid!.id), reference: 'RT-A', returnCode: 'AC04' }),
        entry('CRDT', paid!.amount, { endToEndId: endToEndIdOf(paid!.id), reference: 'RT-B', returnCode: 'AC04' }),
        entry('CRDT', bounced!.amount, { endToEndId: endToEndIdOf(bounced!.id), reference: 'RT-C', returnCode: 'AC04' }),
      ]),
    ]);
    expect(await apply(world, again)).toEqual({ kind: 'applied', entries: 3, exceptions: 3 });
    expect((await balancesOf(db(), demo.partnerAed)).balance.equals(partner.balance)).toBe(true);
    expect((await balancesOf(db(), demo.acmeUsd)).balance.equals(customer.balance)).toBe(true);
    expect((await exceptionsOf(again.msgId)).map((row) => [row.kind, row.transfer_id])).toEqual([
      ['DUPLICATE_BOOKING', paid!.id],
      ['DUPLICATE_BOOKING', paid!.id],
      ['UNEXPECTED_CREDIT', bounced!.id],
    ]);

    const other = await payrollAtTheBank(world, ['100'], 'settled');
    const [only] = payouts(other);
    const oversize = message('camt.054', [
      report([entry('CRDT', new Decimal(only!.amount).plus('0.01').toFixed(2), { endToEndId: endToEndIdOf(only!.id), reference: 'RT-D', returnCode: 'AC04' })]),
    ]);
    const customerBeforeOversize = await balancesOf(db(), demo.acmeUsd);
    const partnerBeforeOversize = await balancesOf(db(), demo.partnerAed);
    expect(await apply(world, oversize)).toMatchObject({ kind: 'applied', exceptions: 1 });
    expect((await balancesOf(db(), demo.partnerAed)).balance.equals(partnerBeforeOversize.balance)).toBe(true);
    expect((await exceptionsOf(oversize.msgId)).map((row) => [row.kind, row.difference])).toEqual([['AMOUNT_MISMATCH', '0.01']]);
    expect(payouts(await readRequest(world.server, other.id, demo.dana))[0]!.status).toBe('COMPLETED');

    expect((await balancesOf(db(), demo.acmeUsd)).balance.equals(customerBeforeOversize.balance)).toBe(true);
    const unchanged = await readRequest(world.server, request.id, demo.dana);
    expect([unchanged.status, unchanged.returnedAmount, unchanged.transfers]).toEqual([settled.status, settled.returnedAmount, settled.transfers]);
    await expectBooksBalanced(db());
  }, 180_000);
});

describe('applyBankBooks: statements', () => {
  it('a correct statement reconciles with no exception; one with an unknown reference and a wrong closing balance does not', async () => {
    const request = await payrollAtTheBank(world, ['400', '250'], 'settled');
    const [first, second] = payouts(request);
    const moveToBank = request.transfers.find((transfer) => transfer.transferType === 'PROCESSOR_TO_BANK')!;
    const funded = new Decimal(first!.amount).plus(second!.amount).toFixed(2);
    const lines = [
      entry('CRDT', funded, { endToEndId: endToEndIdOf(moveToBank.id), reference: 'FX-1' }),
      entry('DBIT', first!.amount, { endToEndId: endToEndIdOf(first!.id), reference: 'BK-S1' }),
      entry('DBIT', second!.amount, { endToEndId: endToEndIdOf(second!.id), reference: 'BK-S2' }),
    ];
    const closing = await ledgerAt('2026-11-23');
    const good = message('camt.053', [report(lines, { amount: closing })]);
    expect(await apply(world, good)).toEqual({ kind: 'applied', entries: 3, exceptions: 0 });
    const [statement] = await db().query<{ status: string; ledger_balance: string; closing_balance: string; entry_count: number }>(
      'SELECT status, ledger_balance::text, closing_balance::text, entry_count FROM bank_statements WHERE msg_id = $1',
      [good.msgId],
    );
    expect(statement).toEqual({ status: 'RECONCILED', ledger_balance: closing, closing_balance: closing, entry_count: 3 });

    const stranger = 'ffffffffffffffffffffffffffffffff';
    const wrong = new Decimal(closing).minus('50.00').minus('1.00').toFixed(2);
    const bad = message('camt.053', [report([entry('DBIT', '50.00', { endToEndId: stranger, reference: 'BK-X' })], { amount: wrong })]);
    expect(await apply(world, bad)).toEqual({ kind: 'applied', entries: 1, exceptions: 2 });
    expect((await exceptionsOf(bad.msgId)).map((row) => [row.kind, row.difference])).toEqual([
      ['BALANCE_DRIFT', new Decimal(wrong).minus(closing).toFixed(2)],
      ['UNKNOWN_REFERENCE', null],
    ]);
    const [drifted] = await db().query<{ status: string }>('SELECT status FROM bank_statements WHERE msg_id = $1', [bad.msgId]);
    expect(drifted!.status).toBe('EXCEPTIONS');
  }, 120_000);

  it('a payout reported paid that no statement booked within the grace days is a MISSING_BOOKING, once', async () => {
    const later = '2026-11-30';
    const statement = () => message('camt.053', [report([], { amount: '0', date: later })]);
    const first = statement();
    await apply(world, first);
    const missing = await db().query<{ transfer_id: string }>("SELECT transfer_id FROM bank_exceptions WHERE msg_id = $1 AND kind = 'MISSING_BOOKING'", [
      first.msgId,
    ]);
    const unbooked = await db().query<{ id: string }>(
      `SELECT t.id FROM transfers t JOIN bank_file_items i ON i.transfer_id = t.id WHERE t.status = 'COMPLETED' AND t.bank_booking IS NULL`,
    );
    expect(missing.map((row) => row.transfer_id).sort()).toEqual(unbooked.map((row) => row.id).sort());
    expect(missing.length).toBeGreaterThan(0);
    const second = statement();
    await apply(world, second);
    expect(await db().query("SELECT 1 FROM bank_exceptions WHERE msg_id = $1 AND kind = 'MISSING_BOOKING'", [second.msgId])).toEqual([]);
  });
});
