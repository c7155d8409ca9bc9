import { CsvError, parse } from 'csv-parse/sync';
import { stringify } from 'csv-stringify/sync';
import type { ErrorDetail } from '../errors.js';
import { MAX_SPLIT_ENTRIES } from '../fees/payrollFees.js';
import { type ParsedRecord, splitPlainCsv } from './plainCsv.js';

/**
 * The layout of a payroll CSV file (the spec's `PayrollCsv`), pure: the header row read into
 * columns, every data row kept with its 1-based line (the header is line 1, as a spreadsheet
 * numbers it). Problems of the layout are collected, not thrown, so that a file is answered
 * once with all of them.
 */

/** The columns a file may have, by the lower-case form of their name. */
export const PAYROLL_CSV_COLUMNS = [
  ...(['beneficiaryId', 'beneficiaryReference', 'amount', 'amountCurrencyType', 'purposeCode'] as const),
  // A WPS salary's details (docs/wps.md): each row's `wps` of the JSON body.
  ...(['payPeriodStart', 'payPeriodEnd', 'fixedAmount', 'variableAmount', 'leaveDays'] as const),
];
export type PayrollCsvColumn = (typeof PAYROLL_CSV_COLUMNS)[number];

/** The template's columns, as a finance team fills them (a reference is what a spreadsheet knows), and its example row. */
const TEMPLATE_COLUMNS: readonly PayrollCsvColumn[] = ['beneficiaryReference', 'beneficiaryId', 'amount', 'amountCurrencyType', 'purposeCode'];
const WPS_TEMPLATE_COLUMNS: readonly PayrollCsvColumn[] = [
  ...(['beneficiaryReference', 'beneficiaryId', 'amount', 'amountCurrencyType', 'purposeCode'] as const),
  ...(['payPeriodStart', 'payPeriodEnd', 'fixedAmount', 'variableAmount', 'leaveDays'] as const),
];
const TEMPLATE_EXAMPLE: Record<PayrollCsvColumn, string> = {
  beneficiaryReference: 'EMP-0001',
  beneficiaryId: '',
  amount: '1000.00',
  amountCurrencyType: 'SOURCE',
  purposeCode: 'SAL',
  payPeriodStart: '',
  payPeriodEnd: '',
  fixedAmount: '',
  variableAmount: '',
  leaveDays: '',
};
/** A WPS employer's example row: a salary in AED, its period and parts. */
const WPS_TEMPLATE_EXAMPLE: Record<PayrollCsvColumn, string> = {
  ...TEMPLATE_EXAMPLE,
  amount: '6500.00',
  amountCurrencyType: 'PAYROLL',
  payPeriodStart: '2026-11-01',
  payPeriodEnd: '2026-11-30',
  fixedAmount: '4000.00',
  variableAmount: '2500.00',
  leaveDays: '0',
};

/**
 * The template file: the header row and one example row. The row names `reference`, one of the
 * customer's own beneficiaries, when it has one, so that the template is accepted as it comes
 * (a made-up reference would be refused as UNKNOWN_BENEFICIARY); EMP-0001 otherwise. A WPS
 * employer's template has the columns of a WPS salary too.
 */
export function payrollCsvTemplateText(reference?: string | null, wps = false): string {
  const example = { ...(wps ? WPS_TEMPLATE_EXAMPLE : TEMPLATE_EXAMPLE), ...(reference ? { beneficiaryReference: reference } : {}) };
  const columns = wps ? WPS_TEMPLATE_COLUMNS : TEMPLATE_COLUMNS;
  return stringify([columns, columns.map((column) => example[column])]);
}

const COLUMN_BY_LOWER_NAME = new Map<string, PayrollCsvColumn>(PAYROLL_CSV_COLUMNS.map((column) => [column.toLowerCase(), column]));

export interface PayrollCsvRow {
  /** 1-based line of the file: the first data row is 2. */
  row: number;
  /** Each column's trimmed text; empty when the column is absent or the cell blank. */
  cells: Record<PayrollCsvColumn, string>;
}

export interface PayrollCsvLayout {
  rows: PayrollCsvRow[];
  /** The header's names as written, for messages: `column` of a problem is the file's own name. */
  headerNames: Partial<Record<PayrollCsvColumn, string>>;
  problems: ErrorDetail[];
}

/** The separator, from the header line: a semicolon file has no comma in its header (names never hold either). */
function separatorOf(text: string): ',' | ';' {
  const headerLine = text.replace(/^\uFEFF/, '').split(/\r?\n/, 1)[0] ?? '';
  return headerLine.includes(';') && !headerLine.includes(',') ? ';' : ',';
}

const LINE_BREAK = /\r\n|\r|\n/g;
const ENDS_WITH_LINE_BREAK = /[\r\n]$/;

/**
 * Each record's line, counted from the text it was read from (`raw`: the record, the empty lines
 * skipped before it and its line break), a CRLF being one break. csv-parse's own `info` gives the
 * same lines (property-tested, except that it counts a CRLF inside quotes as two) but building it
 * for every record costs more than the parse itself.
 */
function withLines(records: Array<{ record: string[]; raw: string }>): ParsedRecord[] {
  let breaks = 0;
  return records.map(({ record, raw }) => {
    breaks += raw.match(LINE_BREAK)?.length ?? 0;
    return { record, line: ENDS_WITH_LINE_BREAK.test(raw) ? breaks : breaks + 1 };
  });
}

function parseRecords(text: string): { records: ParsedRecord[]; problem?: ErrorDetail } {
  const delimiter = separatorOf(text);
  const plain = splitPlainCsv(text, delimiter);
  if (plain) return { records: plain };
  try {
    const records = parse(text, { bom: true, delimiter, trim: true, skip_empty_lines: true, relax_column_count: true, raw: true });
    // With `raw: true` each record comes with its text; csv-parse's sync types do not say so.
    return { records: withLines(records as unknown as Array<{ record: string[]; raw: string }>) };
  } catch (error) {
    if (!(error instanceof CsvError)) throw error;
    const line = (error as CsvError & { lines?: number }).lines;
    return { records: [], problem: { ...(line ? { row: line } : {}), reason: 'CSV_NOT_PARSABLE', message: `the file is not valid CSV: ${error.message}` } };
  }
}

/**
 * Header problems: each column known and once, `amount` and a beneficiary column present. An
 * unknown column is ignored for the rows (they are still checked, so the answer lists the rows'
 * problems too); a repeated or missing one makes the rows unreadable (`blocking`).
 */
function readHeader(names: string[], requirePurposeCode: boolean): { columns: (PayrollCsvColumn | null)[]; problems: ErrorDetail[]; blocking: boolean } {
  const problems: ErrorDetail[] = [];
  let unknownColumns = 0;
  const seen = new Set<PayrollCsvColumn>();
  const columns = names.map((name) => {
    const column = COLUMN_BY_LOWER_NAME.get(name.toLowerCase()) ?? null;
    if (!column) {
      unknownColumns += 1;
      problems.push({ row: 1, column: name, reason: 'UNKNOWN_COLUMN', message: `unknown column "${name}"; the columns are ${PAYROLL_CSV_COLUMNS.join(', ')}` });
    } else {
      if (seen.has(column)) problems.push({ row: 1, column: name, reason: 'DUPLICATE_COLUMN', message: `the column ${column} appears twice` });
      seen.add(column);
    }
    return column;
  });
  if (!seen.has('amount')) problems.push({ row: 1, column: 'amount', reason: 'MISSING_COLUMN', message: 'the column amount is missing' });
  if (!seen.has('beneficiaryId') && !seen.has('beneficiaryReference')) {
    problems.push({
      row: 1,
      column: 'beneficiaryReference',
      reason: 'MISSING_COLUMN',
      message: 'a column beneficiaryId or beneficiaryReference is needed to name each beneficiary',
    });
  }
  if (requirePurposeCode && !seen.has('purposeCode')) {
    problems.push({
      row: 1,
      column: 'purposeCode',
      reason: 'MISSING_COLUMN',
      message: 'the column purposeCode is missing; a payroll request needs a purpose code per row',
    });
  }
  return { columns, problems, blocking: problems.length > unknownColumns };
}

function emptyCells(): Record<PayrollCsvColumn, string> {
  return Object.fromEntries(PAYROLL_CSV_COLUMNS.map((column) => [column, ''])) as Record<PayrollCsvColumn, string>;
}

/** Reads the file's layout; the rows' values are checked by payrollCsvRows. */
export function readPayrollCsvLayout(text: string, options: { requirePurposeCode: boolean }): PayrollCsvLayout {
  const { records, problem } = parseRecords(text);
  if (problem) return { rows: [], headerNames: {}, problems: [problem] };
  const [header, ...data] = records;
  if (!header)
    return {
      rows: [],
      headerNames: {},
      problems: [{ row: 1, reason: 'EMPTY_PAYROLL', message: 'the file is empty; it needs a header row and at least one row' }],
    };
  const { columns, problems, blocking } = readHeader(header.record, options.requirePurposeCode);
  const headerNames: PayrollCsvLayout['headerNames'] = {};
  columns.forEach((column, index) => {
    if (column && headerNames[column] === undefined) headerNames[column] = header.record[index];
  });
  if (data.length === 0) problems.push({ row: 2, reason: 'EMPTY_PAYROLL', message: 'the file has a header row but no rows to pay' });
  if (data.length > MAX_SPLIT_ENTRIES) {
    problems.push({ reason: 'TOO_MANY_ENTRIES', message: `the file has ${data.length} rows; at most ${MAX_SPLIT_ENTRIES} are allowed` });
  }
  if (blocking || data.length === 0 || data.length > MAX_SPLIT_ENTRIES) return { rows: [], headerNames, problems };
  const rows = data.map(({ record, line }) => {
    const cells = emptyCells();
    columns.forEach((column, index) => {
      if (column) cells[column] = record[index] ?? '';
    });
    if (record.length > columns.length) {
      problems.push({ row: line, reason: 'CSV_NOT_PARSABLE', message: `the row has ${record.length} fields; the header has ${columns.length}` });
    }
    return { row: line, cells };
  });
  return { rows, headerNames, problems };
}
