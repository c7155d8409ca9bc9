import { describe, expect, it } from 'vitest';
import { DomainError } from '../../../src/domain/errors.js';
import { settlementScales } from '../../../src/domain/money/minorUnits.js';
import { Money } from '../../../src/domain/money/money.js';
import {
  AcceptShortfallError,
  type SettlementSplit,
  assertFxRecordRate,
  creditBackFor,
  fxRecordFigures,
  fxRecordRange,
  quoteFigures,
  returnedAmount,
  settleAdjustment,
} from '../../../src/domain/payroll/settlement.js';
import { fxResultView, quoteFiguresView, splitSettlementView } from '../../../src/domain/payroll/settlementView.js';

/**
 * The honoured quote, hand-computed. The request: USD → AED, estimate at eff 3.6541375 (3.6725
 * less 50 BIPS), entries 1000.00 USD (SOURCE) and 2000.00 AED (PAYROLL).
 *   estimate: 2000 ÷ 3.6541375 = 547.3247… → 547.33 USD; S = 1547.33
 *   fees: spread 1547.33 × 0.005 = 7.73665 → 7.74; processor 1547.33 × 0.001 + 1 = 2.54733 → 2.55;
 *         bank 2 × 5.00 ÷ 3.6541375 = 2.7366… → 2.74; total fee 13.03; debited 1560.36
 */

const m = (text: string) => new Money(text);
const USD_AED = settlementScales({ code: 'USD', decimals: 2 }, { code: 'AED', decimals: 2 });
const MIXED: SettlementSplit[] = [
  { amountCurrencyType: 'SOURCE', sourceCurrencyAmount: m('1000.00'), amount: m('3654.13') },
  { amountCurrencyType: 'PAYROLL', sourceCurrencyAmount: m('547.33'), amount: m('2000.00') },
];
const quoteAt = (rate: string, splits = MIXED) =>
  quoteFigures({ splits, quoteRate: m(rate), scales: USD_AED, sameCurrency: false, feeAmount: m('13.03'), debitedAmount: m('1560.36') });

function errorOf(run: () => unknown): DomainError {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(DomainError);
    return error as DomainError;
  }
  throw new Error('expected a DomainError');
}

describe('figures at the quote, mixed SOURCE and PAYROLL entries', () => {
  it('a quote worse than the estimate (3.6400): the customer tops up', () => {
    const quote = quoteAt('3.6400');
    // SOURCE: 1000.00 × 3.64 = 3640.00 AED, source unchanged. PAYROLL: 2000.00 exactly, 2000 ÷ 3.64 = 549.4505… → up 549.46
    expect(quote.splits.map((split) => splitSettlementView(split, null, USD_AED))).toEqual([
      { quotedSourceCurrencyAmount: '1000.00', quotedAmount: '3640.00', returnedSourceCurrencyAmount: null },
      { quotedSourceCurrencyAmount: '549.46', quotedAmount: '2000.00', returnedSourceCurrencyAmount: null },
    ]);
    expect(quoteFiguresView(quote, USD_AED)).toEqual({
      exchangeRate: '3.64',
      sourceAmountForExchange: '1549.46', // 1000.00 + 549.46
      feeAmount: '13.03', // locked
      totalAmount: '1562.49', // 1549.46 + 13.03
      receivedAmount: '5640.00', // 3640.00 + 2000.00
      debitedAmount: '1560.36',
      adjustmentAmount: '2.13', // 1562.49 − 1560.36
    });
  });

  it('a quote better than the estimate (3.6700): the customer is refunded', () => {
    const quote = quoteAt('3.6700');
    // 1000.00 × 3.67 = 3670.00; 2000 ÷ 3.67 = 544.9591… → up 544.96
    expect(quote.splits.map((split) => [split.quotedSourceCurrencyAmount.toFixed(2), split.quotedAmount.toFixed(2)])).toEqual([
      ['1000.00', '3670.00'],
      ['544.96', '2000.00'],
    ]);
    expect(quoteFiguresView(quote, USD_AED)).toMatchObject({
      sourceAmountForExchange: '1544.96',
      totalAmount: '1557.99', // 1544.96 + 13.03
      receivedAmount: '5670.00',
      adjustmentAmount: '-2.37', // 1557.99 − 1560.36
    });
  });

  it('SOURCE entries only: the adjustment is zero at any rate', () => {
    const splits: SettlementSplit[] = [{ amountCurrencyType: 'SOURCE', sourceCurrencyAmount: m('1500.00'), amount: m('5481.20') }];
    const quote = quoteFigures({ splits, quoteRate: m('3.652'), scales: USD_AED, sameCurrency: false, feeAmount: m('12.74'), debitedAmount: m('1512.74') });
    expect(quoteFiguresView(quote, USD_AED)).toMatchObject({ receivedAmount: '5478.00', adjustmentAmount: '0.00' }); // 1500 × 3.652
  });

  it('USD → JPY: quoted payroll amounts at 0 places', () => {
    const scales = settlementScales({ code: 'USD', decimals: 2 }, { code: 'JPY', decimals: 0 });
    const splits: SettlementSplit[] = [
      { amountCurrencyType: 'SOURCE', sourceCurrencyAmount: m('100.00'), amount: m('15049') },
      { amountCurrencyType: 'PAYROLL', sourceCurrencyAmount: m('66.45'), amount: m('10000') },
    ];
    const quote = quoteFigures({ splits, quoteRate: m('149.8'), scales, sameCurrency: false, feeAmount: m('9.49'), debitedAmount: m('175.94') });
    // 100.00 × 149.8 = 14980 JPY; 10000 ÷ 149.8 = 66.7556… → up 66.76 USD; S' = 166.76; total 176.25; adjustment +0.31
    expect(quoteFiguresView(quote, scales)).toMatchObject({
      sourceAmountForExchange: '166.76',
      totalAmount: '176.25',
      receivedAmount: '24980',
      adjustmentAmount: '0.31',
    });
  });
});

describe('quote refusals', () => {
  it('a rate outside RateString bounds', () => {
    expect(errorOf(() => quoteAt('0.000000001'))).toMatchObject({ code: 'VALIDATION_ERROR', reason: 'RATE_OUT_OF_BOUNDS', field: '/exchangeRate' });
  });

  it('a same-currency quote other than 1', () => {
    const scales = settlementScales({ code: 'USD', decimals: 2 }, { code: 'USD', decimals: 2 });
    const splits: SettlementSplit[] = [{ amountCurrencyType: 'SOURCE', sourceCurrencyAmount: m('10.00'), amount: m('10.00') }];
    const quote = (rate: string) => quoteFigures({ splits, quoteRate: m(rate), scales, sameCurrency: true, feeAmount: m('2.00'), debitedAmount: m('12.00') });
    expect(errorOf(() => quote('1.01'))).toMatchObject({ code: 'VALIDATION_ERROR', reason: 'RATE_NOT_ONE', field: '/exchangeRate' });
    expect(quoteFiguresView(quote('1'), scales)).toMatchObject({ receivedAmount: '10.00', adjustmentAmount: '0.00' });
  });

  it('a rate that would pay a beneficiary nothing', () => {
    const splits: SettlementSplit[] = [{ amountCurrencyType: 'SOURCE', sourceCurrencyAmount: m('0.01'), amount: m('0.03') }];
    const error = errorOf(() =>
      quoteFigures({ splits, quoteRate: m('0.1'), scales: USD_AED, sameCurrency: false, feeAmount: m('1'), debitedAmount: m('1.01') }),
    );
    expect(error).toMatchObject({ code: 'VALIDATION_ERROR', reason: 'ZERO_PAYOUT', entryIndex: 0 }); // 0.001 → down 0.00
  });
});

describe('accept settles the adjustment', () => {
  it('a top-up within the available balance is debited', () => {
    expect(settleAdjustment(m('2.13'), m('10.00'), USD_AED)).toEqual({ kind: 'TOP_UP', amount: m('2.13') });
    expect(settleAdjustment(m('2.13'), m('2.13'), USD_AED)).toEqual({ kind: 'TOP_UP', amount: m('2.13') }); // exactly enough
  });

  it('a top-up above the available balance: INSUFFICIENT_FUNDS at accept, naming the shortfall', () => {
    const error = errorOf(() => settleAdjustment(m('2.13'), m('1.00'), USD_AED));
    expect(error).toBeInstanceOf(AcceptShortfallError);
    expect(error.code).toBe('INSUFFICIENT_FUNDS');
    expect((error as AcceptShortfallError).variant).toBe('SHORTFALL_AT_ACCEPT');
    expect((error as AcceptShortfallError).shortfall.toFixed()).toBe('1.13'); // 2.13 − 1.00
  });

  it('an excess is refunded, whatever the balance; zero moves nothing', () => {
    expect(settleAdjustment(m('-2.37'), m('0'), USD_AED)).toEqual({ kind: 'REFUND', amount: m('2.37') });
    expect(settleAdjustment(m('0.00'), m('0'), USD_AED)).toEqual({ kind: 'NONE' });
  });
});

describe('the FX record: bounded, and it changes no payout', () => {
  const accepted = quoteAt('3.6700'); // payouts 3670.00 + 2000.00 = 5670.00 AED; fromAmount 1544.96 USD

  it('the tolerance range is q × (1 ∓ bps/10000)', () => {
    const range = fxRecordRange(m('3.67'), 500); // 3.67 × 0.05 = 0.1835
    expect([range.min.toFixed(), range.max.toFixed()]).toEqual(['3.4865', '3.8535']);
  });

  it('recorded below the quote (3.665): a loss the platform bears', () => {
    expect(() => assertFxRecordRate(m('3.665'), m('3.67'), 500, false)).not.toThrow();
    const fx = fxRecordFigures(accepted.sourceAmountForExchange, m('3.665'), 2, accepted.splits);
    // 1544.96 × 3.665 = 5662.2784 → down 5662.27; 5662.27 − 5670.00 = −7.73
    expect(fxResultView(fx, USD_AED)).toEqual({ toAmount: '5662.27', payoutAmount: '5670.00', fxResultAmount: '-7.73' });
  });

  it('recorded above the quote (3.675): a gain', () => {
    const fx = fxRecordFigures(accepted.sourceAmountForExchange, m('3.675'), 2, accepted.splits);
    // 1544.96 × 3.675 = 5677.728 → down 5677.72; 5677.72 − 5670.00 = 7.72
    expect(fxResultView(fx, USD_AED)).toEqual({ toAmount: '5677.72', payoutAmount: '5670.00', fxResultAmount: '7.72' });
    expect(accepted.splits.map((split) => split.quotedAmount.toFixed(2))).toEqual(['3670.00', '2000.00']); // unchanged
  });

  it.each([
    ['36700', 'the issue typo: 36700 is outside'],
    ['0.0001', 'the reverse typo'],
    ['3.8536', 'just above 3.8535'],
    ['3.4864', 'just below 3.4865'],
  ])('outside the tolerance: %s (%s)', (rate) => {
    const error = errorOf(() => assertFxRecordRate(m(rate), m('3.67'), 500, false));
    expect(error).toMatchObject({ code: 'VALIDATION_ERROR', reason: 'FX_RECORD_OUT_OF_TOLERANCE', field: '/exchangeRate' });
  });

  it('the bounds themselves are inside', () => {
    expect(() => assertFxRecordRate(m('3.4865'), m('3.67'), 500, false)).not.toThrow();
    expect(() => assertFxRecordRate(m('3.8535'), m('3.67'), 500, false)).not.toThrow();
  });
});

describe('a failed payout is credited back at the accepted quote', () => {
  it('the PAYROLL split of 2000.00 AED fails: 544.96 USD returns', () => {
    const accepted = quoteAt('3.6700');
    const failed = accepted.splits[1]!;
    expect(creditBackFor(failed).toFixed(2)).toBe('544.96'); // what the customer paid for it: 2000 ÷ 3.67 up
    expect(splitSettlementView(failed, creditBackFor(failed), USD_AED)).toEqual({
      quotedSourceCurrencyAmount: '544.96',
      quotedAmount: '2000.00',
      returnedSourceCurrencyAmount: '544.96',
    });
    expect(returnedAmount([failed]).toFixed(2)).toBe('544.96');
    expect(returnedAmount([]).toFixed(2)).toBe('0.00');
  });
});
