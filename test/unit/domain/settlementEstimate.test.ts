import { describe, expect, it } from 'vitest';
import { DomainError } from '../../../src/domain/errors.js';
import { type EstimateEntryInput, estimateFigures } from '../../../src/domain/fees/estimateFigures.js';
import { payrollFeeEstimateView } from '../../../src/domain/fees/estimateView.js';
import { Money } from '../../../src/domain/money/money.js';

/**
 * The estimate with minor units, hand-computed (the arithmetic is in the comments; cross-checked
 * with Python's decimal module). Fee schedules as in the demo world.
 */

const FIREBLOCKS_USD = { percentBps: new Money(10), fixed: new Money('1.00'), min: new Money('2.00'), max: new Money('50.00') };
const CIRCLE_USDC = { percentBps: new Money(5), fixed: new Money(0), min: new Money('0.5'), max: new Money(25) };
const USD = { code: 'USD', decimals: 2 };
const USDC = { code: 'USDC', decimals: 6 };
const AED = { code: 'AED', decimals: 2 };
const JPY = { code: 'JPY', decimals: 0 };
const id = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;

function run(input: {
  entries: EstimateEntryInput[];
  source: { code: string; decimals: number };
  payroll: { code: string; decimals: number };
  base: string | null;
  bips: number;
  schedule: typeof FIREBLOCKS_USD | null;
  bankFee: string;
}) {
  const figures = estimateFigures({
    entries: input.entries,
    source: input.source,
    payroll: input.payroll,
    baseRate: input.base === null ? null : new Money(input.base),
    spreadBips: input.bips,
    processorSchedule: input.schedule,
    bankFeePerBeneficiary: new Money(input.bankFee),
  });
  return payrollFeeEstimateView(figures, {
    sourceAccountCurrencyId: id(101),
    payrollAccountCurrencyId: id(102),
    feeHash: 'h',
    expiresAt: 't',
    rateSource: 'WORLD',
    rateAsOf: 't',
  });
}

/** Entry 1 in the source currency, entry 2 in the payroll currency. */
const sourceThenPayroll = (sourceAmount: string, payrollAmount: string): EstimateEntryInput[] => [
  { beneficiaryId: id(1), amount: sourceAmount },
  { beneficiaryId: id(2), amount: payrollAmount, amountCurrencyType: 'PAYROLL' },
];
/** [source amount, payroll amount] of each line. */
const linePairs = (view: ReturnType<typeof run>) => view.lines.map((line) => [line.sourceCurrencyAmount, line.amount]);

/** The VALIDATION_ERROR `run` throws: its code and the facts a client decides by. */
function validationFacts(run: () => unknown): DomainError {
  try {
    run();
  } catch (error) {
    expect((error as DomainError).code).toBe('VALIDATION_ERROR');
    return error as DomainError;
  }
  throw new Error('expected a VALIDATION_ERROR');
}

describe('estimate figures with minor units', () => {
  it('USD source (2 places) → AED: the spec example, every source figure at 2 places', () => {
    const view = run({
      entries: [
        { beneficiaryId: id(1), amount: '1000.00' },
        { beneficiaryId: id(2), amount: '2000.00', amountCurrencyType: 'PAYROLL' },
        { beneficiaryId: id(3), amount: '250.5' },
      ],
      source: USD,
      payroll: AED,
      base: '3.6725',
      bips: 50,
      schedule: FIREBLOCKS_USD,
      bankFee: '5.00',
    });
    // eff = 3.6725 × (1 − 0.005) = 3.6541375
    expect(view.lines).toEqual([
      // 1000.00 × 3.6541375 = 3654.1375 → down 3654.13
      { beneficiaryId: id(1), amountCurrencyType: 'SOURCE', sourceCurrencyAmount: '1000.00', amount: '3654.13' },
      // 2000 ÷ 3.6541375 = 547.3247791… → up to 2 places 547.33 (the old rule gave 547.32477911)
      { beneficiaryId: id(2), amountCurrencyType: 'PAYROLL', sourceCurrencyAmount: '547.33', amount: '2000.00' },
      // 250.5 × 3.6541375 = 915.36144375 → down 915.36; "250.5" is written at the scale: "250.50"
      { beneficiaryId: id(3), amountCurrencyType: 'SOURCE', sourceCurrencyAmount: '250.50', amount: '915.36' },
    ]);
    expect(view.feeBreakdown).toEqual({
      sourceCurrencyAmount: '1797.83', // 1000.00 + 547.33 + 250.50
      spreadFee: '8.99', // 1797.83 × 0.005 = 8.98915 → up 8.99
      processorFee: '2.80', // 1797.83 × 0.001 + 1 = 2.79783 → up 2.80
      bankFee: '4.11', // 3 × 5.00 ÷ 3.6541375 = 4.1049358… → up 4.11
      totalFee: '15.90', // 8.99 + 2.80 + 4.11
      estimatedReceivedAmount: '6569.49', // 3654.13 + 2000.00 + 915.36
      payrollCurrencyCode: 'AED',
      feeCurrencyCode: 'USD',
      exchangeRate: '3.6541375',
      baseRate: '3.6725',
      rateSource: 'WORLD',
      rateAsOf: 't',
    });
    expect(view).toMatchObject({ totalAmount: '1813.73', sourceCurrencyAmount: '1797.83', feeAmount: '15.90', estimatedReceivedAmount: '6569.49' });
  });

  it('USDC source (6 places) → AED', () => {
    const view = run({
      entries: sourceThenPayroll('1000.123456', '2000.00'),
      source: USDC,
      payroll: AED,
      base: '3.6725',
      bips: 50,
      schedule: CIRCLE_USDC,
      bankFee: '5.00',
    });
    // 1000.123456 × 3.6541375 = 3654.5886251992 → down 3654.58
    // 2000 ÷ 3.6541375 = 547.324779103… → up to 6 places 547.324780
    expect(linePairs(view)).toEqual([
      ['1000.123456', '3654.58'],
      ['547.324780', '2000.00'],
    ]);
    expect(view.feeBreakdown).toMatchObject({
      sourceCurrencyAmount: '1547.448236', // 1000.123456 + 547.324780
      spreadFee: '7.737242', // 1547.448236 × 0.005 = 7.73724118 → up 7.737242
      processorFee: '0.773725', // 1547.448236 × 0.0005 = 0.773724118 (above min 0.5) → up 0.773725
      bankFee: '2.736624', // 10.00 ÷ 3.6541375 = 2.7366238955… → up 2.736624
      totalFee: '11.247591',
      estimatedReceivedAmount: '5654.58',
    });
    expect(view.totalAmount).toBe('1558.695827'); // 1547.448236 + 11.247591
  });

  it('USD → JPY payroll (0 places)', () => {
    const view = run({
      entries: sourceThenPayroll('100.00', '10000'),
      source: USD,
      payroll: JPY,
      base: '151.25',
      bips: 50,
      schedule: FIREBLOCKS_USD,
      bankFee: '500',
    });
    // eff = 151.25 × 0.995 = 150.49375
    // 100.00 × 150.49375 = 15049.375 → down to 0 places 15049; 10000 ÷ 150.49375 = 66.4479… → up 66.45
    expect(linePairs(view)).toEqual([
      ['100.00', '15049'],
      ['66.45', '10000'],
    ]);
    expect(view.feeBreakdown).toMatchObject({
      sourceCurrencyAmount: '166.45',
      spreadFee: '0.84', // 166.45 × 0.005 = 0.83225 → up 0.84
      processorFee: '2.00', // 166.45 × 0.001 + 1 = 1.16645 → clamped to min 2.00
      bankFee: '6.65', // 2 × 500 ÷ 150.49375 = 6.6447… → up 6.65
      totalFee: '9.49',
      estimatedReceivedAmount: '25049', // 15049 + 10000
    });
    expect(view.totalAmount).toBe('175.94'); // 166.45 + 9.49
  });

  it('same-currency payroll: rate 1 and no spread, whatever the customer BIPS', () => {
    // base null: no stored USD → USD rate is needed
    const view = run({
      entries: sourceThenPayroll('1000.00', '250.00'),
      source: USD,
      payroll: USD,
      base: null,
      bips: 50,
      schedule: FIREBLOCKS_USD,
      bankFee: '5.00',
    });
    expect(linePairs(view)).toEqual([
      ['1000.00', '1000.00'],
      ['250.00', '250.00'],
    ]);
    expect(view.feeBreakdown).toMatchObject({
      baseRate: '1',
      exchangeRate: '1',
      spreadFee: '0.00', // no conversion, no spread
      processorFee: '2.25', // 1250.00 × 0.001 + 1
      bankFee: '10.00', // 2 × 5.00 ÷ 1
      totalFee: '12.25',
    });
    expect(view.totalAmount).toBe('1262.25');
  });

  it('no processor schedule: processor fee 0 at the source scale', () => {
    const view = run({ entries: [{ beneficiaryId: id(1), amount: '10' }], source: USD, payroll: AED, base: '3.6725', bips: 0, schedule: null, bankFee: '0' });
    expect(view.feeBreakdown).toMatchObject({ spreadFee: '0.00', processorFee: '0.00', bankFee: '0.00', totalFee: '0.00' });
    expect(view).toMatchObject({ totalAmount: '10.00', estimatedReceivedAmount: '36.72' }); // 36.725 down
  });
});

describe('estimate validation names the rule, the field and the entry', () => {
  const at = (reason: string, entryIndex: number, name: string) => ({ reason, field: `/amountSplitDetails/${entryIndex}/${name}`, entryIndex });
  const base = { source: USD, payroll: AED, base: '3.6725', bips: 50, schedule: FIREBLOCKS_USD, bankFee: '5.00' };

  it('a SOURCE amount beyond the source currency minor units', () => {
    expect(validationFacts(() => run({ ...base, entries: [{ beneficiaryId: id(1), amount: '1697.99753363' }] }))).toMatchObject(
      at('TOO_MANY_DECIMALS', 0, 'amount'),
    );
  });

  it('a PAYROLL amount beyond the payroll scale (JPY 0)', () => {
    const entries: EstimateEntryInput[] = [{ beneficiaryId: id(1), amount: '10000.5', amountCurrencyType: 'PAYROLL' }];
    expect(validationFacts(() => run({ ...base, payroll: JPY, base: '151.25', entries }))).toMatchObject(at('TOO_MANY_DECIMALS', 0, 'amount'));
  });

  it('an entry converting to zero', () => {
    // 0.001 USDC × 3.6541375 = 0.0036541375 → down 0.00 AED: nothing would be paid
    const entries = [
      { beneficiaryId: id(1), amount: '5' },
      { beneficiaryId: id(2), amount: '0.001' },
    ];
    expect(validationFacts(() => run({ ...base, source: USDC, schedule: CIRCLE_USDC, entries }))).toMatchObject(at('ZERO_PAYOUT', 1, 'amount'));
  });

  it('a figure beyond 10^15 (a tiny rate and a large PAYROLL amount)', () => {
    const entries: EstimateEntryInput[] = [{ beneficiaryId: id(1), amount: '999999999999999.99', amountCurrencyType: 'PAYROLL' }];
    expect(validationFacts(() => run({ ...base, base: '0.5', entries }))).toMatchObject({ reason: 'AMOUNT_LIMIT_EXCEEDED', entryIndex: 0 });
  });

  it('duplicates, empty list and non-positive amounts', () => {
    const twice = [
      { beneficiaryId: id(1), amount: '1' },
      { beneficiaryId: id(1).toUpperCase(), amount: '2' },
    ];
    expect(validationFacts(() => run({ ...base, entries: twice }))).toMatchObject(at('DUPLICATE_ENTRY', 1, 'beneficiaryId'));
    expect(validationFacts(() => run({ ...base, entries: [] }))).toMatchObject({ reason: 'EMPTY_PAYROLL', field: '/amountSplitDetails' });
    expect(validationFacts(() => run({ ...base, entries: [{ beneficiaryId: id(1), amount: '0.00' }] }))).toMatchObject(at('AMOUNT_NOT_POSITIVE', 0, 'amount'));
  });
});
