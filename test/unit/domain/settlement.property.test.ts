import type { Decimal } from 'decimal.js';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DomainError } from '../../../src/domain/errors.js';
import { type EstimateEntryInput, type EstimateFigures, estimateFigures } from '../../../src/domain/fees/estimateFigures.js';
import { payrollFeeEstimateView } from '../../../src/domain/fees/estimateView.js';
import { type JournalEntry, type LedgerAccount, balanceOf, totalsByCurrency } from '../../../src/domain/ledger/journal.js';
import { replayPayrollHistory } from '../../../src/domain/ledger/journalReplay.js';
import { Money } from '../../../src/domain/money/money.js';
import {
  type QuoteFigures,
  assertFxRecordRate,
  creditBackFor,
  fxRecordFigures,
  quoteFigures,
  settleAdjustment,
} from '../../../src/domain/payroll/settlement.js';
import { quoteFiguresView } from '../../../src/domain/payroll/settlementView.js';

/**
 * Properties of the settlement rules over random payrolls: mixed entry types, currencies of 0 to 8
 * minor units, the same currency on both sides, random quotes and FX records within tolerance,
 * random payout failures. (The use-case level version on the real database is the lead's.)
 */

const TOLERANCE_BPS = 500;
const id = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
const SCHEDULE = { percentBps: new Money(10), fixed: new Money('1'), min: new Money('2'), max: new Money('50') };

/** A rate m × 10^-k with at most 6 significant digits, within 0.001..10000. */
const rate = fc
  .tuple(fc.integer({ min: 1, max: 999_999 }), fc.integer({ min: 2, max: 8 }))
  .map(([mantissa, k]) => new Money(mantissa).dividedBy(10 ** k))
  .filter((r) => r.greaterThanOrEqualTo('0.001') && r.lessThanOrEqualTo(10_000));
/** A relative move of a rate within ±4.9 %, written with at most 10 significant digits. */
const nudge = (base: Decimal, permille: number) => base.times(new Money(1000 + permille).dividedBy(1000)).toSignificantDigits(10);

const payroll = fc
  .record({
    sourceDecimals: fc.constantFrom(0, 2, 6, 8),
    payrollDecimals: fc.constantFrom(0, 2, 3),
    sameCurrency: fc.boolean(),
    base: rate,
    bips: fc.integer({ min: 0, max: 200 }),
    quoteMove: fc.integer({ min: -49, max: 49 }),
    fxMove: fc.integer({ min: -49, max: 49 }),
    types: fc.array(fc.constantFrom('SOURCE' as const, 'PAYROLL' as const), { minLength: 1, maxLength: 8 }),
    seeds: fc.array(fc.integer({ min: 1, max: 5_000_000 }), { minLength: 8, maxLength: 8 }),
    failures: fc.array(fc.boolean(), { minLength: 8, maxLength: 8 }),
  })
  .map((p) => {
    const source = { code: 'SRC', decimals: p.sourceDecimals };
    const target = p.sameCurrency ? source : { code: 'PAY', decimals: p.payrollDecimals };
    const entries: EstimateEntryInput[] = p.types.map((type, index) => {
      const scale = type === 'SOURCE' ? Math.min(8, source.decimals) : Math.min(2, target.decimals);
      return { beneficiaryId: id(index + 1), amount: new Money(p.seeds[index]!).dividedBy(10 ** scale).toFixed(), amountCurrencyType: type };
    });
    return { ...p, source, target, entries };
  });

type Payroll = typeof payroll extends fc.Arbitrary<infer T> ? T : never;

/** Runs a rule that may refuse the input (a zero line): a refusal is a skipped case, any other error fails. */
function unlessRefused<T>(run: () => T): T | null {
  try {
    return run();
  } catch (error) {
    if (error instanceof DomainError && error.code === 'VALIDATION_ERROR' && error.reason === 'ZERO_PAYOUT') return null;
    throw error;
  }
}

/** The parts of a request's history that do not depend on how far it went. */
function requestOf(p: Payroll, estimate: EstimateFigures) {
  return {
    ledger: { sourceAccountCurrencyId: 'customer', sourceCurrency: p.source.code, payrollAccountCurrencyId: 'partner', payrollCurrency: p.target.code },
    refs: { payrollRequestId: 'r' },
    debitedAmount: estimate.totalAmount,
    fees: { spreadFee: estimate.spreadFee, processorFee: estimate.processorFee, bankFee: estimate.bankFee },
  };
}

function settle(p: Payroll): { estimate: EstimateFigures; accepted: QuoteFigures; entries: JournalEntry[]; quoteRate: Decimal } | null {
  const estimate = unlessRefused(() =>
    estimateFigures({
      entries: p.entries,
      source: p.source,
      payroll: p.target,
      baseRate: p.base,
      spreadBips: p.bips,
      processorSchedule: SCHEDULE,
      bankFeePerBeneficiary: new Money('1'),
    }),
  );
  if (!estimate) return null;
  const quoteRate = p.sameCurrency ? new Money(1) : nudge(estimate.rates.exchangeRate, p.quoteMove);
  const splits = estimate.lines.map((line) => ({
    amountCurrencyType: line.amountCurrencyType,
    sourceCurrencyAmount: line.sourceCurrencyAmount,
    amount: line.amount,
  }));
  const accepted = unlessRefused(() =>
    quoteFigures({
      splits,
      quoteRate,
      scales: estimate.scales,
      sameCurrency: p.sameCurrency,
      feeAmount: estimate.feeAmount,
      debitedAmount: estimate.totalAmount,
    }),
  );
  if (!accepted) return null;
  const fxRate = p.sameCurrency ? new Money(1) : nudge(quoteRate, p.fxMove);
  assertFxRecordRate(fxRate, quoteRate, TOLERANCE_BPS, p.sameCurrency); // within tolerance: always accepted
  settleAdjustment(accepted.adjustmentAmount, new Money('1e16'), estimate.scales); // ample funds: never refused
  const entries = replayPayrollHistory({
    ...requestOf(p, estimate),
    cancelled: false,
    accepted,
    processorLeg: 'COMPLETED',
    bankLeg: 'COMPLETED',
    fx: fxRecordFigures(accepted.sourceAmountForExchange, fxRate, estimate.scales.payroll, accepted.splits),
    payouts: accepted.splits.map((split, index) => ({ split, status: p.failures[index] ? 'FAILED' : 'COMPLETED' })),
  });
  return { estimate, accepted, entries, quoteRate };
}

type Settled = NonNullable<ReturnType<typeof settle>>;

/** Checks a property on every random payroll the rules accept (300 runs). */
function forEverySettled(check: (settled: Settled, p: Payroll) => void): void {
  fc.assert(
    fc.property(payroll, (p) => {
      const settled = settle(p);
      if (settled) check(settled, p);
    }),
    { numRuns: 300 },
  );
}

describe('settlement properties over random payrolls', () => {
  it('the generator mostly yields payrolls the rules accept (the properties are not vacuous)', () => {
    const samples = fc.sample(payroll, { numRuns: 300, seed: 14 });
    expect(samples.filter((p) => settle(p) !== null).length).toBeGreaterThan(200);
  });

  it('every journal entry, and the whole ledger, sums to zero per currency', () => {
    forEverySettled((settled) => {
      for (const entry of settled.entries) for (const total of totalsByCurrency(entry.postings).values()) expect(total.isZero()).toBe(true);
      for (const total of totalsByCurrency(settled.entries.flatMap((entry) => entry.postings)).values()) expect(total.isZero()).toBe(true);
    });
  });

  it('payouts never exceed what was funded at the quote', () => {
    forEverySettled((settled) => {
      const { accepted, quoteRate } = settled;
      for (const split of accepted.splits) expect(split.quotedAmount.lessThanOrEqualTo(split.quotedSourceCurrencyAmount.times(quoteRate))).toBe(true);
      expect(accepted.receivedAmount.lessThanOrEqualTo(accepted.sourceAmountForExchange.times(quoteRate))).toBe(true);
    });
  });

  it('no zero line: every estimated and every quoted payout is above zero', () => {
    forEverySettled((settled) => {
      for (const line of settled.estimate.lines) expect(line.amount.greaterThan(0)).toBe(true);
      for (const split of settled.accepted.splits) expect(split.quotedAmount.greaterThan(0)).toBe(true);
    });
  });

  it('the customer is debited exactly total + adjustment − returned; transit ends empty, the partner bank holds the failed payouts', () => {
    forEverySettled((settled, p) => {
      const { accepted, entries } = settled;
      const returned = accepted.splits
        .filter((_split, index) => p.failures[index])
        .reduce((total: Decimal, split) => total.plus(creditBackFor(split)), new Money(0));
      const debited = accepted.debitedAmount.plus(accepted.adjustmentAmount).minus(returned);
      const at = (account: LedgerAccount, currency: string) => balanceOf(entries, account, currency);
      expect(at({ kind: 'CUSTOMER', accountCurrencyId: 'customer' }, p.source.code).negated().equals(debited)).toBe(true);
      expect(at({ kind: 'IN_TRANSIT', leg: 'PROCESSOR' }, p.source.code).isZero()).toBe(true);
      expect(at({ kind: 'IN_TRANSIT', leg: 'BANK' }, p.source.code).isZero()).toBe(true);
      const unpaid = accepted.splits
        .filter((_split, index) => p.failures[index])
        .reduce((total: Decimal, split) => total.plus(split.quotedAmount), new Money(0));
      expect(at({ kind: 'PLATFORM_BANK', accountCurrencyId: 'partner' }, p.target.code).equals(unpaid)).toBe(true);
    });
  });

  it('every figure is written at its currency scale (the views never have to round)', () => {
    forEverySettled((settled) => {
      const view = payrollFeeEstimateView(settled.estimate, {
        sourceAccountCurrencyId: id(0),
        payrollAccountCurrencyId: id(0),
        feeHash: 'h',
        expiresAt: 't',
        rateSource: 'WORLD',
        rateAsOf: 't',
      });
      const quote = quoteFiguresView(settled.accepted, settled.estimate.scales);
      const sourcePlaces = (text: string) => (text.split('.')[1] ?? '').length;
      expect(sourcePlaces(view.totalAmount)).toBe(settled.estimate.scales.source);
      expect(sourcePlaces(quote.adjustmentAmount.replace('-', ''))).toBe(settled.estimate.scales.source);
      expect(sourcePlaces(quote.receivedAmount)).toBe(settled.estimate.scales.payroll);
    });
  });

  it('a request cancelled, or failed on a leg, returns everything to the customer', () => {
    forEverySettled(({ estimate, accepted }, p) => {
      const how = (['CANCELLED', 'PROCESSOR_FAILED', 'BANK_FAILED'] as const)[p.seeds[0]! % 3]!;
      const entries = replayPayrollHistory({
        ...requestOf(p, estimate),
        cancelled: how === 'CANCELLED',
        accepted: how === 'CANCELLED' ? null : accepted,
        processorLeg: how === 'PROCESSOR_FAILED' ? 'FAILED' : 'COMPLETED',
        bankLeg: how === 'BANK_FAILED' ? 'FAILED' : null,
        fx: null,
        payouts: [],
      });
      expect(balanceOf(entries, { kind: 'CUSTOMER', accountCurrencyId: 'customer' }, p.source.code).isZero()).toBe(true);
      for (const total of totalsByCurrency(entries.flatMap((entry) => entry.postings)).values()) expect(total.isZero()).toBe(true);
    });
  });
});
