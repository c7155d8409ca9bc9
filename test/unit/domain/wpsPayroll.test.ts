import { describe, expect, it } from 'vitest';
import { payrollCsvTemplateText, readPayrollCsvLayout } from '../../../src/domain/payroll/payrollCsvFile.js';
import { readPayrollCsvEntries } from '../../../src/domain/payroll/payrollCsvRows.js';
import { isWpsPayroll, wpsProblems } from '../../../src/domain/payroll/wpsPayroll.js';

/** Who pays through WPS, and what a WPS payroll's entries must carry (docs/wps.md). */

const employer = { establishmentId: '1000000123456', agentRoutingCode: '802420101' };
const registered = { labourCardPersonId: '915012345663', wpsRoutingCode: '802420101' };
const salary = { payPeriodStart: '2026-11-01', payPeriodEnd: '2026-11-30', fixedAmount: '4000.00', variableAmount: '2500.00', leaveDays: 0 };
const usdToAed = { source: 2, payroll: 2, sourceCode: 'USD', payrollCode: 'AED' };

describe('isWpsPayroll', () => {
  it('is an employer with an establishment id paying in AED', () => {
    expect(isWpsPayroll(employer, 'AED')).toBe(true);
    expect(isWpsPayroll(employer, 'USD')).toBe(false);
    expect(isWpsPayroll({ establishmentId: null, agentRoutingCode: null }, 'AED')).toBe(false);
  });
});

describe('wpsProblems', () => {
  it('accepts an entry with every field, its parts adding up to the amount', () => {
    expect(wpsProblems(employer, [{ beneficiary: registered, wps: salary, aedAmount: '6500' }])).toEqual([]);
  });

  it('lists every missing field of every entry, and the employer without its agent', () => {
    const problems = wpsProblems({ ...employer, agentRoutingCode: null }, [
      { beneficiary: { labourCardPersonId: null, wpsRoutingCode: null }, wps: salary, aedAmount: '6500.00' },
      { beneficiary: registered, wps: { payPeriodStart: '2026-11-01', fixedAmount: '1.00' }, aedAmount: '1.00' },
    ]);
    expect(problems.map(({ field, entryIndex, reason }) => ({ field, entryIndex, reason }))).toEqual([
      { field: undefined, entryIndex: undefined, reason: 'WPS_FIELD_MISSING' },
      { field: '/amountSplitDetails/0/beneficiary/labourCardPersonId', entryIndex: 0, reason: 'WPS_FIELD_MISSING' },
      { field: '/amountSplitDetails/0/beneficiary/wpsRoutingCode', entryIndex: 0, reason: 'WPS_FIELD_MISSING' },
      { field: '/amountSplitDetails/1/wps/payPeriodEnd', entryIndex: 1, reason: 'WPS_FIELD_MISSING' },
      { field: '/amountSplitDetails/1/wps/variableAmount', entryIndex: 1, reason: 'WPS_FIELD_MISSING' },
      { field: '/amountSplitDetails/1/wps/leaveDays', entryIndex: 1, reason: 'WPS_FIELD_MISSING' },
    ]);
  });

  it('asks for the account the salary file names the employee by, as the profile says', () => {
    const byAccountNumber = { ...registered, iban: null, accountNumber: '0240043520123456701' };
    expect(wpsProblems(employer, [{ beneficiary: byAccountNumber, wps: salary, aedAmount: '6500' }], 'ACCOUNT_NUMBER')).toEqual([]);
    expect(wpsProblems(employer, [{ beneficiary: byAccountNumber, wps: salary, aedAmount: '6500' }], 'IBAN')).toEqual([
      expect.objectContaining({ field: '/amountSplitDetails/0/beneficiary/iban', reason: 'WPS_FIELD_MISSING' }),
    ]);
  });

  it.each([
    ['parts that do not add up to the amount', { wps: salary, aedAmount: '6500.01' }, '/amountSplitDetails/0/wps/variableAmount'],
    ['an amount not in AED', { wps: salary, aedAmount: null }, '/amountSplitDetails/0/amountCurrencyType'],
    ['a period ending before it starts', { wps: { ...salary, payPeriodEnd: '2026-10-31' }, aedAmount: '6500' }, '/amountSplitDetails/0/wps/payPeriodEnd'],
    ['more leave days than days', { wps: { ...salary, leaveDays: 31 }, aedAmount: '6500' }, '/amountSplitDetails/0/wps/payPeriodEnd'],
  ])('refuses %s as WPS_FIELD_INVALID', (_case, entry, field) => {
    expect(wpsProblems(employer, [{ beneficiary: registered, ...entry }])).toEqual([expect.objectContaining({ field, reason: 'WPS_FIELD_INVALID' })]);
  });
});

describe('the WPS columns of a payroll CSV file', () => {
  it("reads a WPS employer's template back as an entry with its wps details", () => {
    const layout = readPayrollCsvLayout(payrollCsvTemplateText('EMP-7', true), { requirePurposeCode: true });
    const { entries, problems } = readPayrollCsvEntries(layout, usdToAed, true);
    expect([...layout.problems, ...problems]).toEqual([]);
    expect(entries[0]).toMatchObject({ amount: '6500.00', amountCurrencyType: 'PAYROLL', wps: salary });
  });

  it('reports a malformed date, amount or number of days with its row and column', () => {
    const csv = 'beneficiaryReference,amount,amountCurrencyType,payPeriodStart,fixedAmount,leaveDays\nEMP-1,10.00,PAYROLL,2026-02-30,1.234,400\n';
    const layout = readPayrollCsvLayout(csv, { requirePurposeCode: false });
    const { entries, problems } = readPayrollCsvEntries(layout, usdToAed, false);
    expect(entries).toEqual([]);
    expect(problems.map(({ row, column }) => ({ row, column }))).toEqual([
      { row: 2, column: 'payPeriodStart' },
      { row: 2, column: 'fixedAmount' },
      { row: 2, column: 'leaveDays' },
    ]);
  });
});
