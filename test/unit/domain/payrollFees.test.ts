import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DomainError } from '../../../src/domain/errors.js';
import { thrownBy } from '../../support/errors.js';
import { type EstimateEntryInput, estimateFigures, estimateRates, normaliseEstimateEntries } from '../../../src/domain/fees/estimateFigures.js';
import { lockedEstimateEntries, payrollFeeEstimateView } from '../../../src/domain/fees/estimateView.js';
import { settlementScales } from '../../../src/domain/money/minorUnits.js';
import { Money } from '../../../src/domain/money/money.js';
import { scheduleFee } from '../../../src/domain/fees/payrollFees.js';

/**
 * The payroll fee formulas of the estimate, hand-computed, on the one estimate arithmetic
 * (estimateFigures.ts). Every source figure is at the source currency's minor units (USD 2 places,
 * rounded up for what the customer is charged). test/unit/domain/settlementEstimate.test.ts has the spec's examples.
 */

const FIREBLOCKS_USD = { percentBps: new Money(10), fixed: new Money('1.00'), min: new Money('2.00'), max: new Money('50.00') };
const CIRCLE_USDC = { percentBps: new Money(5), fixed: new Money(0), min: new Money('0.5'), max: new Money(25) };
const id = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
const USD = { code: 'USD', decimals: 2 };
const AED = { code: 'AED', decimals: 2 };
/** A source currency with 8 minor units (the interface's cap on a SOURCE amount). */
const USDC8 = { code: 'USDC', decimals: 8 };

interface EstimateInput {
  entries: EstimateEntryInput[];
  base: string;
  bips: number;
  source?: { code: string; decimals: number };
  payroll?: { code: string; decimals: number };
  schedule: typeof FIREBLOCKS_USD | null;
  bankFee: string;
}

/** USD → AED at 3.6725 with a 50 bips profile, FIREBLOCKS' schedule and a 5.00 AED bank fee. */
const USD_TO_AED = { base: '3.6725', bips: 50, schedule: FIREBLOCKS_USD, bankFee: '5.00' };

/** The one function the use case computes with (it validates, converts and adds the fees). */
function figuresOf(input: EstimateInput) {
  return estimateFigures({
    entries: input.entries,
    source: input.source ?? USD,
    payroll: input.payroll ?? AED,
    baseRate: new Money(input.base),
    spreadBips: input.bips,
    processorSchedule: input.schedule,
    bankFeePerBeneficiary: new Money(input.bankFee),
  });
}

const FEE_FIGURES = ['sourceCurrencyAmount', 'estimatedReceivedAmount', 'spreadFee', 'processorFee', 'bankFee', 'feeAmount', 'totalAmount'] as const;

/** The figures, and each fee as an exact string for the hand-computed expectations. */
function estimate(input: EstimateInput) {
  const figures = figuresOf(input);
  const text = Object.fromEntries(FEE_FIGURES.map((key) => [key, figures[key].toFixed()]));
  return { eff: figures.rates.exchangeRate.toFixed(), lines: figures.lines, figures, text };
}

describe('payroll fee formulas (hand-computed with bc)', () => {
  it('USD→AED, 50 bips, two SOURCE entries', () => {
    const { eff, text } = estimate({
      ...USD_TO_AED,
      entries: [
        { beneficiaryId: id(1), amount: '1000.00' },
        { beneficiaryId: id(2), amount: '500.00', amountCurrencyType: 'SOURCE' },
      ],
    });
    expect(eff).toBe('3.6541375');
    expect(text).toEqual({
      sourceCurrencyAmount: '1500',
      estimatedReceivedAmount: '5481.19', // 3654.13 (3654.1375 down) + 1827.06 (1827.06875 down)
      spreadFee: '7.5',
      processorFee: '2.5', // 1500 × 0.001 + 1
      bankFee: '2.74', // 10 / 3.6541375 = 2.73662389551… up to USD's 2 places
      feeAmount: '12.74', // 7.50 + 2.50 + 2.74
      totalAmount: '1512.74', // 1500 + 12.74
    });
  });

  it('mixed SOURCE and PAYROLL entries: PAYROLL converts up to the source scale', () => {
    const { lines, text } = estimate({
      ...USD_TO_AED,
      entries: [
        { beneficiaryId: id(1), amount: '1000' },
        { beneficiaryId: id(2), amount: '1000.00', amountCurrencyType: 'PAYROLL' },
      ],
    });
    expect(lines[1]!.sourceCurrencyAmount.toFixed()).toBe('273.67'); // 1000 / 3.6541375 = 273.662389551… up
    expect(text).toEqual({
      sourceCurrencyAmount: '1273.67', // 1000 + 273.67
      estimatedReceivedAmount: '4654.13', // 3654.13 + 1000.00
      spreadFee: '6.37', // 1273.67 × 0.005 = 6.36835 up
      processorFee: '2.28', // 1273.67 × 0.001 + 1 = 2.27367 up
      bankFee: '2.74',
      feeAmount: '11.39', // 6.37 + 2.28 + 2.74
      totalAmount: '1285.06', // 1273.67 + 11.39
    });
  });

  it('a 0-decimal payroll currency (JPY) rounds received amounts down to whole yen', () => {
    const { eff, text } = estimate({
      entries: [{ beneficiaryId: id(1), amount: '100.00' }],
      base: '151.37',
      bips: 50,
      payroll: { code: 'JPY', decimals: 0 },
      schedule: FIREBLOCKS_USD,
      bankFee: '150',
    });
    expect(eff).toBe('150.61315');
    expect(text.estimatedReceivedAmount).toBe('15061'); // 15061.315 down
    expect(text.processorFee).toBe('2'); // 1.1 clamped up to the minimum 2.00
    expect(text.bankFee).toBe('1'); // 150 / 150.61315 = 0.995928974… up to 2 places: 1.00
    expect(text.totalAmount).toBe('103.5'); // 100 + 0.50 + 2.00 + 1.00
  });

  it('a JPY PAYROLL amount with decimals is rejected, naming the entry', () => {
    const scales = settlementScales(USD, { code: 'JPY', decimals: 0 });
    const error = thrownBy(() => normaliseEstimateEntries([{ beneficiaryId: id(1), amount: '10.5', amountCurrencyType: 'PAYROLL' }], scales));
    expect(error).toMatchObject({ code: 'VALIDATION_ERROR', reason: 'TOO_MANY_DECIMALS', field: '/amountSplitDetails/0/amount', entryIndex: 0 });
  });

  it('a customer without a fee profile pays no spread and converts at the base rate', () => {
    const { eff, text } = estimate({ entries: [{ beneficiaryId: id(1), amount: '200' }], base: '3.6725', bips: 0, schedule: FIREBLOCKS_USD, bankFee: '5.00' });
    expect(eff).toBe('3.6725');
    expect(text.spreadFee).toBe('0');
    expect(text.estimatedReceivedAmount).toBe('734.5');
    expect(text.bankFee).toBe('1.37'); // 5 / 3.6725 = 1.361470388… up to 2 places
  });

  it('an 8-decimal source currency keeps every digit and hits the processor minimum', () => {
    const { text } = estimate({
      entries: [{ beneficiaryId: id(1), amount: '0.12345678' }],
      base: '3.6718',
      bips: 50,
      source: USDC8,
      schedule: CIRCLE_USDC,
      bankFee: '5.00',
    });
    expect(text).toEqual({
      sourceCurrencyAmount: '0.12345678',
      estimatedReceivedAmount: '0.45', // 0.12345678 × 3.653441 = 0.45104206… down
      spreadFee: '0.00061729', // 0.0006172839 up
      processorFee: '0.5', // minimum of the CIRCLE schedule
      bankFee: '1.36857281', // 5 / 3.653441 = 1.368572805… up
      feeAmount: '1.8691901',
      totalAmount: '1.99264688',
    });
  });

  it('formats the figures as the API and the locked estimate show them', () => {
    const figures = figuresOf({
      ...USD_TO_AED,
      entries: [
        { beneficiaryId: id(1), amount: '1000.00' },
        { beneficiaryId: id(2), amount: '2500', amountCurrencyType: 'PAYROLL' },
      ],
    });
    const view = payrollFeeEstimateView(figures, {
      sourceAccountCurrencyId: id(101),
      payrollAccountCurrencyId: id(102),
      feeHash: 'h',
      expiresAt: 't',
      rateSource: 'WORLD',
      rateAsOf: 't',
    });
    expect(view.feeBreakdown).toEqual({
      sourceCurrencyAmount: '1684.16', // 1000.00 + 684.16 (2500 / 3.6541375 = 684.1559738789… up)
      spreadFee: '8.43', // 1684.16 × 0.005 = 8.4208 up
      processorFee: '2.69', // 1684.16 × 0.001 + 1 = 2.68416 up
      bankFee: '2.74',
      totalFee: '13.86', // 8.43 + 2.69 + 2.74
      estimatedReceivedAmount: '6154.13', // 3654.13 + 2500.00
      payrollCurrencyCode: 'AED',
      feeCurrencyCode: 'USD',
      exchangeRate: '3.6541375',
      baseRate: '3.6725',
      rateSource: 'WORLD',
      rateAsOf: 't',
    });
    expect(view.totalAmount).toBe('1698.02'); // 1684.16 + 13.86
    expect(lockedEstimateEntries(figures)).toEqual([
      { beneficiaryId: id(1), amount: '1000', amountCurrencyType: 'SOURCE', sourceCurrencyAmount: '1000.00', amountInPayrollCurrency: '3654.13' },
      { beneficiaryId: id(2), amount: '2500', amountCurrencyType: 'PAYROLL', sourceCurrencyAmount: '684.16', amountInPayrollCurrency: '2500.00' },
    ]);
  });

  it('a processor without a schedule charges nothing', () => {
    const { figures } = estimate({ entries: [{ beneficiaryId: id(1), amount: '100' }], base: '3.6725', bips: 0, schedule: null, bankFee: '0' });
    expect(figures.processorFee.toFixed()).toBe('0');
    expect(figures.totalAmount.toFixed()).toBe('100');
  });

  it('the processor schedule clamps at its maximum', () => {
    expect(scheduleFee(FIREBLOCKS_USD, new Money('100000')).toFixed()).toBe('50'); // 101 → 50
    expect(scheduleFee(FIREBLOCKS_USD, new Money('10000')).toFixed()).toBe('11'); // 10 + 1
  });
});

describe('entry validation', () => {
  const thrown = (run: () => unknown): unknown => {
    try {
      run();
    } catch (error) {
      return error;
    }
    throw new Error('nothing was thrown');
  };
  /** An 8-place source currency, so that the SOURCE limit is the interface's cap of 8. */
  const check = (entries: EstimateEntryInput[]) => () => normaliseEstimateEntries(entries, settlementScales(USDC8, AED));
  const at = (reason: string, entryIndex: number, name: string) => ({ reason, field: `/amountSplitDetails/${entryIndex}/${name}`, entryIndex });
  it.each([
    [[], { reason: 'EMPTY_PAYROLL', field: '/amountSplitDetails' }],
    [[{ beneficiaryId: id(1), amount: '0' }], at('AMOUNT_NOT_POSITIVE', 0, 'amount')],
    [
      [
        { beneficiaryId: id(1), amount: '1' },
        { beneficiaryId: id(2), amount: '0.000000000' },
      ],
      at('AMOUNT_NOT_POSITIVE', 1, 'amount'),
    ],
    [[{ beneficiaryId: id(1), amount: '1.123456789' }], at('TOO_MANY_DECIMALS', 0, 'amount')],
    [[{ beneficiaryId: id(1), amount: '1.001', amountCurrencyType: 'PAYROLL' as const }], at('TOO_MANY_DECIMALS', 0, 'amount')],
    [
      [
        { beneficiaryId: id(1), amount: '1' },
        { beneficiaryId: id(1).toUpperCase(), amount: '2' },
      ],
      at('DUPLICATE_ENTRY', 1, 'beneficiaryId'),
    ],
  ])('%j → VALIDATION_ERROR', (entries, facts) => {
    expect(check(entries)).toThrow(expect.objectContaining({ code: 'VALIDATION_ERROR', ...facts }));
  });

  it('an entry problem says its field and entry as data, not only in its message', () => {
    const error = thrown(
      check([
        { beneficiaryId: id(1), amount: '1' },
        { beneficiaryId: id(2), amount: '1.001', amountCurrencyType: 'PAYROLL' },
      ]),
    );
    expect(error).toMatchObject({ reason: 'TOO_MANY_DECIMALS', field: '/amountSplitDetails/1/amount', entryIndex: 1 });
    const duplicate = thrown(
      check([
        { beneficiaryId: id(1), amount: '1' },
        { beneficiaryId: id(1), amount: '2' },
      ]),
    );
    expect(duplicate).toMatchObject({ reason: 'DUPLICATE_ENTRY', field: '/amountSplitDetails/1/beneficiaryId', entryIndex: 1 });
  });

  it('defaults amountCurrencyType to SOURCE and accepts 100,000 entries but not 100,001', () => {
    expect(check([{ beneficiaryId: id(1), amount: '1' }])()[0]!.amountCurrencyType).toBe('SOURCE');
    const many = Array.from({ length: 100_001 }, (_, n) => ({ beneficiaryId: id(n), amount: '1' }));
    expect(check(many.slice(0, 100_000))()).toHaveLength(100_000);
    expect(check(many)).toThrow(expect.objectContaining({ code: 'VALIDATION_ERROR', reason: 'TOO_MANY_ENTRIES', field: '/amountSplitDetails' }));
  });
});

/** The estimate, or null when the rules refuse it with one of their documented 400s. */
function refusedOrNot<T>(run: () => T): T | null {
  try {
    return run();
  } catch (error) {
    if (error instanceof DomainError && (error.reason === 'ZERO_PAYOUT' || error.reason === 'AMOUNT_LIMIT_EXCEEDED')) return null;
    throw error;
  }
}

describe('payroll fee invariants (fast-check)', () => {
  const decimalText = (maxScale: number) =>
    fc
      .tuple(fc.bigInt({ min: 1n, max: 10n ** 14n }), fc.integer({ min: 0, max: maxScale }))
      .map(([units, scale]) => new Money(units.toString()).dividedBy(new Money(10).pow(scale)).toFixed());
  const entryArb = fc.oneof(
    decimalText(8).map((amount) => ({ amount, amountCurrencyType: 'SOURCE' as const })),
    decimalText(2).map((amount) => ({ amount, amountCurrencyType: 'PAYROLL' as const })),
  );
  const inputArb = fc.record({
    entries: fc.array(entryArb, { minLength: 1, maxLength: 30 }),
    base: decimalText(6).filter((rate) => new Money(rate).lessThan(100_000)),
    bips: fc.integer({ min: 0, max: 2000 }),
    schedule: fc.record({ percentBps: fc.integer({ min: 0, max: 300 }), fixed: decimalText(2), min: decimalText(2), span: decimalText(2) }),
    bankFee: decimalText(2),
  });

  it('total = base + fees and fees = sum of parts, exactly; no fee negative; nothing promised beyond what S buys', () => {
    fc.assert(
      fc.property(inputArb, (input) => {
        const schedule = {
          percentBps: new Money(input.schedule.percentBps),
          fixed: new Money(input.schedule.fixed),
          min: new Money(input.schedule.min),
          max: new Money(input.schedule.min).plus(input.schedule.span),
        };
        const computed = refusedOrNot(() =>
          estimate({
            entries: input.entries.map((entry, n) => ({ ...entry, beneficiaryId: id(n) })),
            base: input.base,
            bips: input.bips,
            source: USDC8,
            schedule,
            bankFee: input.bankFee,
          }),
        );
        fc.pre(computed !== null); // an entry converting to zero, or a figure reaching 10^15, is refused
        const { figures: fees, lines } = computed!;
        const eff = estimateRates(USDC8, AED, new Money(input.base), input.bips).exchangeRate;
        expect(fees.totalAmount.equals(fees.sourceCurrencyAmount.plus(fees.feeAmount))).toBe(true);
        expect(fees.feeAmount.equals(fees.spreadFee.plus(fees.processorFee).plus(fees.bankFee))).toBe(true);
        for (const fee of [fees.spreadFee, fees.processorFee, fees.bankFee]) {
          expect(fee.isNegative()).toBe(false);
          expect(fee.decimalPlaces()).toBeLessThanOrEqual(8);
        }
        expect(fees.estimatedReceivedAmount.lessThanOrEqualTo(fees.sourceCurrencyAmount.times(eff))).toBe(true);
        for (const line of lines) {
          expect(line.amount.lessThanOrEqualTo(line.sourceCurrencyAmount.times(eff))).toBe(true);
          expect(line.amount.decimalPlaces()).toBeLessThanOrEqual(2);
          expect(line.amount.isZero()).toBe(false);
        }
      }),
      { numRuns: 300 },
    );
  });
});
