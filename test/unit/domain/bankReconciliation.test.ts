import { Decimal } from 'decimal.js';
import { describe, expect, it } from 'vitest';
import type { BankEntry } from '../../../src/domain/bank/bankBooks.js';
import { bookedLines, isBooked, returnFigures, statementFrame, uuidOfCompact } from '../../../src/domain/bank/bankReconciliation.js';
import { statusAfterReturn } from '../../../src/domain/payroll/payrollStatus.js';

const created = new Date('2026-11-23T18:00:00Z');
const tx = { endToEndId: 'e2e', accountServicerReference: null, amount: null, currency: null, creditDebit: null, returnReason: null, charges: null };
const entry = (overrides: Partial<BankEntry>): BankEntry => ({
  entryReference: null,
  accountServicerReference: 'BK-1',
  amount: '1005.00',
  currency: 'AED',
  creditDebit: 'DBIT',
  reversal: false,
  status: 'BOOK',
  bookingDate: '2026-11-23',
  valueDate: null,
  charges: '5.00',
  transactions: [tx],
  ...overrides,
});

describe('bookedLines', () => {
  it('reads a debit of one transaction as the payment plus the charges booked with it', () => {
    const [line] = bookedLines(entry({}), created);
    expect(line).toMatchObject({ endToEndId: 'e2e', bankReference: 'BK-1', creditDebit: 'DBIT', isReturn: false, identity: 'BK-1' });
    expect([line!.amount.toFixed(2), line!.charges.toFixed(2), line!.net.toFixed(2)]).toEqual(['1000.00', '5.00', '-1005.00']);
    expect(line!.bookedAt.toISOString()).toBe('2026-11-23T00:00:00.000Z');
  });

  it('takes each transaction of a batch booking at its own amount and reference', () => {
    const lines = bookedLines(
      entry({
        amount: '30.00',
        charges: null,
        transactions: [
          { ...tx, endToEndId: 'a', amount: '10.00', accountServicerReference: 'T-1' },
          { ...tx, endToEndId: 'b', amount: '20.00', accountServicerReference: 'T-2', charges: '1.00' },
        ],
      }),
      created,
    );
    expect(lines.map((line) => [line.endToEndId, line.amount.toFixed(2), line.charges.toFixed(2), line.identity])).toEqual([
      ['a', '10.00', '0.00', 'T-1'],
      ['b', '20.00', '1.00', 'T-2'],
    ]);
  });

  it('a credit with a return reason, or a reversal, is a return; without a booking date the message date counts', () => {
    const returned = entry({
      creditDebit: 'CRDT',
      charges: null,
      amount: '990.00',
      bookingDate: null,
      transactions: [{ ...tx, returnReason: { code: 'AC04', text: null } }],
    });
    expect(bookedLines(returned, created)[0]).toMatchObject({ isReturn: true, bookedAt: created });
    expect(bookedLines(entry({ creditDebit: 'CRDT', reversal: true, transactions: [] }), created)[0]).toMatchObject({ isReturn: true, endToEndId: null });
    expect(bookedLines(entry({ creditDebit: 'CRDT', transactions: [] }), created)[0]!.isReturn).toBe(false);
  });

  it('counts booked entries only', () => {
    expect([isBooked(entry({})), isBooked(entry({ status: 'PDNG' })), isBooked(entry({ status: 'INFO' }))]).toEqual([true, false, false]);
  });
});

describe('statementFrame', () => {
  const report = { reportId: 'S', account: { iban: 'X', otherId: null, currency: 'AED' }, entries: [] };
  it('ends at the end of the closing balance day, with signed balances', () => {
    const frame = statementFrame(
      {
        ...report,
        period: null,
        balances: [
          { type: 'OPBD', amount: '10.00', currency: 'AED', creditDebit: 'DBIT', date: '2026-11-23' },
          { type: 'CLBD', amount: '5.00', currency: 'AED', creditDebit: 'CRDT', date: '2026-11-23' },
        ],
      },
      created,
    );
    expect([frame.date, frame.endsBefore.toISOString(), frame.opening!.toFixed(2), frame.closing!.toFixed(2)]).toEqual([
      '2026-11-23',
      '2026-11-24T00:00:00.000Z',
      '-10.00',
      '5.00',
    ]);
  });

  it('ends just after period.to when it is a date-time', () => {
    const frame = statementFrame({ ...report, period: { from: '2026-11-23T00:00:00Z', to: '2026-11-23T17:00:00Z' }, balances: [] }, created);
    expect([frame.endsBefore.toISOString(), frame.closing]).toEqual(['2026-11-23T17:00:00.001Z', null]);
  });
});

describe('returnFigures', () => {
  const base = { payoutAmount: new Decimal('3653.00'), quotedSourceAmount: new Decimal('1000.00'), quoteRate: new Decimal('3.6530'), sourceScale: 2 };
  it('credits the quoted source amount less the charges at the quote rate, rounded up', () => {
    const figures = returnFigures({ ...base, returned: new Decimal('3643.00') })!;
    // 10.00 / 3.6530 = 2.7374… → 2.74
    expect([figures.charges.toFixed(2), figures.creditBack.toFixed(2)]).toEqual(['10.00', '997.26']);
  });
  it('credits everything for a return without charges, never below zero, and refuses more than the payout', () => {
    expect(returnFigures({ ...base, returned: new Decimal('3653.00') })!.creditBack.toFixed(2)).toBe('1000.00');
    expect(returnFigures({ ...base, quotedSourceAmount: new Decimal('1.00'), returned: new Decimal('0.01') })!.creditBack.toFixed(2)).toBe('0.00');
    expect(returnFigures({ ...base, returned: new Decimal('3653.01') })).toBeNull();
    expect(returnFigures({ ...base, returned: new Decimal('0') })).toBeNull();
  });
});

describe('uuidOfCompact and statusAfterReturn', () => {
  it('reads an EndToEndId back as the UUID it compacts', () => {
    expect(uuidOfCompact('7B1E00070000400080000000000000AB')).toBe('7b1e0007-0000-4000-8000-0000000000ab');
    expect([uuidOfCompact('short'), uuidOfCompact(null)]).toEqual([null, null]);
  });
  it('revises a final status once per return, and leaves a request still paying out alone', () => {
    expect(statusAfterReturn('COMPLETED', 2, 1)).toBe('PARTIALLY_COMPLETED');
    expect(statusAfterReturn('PARTIALLY_COMPLETED', 0, 3)).toBe('FAILED');
    expect(statusAfterReturn('PARTIALLY_COMPLETED', 1, 2)).toBeNull();
    expect(statusAfterReturn('PAYOUT_INITIATED', 1, 1)).toBeNull();
  });
});
