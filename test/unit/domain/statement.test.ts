import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type JournalKind, accountKey } from '../../../src/domain/ledger/journal.js';
import { funded } from '../../../src/domain/ledger/journalEntries.js';
import { Money } from '../../../src/domain/money/money.js';
import { checkFundingAmount, checkStatementRange, runningBalances, transactionKind } from '../../../src/domain/ledger/statement.js';

const m = (value: string | number) => new Money(value);

describe('transactionKind', () => {
  it('names every journal kind that posts to a customer account currency', () => {
    const named: Array<[JournalKind, string]> = [
      ['OPENING_BALANCE', 'OPENING_BALANCE'],
      ['FUNDING', 'FUNDING'],
      ['PAYROLL_CREATED', 'PAYROLL_DEBIT'],
      ['ACCEPT_TOP_UP', 'PAYROLL_ADJUSTMENT'],
      ['ACCEPT_REFUND', 'PAYROLL_ADJUSTMENT'],
      ['PAYROLL_CANCELLED', 'PAYROLL_REFUND'],
      ['PROCESSOR_LEG_FAILED', 'PAYROLL_REFUND'],
      ['BANK_LEG_FAILED', 'PAYROLL_REFUND'],
      ['PAYOUT_FAILED_CREDIT_BACK', 'PAYROLL_PAYOUT_RETURNED'],
      ['SINGLE_PAYOUT_DEBITED', 'PAYOUT_DEBIT'],
      ['SINGLE_PAYOUT_REFUNDED', 'PAYOUT_REFUND'],
    ];
    for (const [journal, statement] of named) expect(transactionKind(journal)).toBe(statement);
  });

  it('refuses, as a bug, the kinds that never move a customer account currency and unknown kinds', () => {
    for (const kind of ['PROCESSOR_LEG_COMPLETED', 'BANK_LEG_COMPLETED', 'FX_CONVERSION', 'PAYOUT_SENT', 'SINGLE_PAYOUT_SENT', 'NO_SUCH_KIND', 'toString']) {
      expect(() => transactionKind(kind), kind).toThrow(Error);
    }
  });
});

describe('runningBalances', () => {
  it('adds each posting to the balance its account currency had, in order; null off account currencies', () => {
    const before = new Map([
      ['a', m('100.00')],
      ['b', m('5')],
    ]);
    const after = runningBalances(before, [
      { accountCurrencyId: 'a', amount: m('-30.50') },
      { accountCurrencyId: null, amount: m('30.50') },
      { accountCurrencyId: 'b', amount: m('1') },
      { accountCurrencyId: 'a', amount: m('0.25') },
    ]);
    expect(after.map((value) => value?.toFixed() ?? null)).toEqual(['69.5', null, '6', '69.75']);
    // The balances read are not changed.
    expect(before.get('a')!.toFixed(2)).toBe('100.00');
  });

  it('refuses a posting to an account currency whose balance was not read', () => {
    expect(() => runningBalances(new Map(), [{ accountCurrencyId: 'x', amount: m('1') }])).toThrow(Error);
  });

  it('property: each balance after is the previous one plus the amount, and the last is the opening plus the sum', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 10 ** 9 }), fc.array(fc.integer({ min: -(10 ** 7), max: 10 ** 7 }), { maxLength: 40 }), (opening, cents) => {
        const amounts = cents.map((c) => m(c).dividedBy(100));
        const after = runningBalances(
          new Map([['a', m(opening)]]),
          amounts.map((amount) => ({ accountCurrencyId: 'a', amount })),
        );
        let previous = m(opening);
        after.forEach((value, index) => {
          expect(value!.equals(previous.plus(amounts[index]!))).toBe(true);
          previous = value!;
        });
        expect(previous.equals(amounts.reduce((total, amount) => total.plus(amount), m(opening)))).toBe(true);
      }),
    );
  });
});

describe('checkFundingAmount', () => {
  const usd = { code: 'USD', decimals: 2 };
  const jpy = { code: 'JPY', decimals: 0 };

  it('accepts an amount above zero within the minor units', () => {
    expect(checkFundingAmount('250.5', usd, m('0')).toFixed(2)).toBe('250.50');
    expect(checkFundingAmount('1500', jpy, m('10')).toFixed()).toBe('1500');
  });

  it('refuses zero, too many decimals, and a balance reaching 10^15, naming /amount', () => {
    const refusal = (reason: string) => expect.objectContaining({ code: 'VALIDATION_ERROR', reason, field: '/amount' });
    expect(() => checkFundingAmount('0.00', usd, m('0'))).toThrow(refusal('AMOUNT_NOT_POSITIVE'));
    expect(() => checkFundingAmount('1.5', jpy, m('0'))).toThrow(refusal('TOO_MANY_DECIMALS'));
    expect(() => checkFundingAmount('1.00', usd, m('999999999999999'))).toThrow(refusal('AMOUNT_LIMIT_EXCEEDED'));
    expect(checkFundingAmount('0.99', usd, m('999999999999999')).toFixed()).toBe('0.99');
  });
});

describe('checkStatementRange', () => {
  it('wants to after from when both are given', () => {
    expect(() => checkStatementRange(new Date('2026-01-01'), new Date('2026-01-02'))).not.toThrow();
    expect(() => checkStatementRange(null, new Date('2026-01-02'))).not.toThrow();
    const refused = expect.objectContaining({ code: 'VALIDATION_ERROR', field: 'to' });
    expect(() => checkStatementRange(new Date('2026-01-02'), new Date('2026-01-02'))).toThrow(refused);
    expect(() => checkStatementRange(new Date('2026-01-03'), new Date('2026-01-02'))).toThrow(refused);
  });
});

describe('funded', () => {
  it('is one balanced entry from EXTERNAL to the customer account currency, carrying the funding id', () => {
    const entry = funded('c-usd', 'USD', m('25000.00'), { fundingId: 'f-1' });
    expect(entry.kind).toBe('FUNDING');
    expect(entry.refs).toEqual({ fundingId: 'f-1' });
    expect(entry.postings.map((posting) => [accountKey(posting.account), posting.currency, posting.amount.toFixed()])).toEqual([
      ['EXTERNAL', 'USD', '-25000'],
      ['CUSTOMER:c-usd', 'USD', '25000'],
    ]);
  });
});
