// What the simulated bank reads of the service's ledger for its statements: the credits into a
// partner-bank account in a period (the move of a payroll's funds into the bank named by its
// move-to-bank transfer) and the account's balance before it. Debits are the bank's own bookings.
import { Decimal } from 'decimal.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { journalEntry, move } from '../../../src/domain/ledger/journal.js';
import { postJournalEntries } from '../../../src/store/ledger/ledger.js';
import { partnerAccountBookings, partnerAccountBookingsOf } from '../../../src/store/bank/partnerAccountBookings.js';
import { parseBankToCustomer } from '../../../src/adapters/bank/iso20022/camtParse.js';
import { bookingNotification } from '../../../src/adapters/bank/iso20022/simulatedBookings.js';
import { SimulatedStatements } from '../../../src/adapters/bank/iso20022/simulatedStatements.js';
import { xsdErrors } from '../../../src/adapters/bank/iso20022/xsd.js';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type FreshDatabase, freshDatabase } from '../../support/database.js';
import { demoWorld } from '../../support/globalSetupTemplates.js';

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

describe('SimulatedStatements on the service’s ledger', () => {
  it('states the payroll’s funds arriving under its move-to-bank transfer, and closes at the ledger’s balance when the bank paid what the ledger sent', async () => {
    const { db } = database;
    const dir = await mkdtemp(join(tmpdir(), 'simulated-statements-'));
    try {
      // The demo world's COMPLETED request: its move-to-bank leg is transfer …302.
      const refs = { payrollRequestId: '7b1e0007-0000-4000-8000-000000000003' };
      const platformBank = { kind: 'PLATFORM_BANK', accountCurrencyId: partnerAed } as const;
      const external = { kind: 'EXTERNAL' } as const;
      await db.transaction((tx) =>
        postJournalEntries(tx, [
          { entry: journalEntry('FX_CONVERSION', move(external, platformBank, 'AED', new Decimal('2500.00')), refs), at: '2031-03-02T08:00:00Z' },
          { entry: journalEntry('PAYOUT_SENT', move(platformBank, external, 'AED', new Decimal('1500.00')), refs), at: '2031-03-02T09:00:00Z' },
        ]),
      );
      const statements = new SimulatedStatements(dir, 86_400_000, partnerAccountBookingsOf(db));
      const payments = [{ endToEndId: '7b1e0009000040008000000000000303', amount: '1500.00' }];
      const booking = bookingNotification({
        account: { iban: 'AE420260001015333439101', currency: 'AED' },
        originalMsgId: 'x',
        payments,
        bookedAt: new Date('2031-03-02T09:00:00Z'),
      });
      await statements.record(parseBankToCustomer(booking.xml));
      const [due] = await statements.due(new Date('2031-03-03T00:00:05Z'));
      expect(await xsdErrors(due!.xml, 'camt.053.001.08')).toEqual([]);
      const report = parseBankToCustomer(due!.xml).reports[0]!;
      expect(report.entries.map((entry) => [entry.creditDebit, entry.amount, entry.transactions[0]!.endToEndId])).toEqual([
        ['CRDT', '2500.00', '7b1e0009000040008000000000000302'],
        ['DBIT', '1500.00', '7b1e0009000040008000000000000303'],
      ]);
      const [{ balance }] = (await db.query<{ balance: string }>('SELECT balance::text FROM account_currencies WHERE id = $1', [partnerAed])) as [
        { balance: string },
      ];
      const closing = report.balances.find((entry) => entry.type === 'CLBD')!;
      expect(new Decimal(closing.amount).equals(new Decimal(balance))).toBe(true);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
