// What the simulated bank reads of the service's ledger for its statements: the credits into a
// partner-bank account in a period (the move of a payroll's funds into the bank named by its
// move-to-bank transfer) and the account's balance before it. Debits are the bank's own bookings.
import { Decimal } from 'decimal.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { journalEntry, move } from '../../src/domain/journal.js';
import { postJournalEntries } from '../../src/store/ledger.js';
import { partnerAccountBookings } from '../../src/store/partnerAccountBookings.js';
import { type FreshDatabase, freshDatabase } from '../support/database.js';
import { demoWorld } from '../support/globalSetupTemplates.js';

// The demo world's partner-bank account and its AED account currency.
const partnerAed = '7b1e0005-0000-4000-8000-000000000004';
const account = { iban: 'AE42 0260 0010 1533 3439 101', currency: 'AED' };

let database: FreshDatabase;
beforeAll(async () => (database = await freshDatabase(demoWorld())));
afterAll(() => database?.drop());

describe('partnerAccountBookings', () => {
  it('gives the credits of the period, in order, and the ledger balance before it; debits and other accounts aside', async () => {
    const { db } = database;
    const from = new Date('2030-01-01T00:00:00Z');
    const to = new Date('2030-01-02T00:00:00Z');
    const platformBank = { kind: 'PLATFORM_BANK', accountCurrencyId: partnerAed } as const;
    const external = { kind: 'EXTERNAL' } as const;
    const [{ balance }] = (await db.query<{ balance: string }>('SELECT balance::text FROM account_currencies WHERE id = $1', [partnerAed])) as [
      { balance: string },
    ];
    await db.transaction((tx) =>
      postJournalEntries(tx, [
        { entry: journalEntry('FX_CONVERSION', move(external, platformBank, 'AED', new Decimal('3652.00'))), at: '2030-01-01T09:00:00Z' },
        { entry: journalEntry('PAYOUT_SENT', move(platformBank, external, 'AED', new Decimal('1000.00'))), at: '2030-01-01T09:30:00Z' },
        { entry: journalEntry('FX_CONVERSION', move(external, platformBank, 'AED', new Decimal('10.50'))), at: '2030-01-01T23:59:59Z' },
        { entry: journalEntry('FX_CONVERSION', move(external, platformBank, 'AED', new Decimal('7'))), at: '2030-01-02T00:00:00Z' },
      ]),
    );
    const booked = await partnerAccountBookings(db, account, from, to);
    expect(booked).toMatchObject({ accountCurrencyId: partnerAed, balanceBefore: balance });
    expect(booked!.credits.map(({ kind, amount, bookedAt, transferId }) => [kind, amount, bookedAt.toISOString(), transferId])).toEqual([
      ['FX_CONVERSION', '3652.00', '2030-01-01T09:00:00.000Z', null],
      ['FX_CONVERSION', '10.50', '2030-01-01T23:59:59.000Z', null],
    ]);
    const next = await partnerAccountBookings(db, account, to, new Date('2030-01-03T00:00:00Z'));
    expect(new Decimal(next!.balanceBefore).equals(new Decimal(balance).plus('3652.00').minus('1000.00').plus('10.50'))).toBe(true);
    expect(await partnerAccountBookings(db, { iban: 'AE070331234567890123456', currency: 'AED' }, from, to)).toBeNull();
    expect(await partnerAccountBookings(db, { ...account, currency: 'EUR' }, from, to)).toBeNull();
  });
});
