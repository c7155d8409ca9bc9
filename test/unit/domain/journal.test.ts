import type { Decimal } from 'decimal.js';
import { describe, expect, it } from 'vitest';
import {
  type JournalEntry,
  type LedgerAccount,
  UnbalancedJournalEntryError,
  accountKey,
  balanceOf,
  journalEntry,
  move,
  movesMoney,
  totalsByCurrency,
} from '../../../src/domain/ledger/journal.js';
import {
  type PayrollLedger,
  acceptSettled,
  openingBalance,
  payrollCancelled,
  payrollCreated,
  singlePayoutDebited,
  singlePayoutRefunded,
  singlePayoutSent,
} from '../../../src/domain/ledger/journalEntries.js';
import { replayPayrollHistory } from '../../../src/domain/ledger/journalReplay.js';
import { settlementScales } from '../../../src/domain/money/minorUnits.js';
import { Money } from '../../../src/domain/money/money.js';
import { type SettlementSplit, fxRecordFigures, quoteFigures } from '../../../src/domain/payroll/settlement.js';

const m = (text: string) => new Money(text);
const CUSTOMER_USD: LedgerAccount = { kind: 'CUSTOMER', accountCurrencyId: 'c-usd' };
const PARTNER_AED: LedgerAccount = { kind: 'PLATFORM_BANK', accountCurrencyId: 'p-aed' };
const EXTERNAL: LedgerAccount = { kind: 'EXTERNAL' };
const FX_RESULT: LedgerAccount = { kind: 'FX_RESULT' };
const LEDGER: PayrollLedger = { sourceAccountCurrencyId: 'c-usd', sourceCurrency: 'USD', payrollAccountCurrencyId: 'p-aed', payrollCurrency: 'AED' };
const REFS = { payrollRequestId: 'r-1' };

/** [account key, currency, signed amount] of each posting, for readable expectations. */
const rows = (entry: JournalEntry) => entry.postings.map((posting) => [accountKey(posting.account), posting.currency, posting.amount.toFixed()]);
const balance = (entries: JournalEntry[], account: LedgerAccount, currency: string) => balanceOf(entries, account, currency).toFixed();

describe('the journal entry builder', () => {
  it('refuses an entry that does not sum to zero in a currency', () => {
    const postings = [...move(CUSTOMER_USD, EXTERNAL, 'USD', m('10')), { account: EXTERNAL, currency: 'AED', amount: m('1') }];
    expect(() => journalEntry('PAYROLL_CREATED', postings)).toThrow(UnbalancedJournalEntryError);
  });

  it('balances per currency, not overall: two currencies in one entry', () => {
    const entry = journalEntry('FX_CONVERSION', [...move(CUSTOMER_USD, EXTERNAL, 'USD', m('10')), ...move(EXTERNAL, PARTNER_AED, 'AED', m('36.72'))]);
    expect([...totalsByCurrency(entry.postings).values()].map((total) => total.toFixed())).toEqual(['0', '0']);
  });

  it('drops zero postings, so an entry of nothing moves nothing', () => {
    const entry = journalEntry('ACCEPT_REFUND', move(CUSTOMER_USD, EXTERNAL, 'USD', m('0.00')));
    expect(entry.postings).toEqual([]);
    expect(movesMoney(entry)).toBe(false);
  });

  it('keys accounts stably for the store', () => {
    expect(
      [CUSTOMER_USD, PARTNER_AED, EXTERNAL, FX_RESULT, { kind: 'FEE_REVENUE', fee: 'SPREAD' }, { kind: 'IN_TRANSIT', leg: 'BANK' }].map((a) =>
        accountKey(a as LedgerAccount),
      ),
    ).toEqual(['CUSTOMER:c-usd', 'PLATFORM_BANK:p-aed', 'EXTERNAL', 'FX_RESULT', 'FEE_REVENUE:SPREAD', 'IN_TRANSIT:BANK']);
  });
});

describe('posting sets', () => {
  it('creation, cancel and the accept adjustment', () => {
    expect(rows(payrollCreated(LEDGER, m('1560.36'), REFS))).toEqual([
      ['CUSTOMER:c-usd', 'USD', '-1560.36'],
      ['IN_TRANSIT:PROCESSOR', 'USD', '1560.36'],
    ]);
    expect(rows(payrollCancelled(LEDGER, m('1560.36'), REFS))).toEqual([
      ['IN_TRANSIT:PROCESSOR', 'USD', '-1560.36'],
      ['CUSTOMER:c-usd', 'USD', '1560.36'],
    ]);
    expect(rows(acceptSettled(LEDGER, { kind: 'TOP_UP', amount: m('2.13') }, REFS)!)).toEqual([
      ['CUSTOMER:c-usd', 'USD', '-2.13'],
      ['IN_TRANSIT:PROCESSOR', 'USD', '2.13'],
    ]);
    expect(rows(acceptSettled(LEDGER, { kind: 'REFUND', amount: m('2.37') }, REFS)!)).toEqual([
      ['IN_TRANSIT:PROCESSOR', 'USD', '-2.37'],
      ['CUSTOMER:c-usd', 'USD', '2.37'],
    ]);
    expect(acceptSettled(LEDGER, { kind: 'NONE' }, REFS)).toBeNull();
  });

  it('a single payout: debited, then sent (fees earned) or refunded', () => {
    const payout = { accountCurrencyId: 'c-usd', currency: 'USD', amount: m('1234.56'), fee: m('5.09'), internalFee: m('1.74') };
    expect(rows(singlePayoutDebited(payout, { payoutId: 'p' }))).toEqual([
      ['CUSTOMER:c-usd', 'USD', '-1241.39'], // 1234.56 + 5.09 + 1.74
      ['IN_TRANSIT:BANK', 'USD', '1241.39'],
    ]);
    expect(rows(singlePayoutSent(payout, { payoutId: 'p' }))).toEqual([
      ['IN_TRANSIT:BANK', 'USD', '-1234.56'],
      ['EXTERNAL', 'USD', '1234.56'],
      ['IN_TRANSIT:BANK', 'USD', '-5.09'],
      ['FEE_REVENUE:PAYOUT', 'USD', '5.09'],
      ['IN_TRANSIT:BANK', 'USD', '-1.74'],
      ['FEE_REVENUE:INTERNAL', 'USD', '1.74'],
    ]);
    expect(rows(singlePayoutRefunded(payout, { payoutId: 'p' }))).toEqual([
      ['IN_TRANSIT:BANK', 'USD', '-1241.39'],
      ['CUSTOMER:c-usd', 'USD', '1241.39'],
    ]);
  });

  it('an opening balance arrives from outside', () => {
    expect(rows(openingBalance(CUSTOMER_USD, 'USD', m('999999999999999.00')))).toEqual([
      ['EXTERNAL', 'USD', '-999999999999999'],
      ['CUSTOMER:c-usd', 'USD', '999999999999999'],
    ]);
  });
});

describe('a whole request: quoted better, FX recorded below the quote, the PAYROLL payout fails', () => {
  // Estimate (see settlementQuote.test.ts): S 1547.33, fees 7.74 + 2.55 + 2.74 = 13.03, debited 1560.36.
  const splits: SettlementSplit[] = [
    { amountCurrencyType: 'SOURCE', sourceCurrencyAmount: m('1000.00'), amount: m('3654.13') },
    { amountCurrencyType: 'PAYROLL', sourceCurrencyAmount: m('547.33'), amount: m('2000.00') },
  ];
  const scales = settlementScales({ code: 'USD', decimals: 2 }, { code: 'AED', decimals: 2 });
  const accepted = quoteFigures({ splits, quoteRate: m('3.67'), scales, sameCurrency: false, feeAmount: m('13.03'), debitedAmount: m('1560.36') });
  const fx = fxRecordFigures(accepted.sourceAmountForExchange, m('3.665'), 2, accepted.splits);
  const entries = replayPayrollHistory({
    ledger: LEDGER,
    refs: REFS,
    debitedAmount: m('1560.36'),
    fees: { spreadFee: m('7.74'), processorFee: m('2.55'), bankFee: m('2.74') },
    cancelled: false,
    accepted,
    processorLeg: 'COMPLETED',
    bankLeg: 'COMPLETED',
    fx,
    payouts: [
      { split: accepted.splits[0]!, status: 'COMPLETED', transferId: 't-1' },
      { split: accepted.splits[1]!, status: 'FAILED', transferId: 't-2' },
    ],
  });

  it('posts one entry per movement, in order', () => {
    expect(entries.map((entry) => entry.kind)).toEqual([
      'PAYROLL_CREATED',
      'ACCEPT_REFUND', // adjustment −2.37
      'PROCESSOR_LEG_COMPLETED',
      'BANK_LEG_COMPLETED',
      'FX_CONVERSION',
      'PAYOUT_SENT',
      'PAYOUT_FAILED_CREDIT_BACK',
    ]);
    expect(entries.at(-1)!.refs).toEqual({ payrollRequestId: 'r-1', transferId: 't-2' });
  });

  it('the customer is debited exactly total + adjustment − returned', () => {
    // −1560.36 + 2.37 (refund) + 544.96 (credit-back of 2000.00 AED at 3.67) = −1013.03 = −(1557.99 − 544.96)
    expect(balance(entries, CUSTOMER_USD, 'USD')).toBe('-1013.03');
  });

  it('transit accounts are empty at the end; the partner bank keeps what it received for the payout the bank never paid', () => {
    expect(balance(entries, { kind: 'IN_TRANSIT', leg: 'PROCESSOR' }, 'USD')).toBe('0'); // 1560.36 − 2.37 − 13.03 − 1544.96
    expect(balance(entries, { kind: 'IN_TRANSIT', leg: 'BANK' }, 'USD')).toBe('0');
    expect(balance(entries, PARTNER_AED, 'AED')).toBe('2000'); // + 5670.00 − 3670.00 paid; the failed 2000.00 never left the bank
  });

  it('fees, the FX result and the outside world', () => {
    expect(['SPREAD', 'PROCESSOR', 'BANK'].map((fee) => balance(entries, { kind: 'FEE_REVENUE', fee } as LedgerAccount, 'USD'))).toEqual([
      '7.74',
      '2.55',
      '2.74',
    ]);
    expect(balance(entries, FX_RESULT, 'AED')).toBe('-7.73'); // 5662.27 bought − 5670.00 promised
    expect(balance(entries, FX_RESULT, 'USD')).toBe('-544.96'); // paid back to the customer
    expect(balance(entries, EXTERNAL, 'USD')).toBe('1544.96'); // sold to the FX counterparty
    expect(balance(entries, EXTERNAL, 'AED')).toBe('-1992.27'); // −5662.27 bought + 3670.00 paid out
  });

  it('every currency sums to zero over the whole ledger', () => {
    const totals = totalsByCurrency(entries.flatMap((entry) => entry.postings));
    expect(Object.fromEntries([...totals].map(([currency, total]: [string, Decimal]) => [currency, total.toFixed()]))).toEqual({ USD: '0', AED: '0' });
  });
});
