import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DomainError } from '../../src/domain/errors.js';
import { Money } from '../../src/domain/money.js';
import { estimatePayrollFigures, formatPayrollEstimate } from '../../src/domain/payrollEstimate.js';
import { type SplitEntryInput, effectiveRate, normaliseEntries, payrollScale, scheduleFee } from '../../src/domain/payrollFees.js';

const FIREBLOCKS_USD = { percentBps: new Money(10), fixed: new Money('1.00'), min: new Money('2.00'), max: new Money('50.00') };
const CIRCLE_USDC = { percentBps: new Money(5), fixed: new Money(0), min: new Money('0.5'), max: new Money(25) };
const id = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;

interface EstimateInput {
  entries: SplitEntryInput[];
  base: string;
  bips: number;
  payrollDecimals: number;
  schedule: typeof FIREBLOCKS_USD;
  bankFee: string;
}

/** USD → AED at 3.6725 with a 50 bips profile, FIREBLOCKS' schedule and a 5.00 AED bank fee. */
const USD_TO_AED = { base: '3.6725', bips: 50, payrollDecimals: 2, schedule: FIREBLOCKS_USD, bankFee: '5.00' };

/** The entries validated as the use case validates them, then the one function it computes with. */
function figuresOf(input: EstimateInput) {
  return estimatePayrollFigures({
    entries: normaliseEntries(input.entries, payrollScale(input.payrollDecimals)),
    baseRate: new Money(input.base),
    spreadBips: input.bips,
    payrollDecimals: input.payrollDecimals,
    processorSchedule: input.schedule,
    bankFeePerBeneficiary: new Money(input.bankFee),
  });
}

/** The figures, and each fee as an exact string for the hand-computed expectations. */
function estimate(input: EstimateInput) {
  const { eff, entries, fees } = figuresOf(input);
  const text = Object.fromEntries(Object.entries(fees).map(([key, value]) => [key, value.toFixed()]));
  return { eff: eff.toFixed(), converted: entries, fees, text };
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
      bankFee: '2.7366239', // 10 / 3.6541375 = 2.73662389551… up to 8 places
      feeAmount: '12.7366239',
      totalAmount: '1512.7366239',
    });
  });

  it('mixed SOURCE and PAYROLL entries: PAYROLL converts up to 8 places', () => {
    const { converted, text } = estimate({
      ...USD_TO_AED,
      entries: [
        { beneficiaryId: id(1), amount: '1000' },
        { beneficiaryId: id(2), amount: '1000.00', amountCurrencyType: 'PAYROLL' },
      ],
    });
    expect(converted[1]!.sourceCurrencyAmount.toFixed()).toBe('273.66238956'); // 273.662389551… up
    expect(text).toEqual({
      sourceCurrencyAmount: '1273.66238956',
      estimatedReceivedAmount: '4654.13',
      spreadFee: '6.36831195', // 6.3683119478 up
      processorFee: '2.27366239', // 2.27366238956 up
      bankFee: '2.7366239',
      feeAmount: '11.37859824',
      totalAmount: '1285.0409878',
    });
  });

  it('a 0-decimal payroll currency (JPY) rounds received amounts down to whole yen', () => {
    const { eff, text } = estimate({
      entries: [{ beneficiaryId: id(1), amount: '100.00' }],
      base: '151.37',
      bips: 50,
      payrollDecimals: 0,
      schedule: FIREBLOCKS_USD,
      bankFee: '150',
    });
    expect(eff).toBe('150.61315');
    expect(text.estimatedReceivedAmount).toBe('15061'); // 15061.315 down
    expect(text.processorFee).toBe('2'); // 1.1 clamped up to the minimum 2.00
    expect(text.bankFee).toBe('0.99592898'); // 150 / 150.61315 = 0.995928974… up
    expect(text.totalAmount).toBe('103.49592898');
  });

  it('a JPY PAYROLL amount with decimals is rejected, naming the entry', () => {
    expect(() => normaliseEntries([{ beneficiaryId: id(1), amount: '10.5', amountCurrencyType: 'PAYROLL' }], payrollScale(0))).toThrow(
      'amountSplitDetails[0].amount has 1 decimal place; a PAYROLL amount allows at most 0',
    );
  });

  it('a customer without a fee profile pays no spread and converts at the base rate', () => {
    const { eff, text } = estimate({
      entries: [{ beneficiaryId: id(1), amount: '200' }],
      base: '3.6725',
      bips: 0,
      payrollDecimals: 2,
      schedule: FIREBLOCKS_USD,
      bankFee: '5.00',
    });
    expect(eff).toBe('3.6725');
    expect(text.spreadFee).toBe('0');
    expect(text.estimatedReceivedAmount).toBe('734.5');
    expect(text.bankFee).toBe('1.36147039'); // 5 / 3.6725 = 1.361470388… up
  });

  it('an 8-decimal source currency (USDC) keeps every digit and hits the processor minimum', () => {
    const { text } = estimate({
      entries: [{ beneficiaryId: id(1), amount: '0.12345678' }],
      base: '3.6718',
      bips: 50,
      payrollDecimals: 2,
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
    const formatted = formatPayrollEstimate(figures, { source: { code: 'USD', decimals: 2 }, payroll: { code: 'AED', decimals: 2 } });
    expect(formatted.feeBreakdown).toEqual({
      sourceCurrencyAmount: '1684.15597388', // 1000 + 684.15597388 (2500 / 3.6541375 = 684.1559738789… up)
      spreadFee: '8.42077987', // 8.4207798694 up
      processorFee: '2.68415598', // 1684.15597388 × 0.001 + 1 = 2.68415597388 up
      bankFee: '2.7366239',
      totalFee: '13.84155975',
      estimatedReceivedAmount: '6154.13', // 3654.13 + 2500.00
      payrollCurrencyCode: 'AED',
      feeCurrencyCode: 'USD',
      exchangeRate: '3.6541375',
      baseRate: '3.6725',
    });
    expect(formatted.totalAmount).toBe('1697.99753363');
    expect(formatted.entries).toEqual([
      { beneficiaryId: id(1), amount: '1000', amountCurrencyType: 'SOURCE', sourceCurrencyAmount: '1000.00', amountInPayrollCurrency: '3654.13' },
      { beneficiaryId: id(2), amount: '2500', amountCurrencyType: 'PAYROLL', sourceCurrencyAmount: '684.15597388', amountInPayrollCurrency: '2500.00' },
    ]);
  });

  it('a processor without a schedule charges nothing', () => {
    const figures = estimatePayrollFigures({
      entries: normaliseEntries([{ beneficiaryId: id(1), amount: '100' }], 2),
      baseRate: new Money('3.6725'),
      spreadBips: 0,
      payrollDecimals: 2,
      processorSchedule: null,
      bankFeePerBeneficiary: new Money(0),
    });
    expect(figures.fees.processorFee.toFixed()).toBe('0');
    expect(figures.fees.totalAmount.toFixed()).toBe('100');
  });

  it('the processor schedule clamps at its maximum', () => {
    expect(scheduleFee(FIREBLOCKS_USD, new Money('100000')).toFixed()).toBe('50'); // 101 → 50
    expect(scheduleFee(FIREBLOCKS_USD, new Money('10000')).toFixed()).toBe('11'); // 10 + 1
  });
});

describe('entry validation', () => {
  const check = (entries: SplitEntryInput[]) => () => normaliseEntries(entries, 2);
  it.each([
    [[], 'amountSplitDetails must have at least one entry'],
    [[{ beneficiaryId: id(1), amount: '0' }], 'amountSplitDetails[0].amount must be greater than zero'],
    [[{ beneficiaryId: id(1), amount: '1' }, { beneficiaryId: id(2), amount: '0.000000000' }], 'amountSplitDetails[1].amount must be greater than zero'],
    [[{ beneficiaryId: id(1), amount: '1.123456789' }], 'amountSplitDetails[0].amount has 9 decimal places; a SOURCE amount allows at most 8'],
    [[{ beneficiaryId: id(1), amount: '1.001', amountCurrencyType: 'PAYROLL' as const }], 'amountSplitDetails[0].amount has 3 decimal places; a PAYROLL amount allows at most 2'],
    [
      [{ beneficiaryId: id(1), amount: '1' }, { beneficiaryId: id(1).toUpperCase(), amount: '2' }],
      `amountSplitDetails[1].beneficiaryId duplicates amountSplitDetails[0].beneficiaryId (${id(1)}); each beneficiary may appear once`,
    ],
  ])('%j → VALIDATION_ERROR', (entries, message) => {
    expect(check(entries)).toThrow(new DomainError('VALIDATION_ERROR', message));
  });

  it('defaults amountCurrencyType to SOURCE and accepts 10,000 entries but not 10,001', () => {
    expect(normaliseEntries([{ beneficiaryId: id(1), amount: '1' }], 2)[0]!.amountCurrencyType).toBe('SOURCE');
    const many = Array.from({ length: 10_001 }, (_, n) => ({ beneficiaryId: id(n), amount: '1' }));
    expect(normaliseEntries(many.slice(0, 10_000), 2)).toHaveLength(10_000);
    expect(check(many)).toThrow('amountSplitDetails must have at most 10000 entries');
  });
});

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
        const { fees, converted } = estimate({
          entries: input.entries.map((entry, n) => ({ ...entry, beneficiaryId: id(n) })),
          base: input.base,
          bips: input.bips,
          payrollDecimals: 2,
          schedule,
          bankFee: input.bankFee,
        });
        const eff = effectiveRate(new Money(input.base), input.bips);
        expect(fees.totalAmount.equals(fees.sourceCurrencyAmount.plus(fees.feeAmount))).toBe(true);
        expect(fees.feeAmount.equals(fees.spreadFee.plus(fees.processorFee).plus(fees.bankFee))).toBe(true);
        for (const fee of [fees.spreadFee, fees.processorFee, fees.bankFee]) {
          expect(fee.isNegative()).toBe(false);
          expect(fee.decimalPlaces()).toBeLessThanOrEqual(8);
        }
        expect(fees.estimatedReceivedAmount.lessThanOrEqualTo(fees.sourceCurrencyAmount.times(eff))).toBe(true);
        for (const entry of converted) {
          expect(entry.payrollAmount.lessThanOrEqualTo(entry.sourceCurrencyAmount.times(eff))).toBe(true);
          expect(entry.payrollAmount.decimalPlaces()).toBeLessThanOrEqual(2);
        }
      }),
      { numRuns: 300 },
    );
  });
});
