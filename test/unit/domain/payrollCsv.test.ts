import { parse } from 'csv-parse/sync';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Money } from '../../../src/domain/money/money.js';
import { resolveCsvBeneficiaries } from '../../../src/domain/payroll/payrollCsvBeneficiaries.js';
import { payrollCsvTemplateText, readPayrollCsvLayout } from '../../../src/domain/payroll/payrollCsvFile.js';
import { readPayrollCsvEntries } from '../../../src/domain/payroll/payrollCsvRows.js';

const usdToAed = { source: 2, payroll: 2, sourceCode: 'USD', payrollCode: 'AED' };
const B1 = '7e570006-0000-4000-8000-000000000001';

describe('payroll CSV file layout', () => {
  it('numbers rows as a spreadsheet does: header 1, blank lines and multi-line quoted fields counted', () => {
    const layout = readPayrollCsvLayout('beneficiaryReference,amount\n\nR-1,1.00\n"R\n2",2.00\n', { requirePurposeCode: false });
    expect(layout.problems).toEqual([]);
    expect(layout.rows.map(({ row, cells }) => [row, cells.beneficiaryReference])).toEqual([
      [3, 'R-1'],
      [5, 'R\n2'],
    ]);
  });

  it('numbers rows by the line each ends on, as csv-parse counts them, for any mix of blank lines, quotes and line breaks', () => {
    const cell = fc.constantFrom('R-1', ' 2.50 ', '', '"a,b"', '"x\ny"', '"x\ry"', '"he said ""hi"""');
    const rows = fc.array(fc.tuple(fc.array(cell, { minLength: 1, maxLength: 3 }), fc.nat(2)), { maxLength: 6 });
    const file = fc.record({ lineBreak: fc.constantFrom('\n', '\r\n', '\r'), rows, bom: fc.boolean(), finalBreak: fc.boolean() });
    fc.assert(
      fc.property(file, ({ lineBreak, rows, bom, finalBreak }) => {
        const body = rows.map(([cells, blankLines]) => cells.join(',') + lineBreak.repeat(blankLines)).join(lineBreak);
        const text = `${bom ? '\uFEFF' : ''}beneficiaryReference,amount${lineBreak}${body}${finalBreak ? lineBreak : ''}`;
        // csv-parse's own count (`info`), which the layout no longer asks for: it tripled the parse.
        const records = parse(text, { bom: true, trim: true, skip_empty_lines: true, relax_column_count: true, info: true }) as unknown as Array<{
          info: { lines: number };
        }>;
        const layout = readPayrollCsvLayout(text, { requirePurposeCode: false });
        expect(layout.rows.map(({ row }) => row)).toEqual(records.slice(1).map(({ info }) => info.lines));
      }),
      { numRuns: 500 },
    );
  });

  it('counts a CRLF inside a quoted field as one line break, as an editor does', () => {
    const layout = readPayrollCsvLayout('beneficiaryReference,amount\r\n"R\r\n1",1.00\r\nR-2,2.00\r\n', { requirePurposeCode: false });
    expect(layout.rows.map(({ row }) => row)).toEqual([3, 4]);
  });

  it('keeps a semicolon file whole, decimal points and all', () => {
    const layout = readPayrollCsvLayout('beneficiaryId;amount;purposeCode\r\n' + `${B1};1000.50;SAL\r\n`, { requirePurposeCode: true });
    expect(layout.problems).toEqual([]);
    expect(layout.rows[0]!.cells).toMatchObject({ beneficiaryId: B1, amount: '1000.50', purposeCode: 'SAL' });
  });

  it('reports every header problem together, in the names the file used', () => {
    const layout = readPayrollCsvLayout('Amount,AMOUNT,notes\n1.00,2.00,x\n', { requirePurposeCode: true });
    const message = expect.any(String);
    expect(layout.problems).toEqual([
      { row: 1, column: 'AMOUNT', reason: 'DUPLICATE_COLUMN', message },
      { row: 1, column: 'notes', reason: 'UNKNOWN_COLUMN', message },
      { row: 1, column: 'beneficiaryReference', reason: 'MISSING_COLUMN', message },
      { row: 1, column: 'purposeCode', reason: 'MISSING_COLUMN', message },
    ]);
  });

  it('reads its own template back without a problem', () => {
    const layout = readPayrollCsvLayout(payrollCsvTemplateText(), { requirePurposeCode: true });
    const { entries, problems } = readPayrollCsvEntries(layout, usdToAed, true);
    expect([...layout.problems, ...problems]).toEqual([]);
    expect(entries).toEqual([
      {
        row: 2,
        beneficiary: { beneficiaryReference: 'EMP-0001' },
        amount: '1000.00',
        requestedAmount: new Money('1000.00'),
        amountCurrencyType: 'SOURCE',
        purposeCode: 'SAL',
      },
    ]);
  });
});

describe('payroll CSV beneficiaries', () => {
  const entry = (row: number, beneficiary: { beneficiaryId: string } | { beneficiaryReference: string }) =>
    ({ row, beneficiary, amount: '1.00', amountCurrencyType: 'SOURCE', purposeCode: undefined }) as const;
  const name = (column: string) => column;

  it('matches ids and references, and names both rows of a beneficiary paid twice (once by id, once by reference)', () => {
    const { beneficiaryIds, problems } = resolveCsvBeneficiaries(
      [entry(2, { beneficiaryReference: 'R-1' }), entry(3, { beneficiaryId: B1 })],
      [{ id: B1, reference: 'R-1', active: true }],
      name,
    );
    expect(beneficiaryIds).toEqual([B1, undefined]);
    expect(problems).toEqual([{ row: 3, column: 'beneficiaryId', reason: 'DUPLICATE_ENTRY', message: expect.any(String) }]);
  });

  it('refuses a reference two beneficiaries share, rather than guessing', () => {
    const other = '7e570006-0000-4000-8000-000000000002';
    const { problems } = resolveCsvBeneficiaries(
      [entry(2, { beneficiaryReference: 'R-1' })],
      [
        { id: B1, reference: 'R-1', active: true },
        { id: other, reference: 'R-1', active: true },
      ],
      name,
    );
    expect(problems).toEqual([{ row: 2, column: 'beneficiaryReference', reason: 'AMBIGUOUS_REFERENCE', message: expect.any(String) }]);
  });
});
