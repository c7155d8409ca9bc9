import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { controlFigures } from '../../../src/adapters/bank/iso20022/pain001.js';
import { salaryFileOfBatch } from '../../../src/domain/bank/wpsBatch.js';
import { SIF_PROFILES, SifError, type WpsSalary, buildSalaryInformationFile } from '../../../src/domain/bank/wpsSalaryFile.js';
import { Money } from '../../../src/domain/money/money.js';
import type { PayoutBatch } from '../../../src/domain/payouts/payoutBatch.js';

/**
 * The Salary Information File (docs/wps.md): the layout of the banks' guides, checked against a
 * golden file written from the issue's example, and its invariants over random payrolls.
 */

const GOLDEN = '0000000123456160126113000.SIF';
const golden = readFileSync(new URL(`../../fixtures/wps/${GOLDEN}`, import.meta.url), 'utf8');

const employer = { establishmentId: '123456', agentRoutingCode: '802420101', name: 'abc company' };
const salary: WpsSalary = {
  transferId: '00000000-0000-4000-8000-000000000001',
  personId: '915012345663',
  routingCode: '802420101',
  iban: 'AE16 0240 0435 2012 3456 701',
  accountNumber: null,
  payPeriodStart: '2016-01-01',
  payPeriodEnd: '2016-01-31',
  fixedAmount: '4000',
  variableAmount: '2500.00',
  leaveDays: 0,
};
// 11:30 in the UAE (UTC+4, no daylight saving).
const createdAt = new Date('2016-01-26T07:30:00Z');

describe('buildSalaryInformationFile', () => {
  it('writes the layout of the WPS guides: name, EDR lines, the SCR last (golden file)', () => {
    const file = buildSalaryInformationFile(employer, [salary], SIF_PROFILES.UAEWPS, createdAt);
    expect(file.fileName).toBe(GOLDEN);
    expect(file.text).toBe(golden);
    expect(file).toMatchObject({ edrCount: 1, total: '6500.00' });
  });

  it('follows the profile: the account number instead of the IBAN, the time to the second, a wider person id', () => {
    const withAccount = { ...salary, accountNumber: '0240043520123456701' };
    const byAccount = buildSalaryInformationFile(employer, [withAccount], SIF_PROFILES.UAEWPS_ACCOUNT_NUMBER, createdAt);
    expect(byAccount.text.split('\r\n')[0]!.split(',')[3]).toBe('0240043520123456701');
    const seconds = buildSalaryInformationFile(employer, [salary], SIF_PROFILES.UAEWPS_SECONDS, new Date('2016-01-26T07:30:45Z'));
    expect(seconds.text.split('\r\n')[1]!.split(',')[4]).toBe('113045');
    expect(seconds.fileName).toBe('0000000123456160126113045.SIF');
    const wide = buildSalaryInformationFile(employer, [salary], { ...SIF_PROFILES.UAEWPS, personIdWidth: 16 }, createdAt);
    expect(wide.text.split(',')[1]).toBe('0000915012345663');
  });

  it('cuts the employer name to 35 characters and keeps commas out of it', () => {
    const named = { ...employer, name: 'Gulf Catering, Facilities and Logistics Services LLC' };
    const scr = buildSalaryInformationFile(named, [salary], SIF_PROFILES.UAEWPS, createdAt).text.split('\r\n')[1]!;
    expect(scr.split(',')).toHaveLength(10);
    expect(scr.split(',')[9]).toBe('Gulf Catering Facilities and Logist');
  });

  it.each([
    ['a period ending before it starts', { payPeriodEnd: '2015-12-31' }],
    ['a date that does not exist', { payPeriodEnd: '2016-02-30' }],
    ['more leave days than days', { leaveDays: 32 }],
    ['a fraction of a fils', { fixedAmount: '4000.005' }],
    ['a routing code of 8 digits', { routingCode: '80242010' }],
    ['a person id longer than the profile', { personId: '123456789012345' }],
    ['no IBAN', { iban: null }],
  ])('refuses %s', (_case, change) => {
    expect(() => buildSalaryInformationFile(employer, [{ ...salary, ...change }], SIF_PROFILES.UAEWPS, createdAt)).toThrow(SifError);
  });
});

/** An amount in AED: up to 10^9 fils. */
const fils = fc.integer({ min: 0, max: 1_000_000_000 }).map((n) => new Money(n).dividedBy(100));
const salaries = fc.array(
  fc.record({
    fixed: fils,
    variable: fils,
    person: fc.integer({ min: 1, max: 99_999_999 }),
    start: fc.integer({ min: 1, max: 28 }),
    leave: fc.integer({ min: 0, max: 28 }),
  }),
  { minLength: 1, maxLength: 40 },
);

function batchOf(generated: { fixed: Money; variable: Money; person: number; start: number; leave: number }[]): PayoutBatch {
  return {
    batchId: '00000000-0000-4000-8000-0000000000ba',
    payrollRequestId: null,
    currencyCode: 'AED',
    debtor: { accountCurrencyId: 'x', accountProvider: 'BANK', name: 'abc company', iban: null, bic: null },
    requestedExecutionDate: '2026-11-30',
    wpsEmployer: employer,
    items: generated.map((g, n) => ({
      transferId: `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`,
      amount: g.fixed.plus(g.variable).toFixed(2),
      creditor: { name: `E${n}`, iban: 'AE160240043520123456701', accountNumber: null, bankName: null, bic: null },
      purposeCode: 'SAL',
      beneficiaryReference: null,
      wps: {
        personId: String(g.person),
        routingCode: '802420101',
        payPeriodStart: `2026-11-${String(g.start).padStart(2, '0')}`,
        payPeriodEnd: '2026-11-30',
        fixedAmount: g.fixed.toFixed(),
        variableAmount: g.variable.toFixed(),
        leaveDays: Math.min(g.leave, 30 - g.start),
      },
    })),
  };
}

describe('the SIF of a payout batch (property)', () => {
  it("has one EDR per payout, and an SCR whose count and total are the EDRs' and the pain.001's control figures", () => {
    fc.assert(
      fc.property(salaries, (generated) => {
        const batch = batchOf(generated);
        const file = salaryFileOfBatch(batch, SIF_PROFILES.UAEWPS, createdAt)!;
        const lines = file.text.split('\r\n').slice(0, -1);
        const edrs = lines.filter((line) => line.startsWith('EDR,'));
        expect(lines.at(-1)!.startsWith('SCR,')).toBe(true);
        expect(lines.filter((line) => line.startsWith('SCR,'))).toHaveLength(1);
        expect(edrs).toHaveLength(batch.items.length);
        const edrTotal = edrs.reduce((total, line) => total.plus(line.split(',')[7]!).plus(line.split(',')[8]!), new Money(0));
        const scr = lines.at(-1)!.split(',');
        expect(Number(scr[6])).toBe(edrs.length);
        expect(new Money(scr[7]!).equals(edrTotal)).toBe(true);
        const pain001 = controlFigures(batch.items);
        expect(pain001.count).toBe(edrs.length);
        expect(new Money(pain001.sum).equals(scr[7]!)).toBe(true);
        for (const line of edrs) expect(line.split(',')[7]).toMatch(/^\d+\.\d{2}$/);
      }),
    );
  });

  it('refuses a batch whose salary differs from its payout by a fils', () => {
    fc.assert(
      fc.property(salaries, fc.nat(), (generated, pick) => {
        const batch = batchOf(generated);
        const item = batch.items[pick % batch.items.length]!;
        item.amount = new Money(item.amount).plus('0.01').toFixed(2);
        expect(() => salaryFileOfBatch(batch, SIF_PROFILES.UAEWPS, createdAt)).toThrow(SifError);
      }),
    );
  });
});
