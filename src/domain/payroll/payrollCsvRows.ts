import type { Decimal } from 'decimal.js';
import type { components } from '../../../generated/api.js';
import { type ErrorDetail, type ErrorReason, echo } from '../errors.js';
import type { AmountCurrencyType } from '../fees/estimateFigures.js';
import { isUuid } from '../ids.js';
import { type SettlementScales, scaleProblem } from '../money/minorUnits.js';
import { parseAmount } from '../money/money.js';
import type { PayrollCsvColumn, PayrollCsvLayout } from './payrollCsvFile.js';
import type { WpsSalaryDetails } from './wpsPayroll.js';

/**
 * The values of a payroll CSV file's rows, pure: each row names one beneficiary (by id or by
 * reference, not both), an amount above zero within its currency's minor units (the same rule as
 * a JSON entry), an optional amountCurrencyType and purposeCode. Every problem is collected with
 * its row and column.
 */

type PurposeCode = components['schemas']['PurposeCode'];

const PURPOSE_CODES: readonly PurposeCode[] = ['SAL', 'FCISS', 'PEN', 'OFS'];
const AMOUNT_CURRENCY_TYPES: readonly AmountCurrencyType[] = ['SOURCE', 'PAYROLL'];
/** The spec's AmountString: at most 15 integer digits and 8 decimals, no sign, no exponent, no separators. */
const AMOUNT_PATTERN = /^(0|[1-9][0-9]{0,14})(\.[0-9]{1,8})?$/;

/** A row whose beneficiary column could be read. */
export interface NamedRow {
  row: number;
  beneficiary: CsvBeneficiary;
}

/** Who a row pays, as the file names them. */
export type CsvBeneficiary = { beneficiaryId: string } | { beneficiaryReference: string };

export interface PayrollCsvEntry {
  row: number;
  beneficiary: CsvBeneficiary;
  amount: string;
  /** `amount` parsed, as the estimate takes it. */
  requestedAmount: Decimal;
  amountCurrencyType: AmountCurrencyType;
  purposeCode: PurposeCode | undefined;
  /** The row's WPS salary details, those given (docs/wps.md); undefined when the row gives none. */
  wps: WpsSalaryDetails | undefined;
}

interface RowContext {
  row: number;
  problems: ErrorDetail[];
  headerNames: PayrollCsvLayout['headerNames'];
}

function report(context: RowContext, column: PayrollCsvColumn, message: string, reason?: ErrorReason): void {
  context.problems.push({ row: context.row, column: context.headerNames[column] ?? column, ...(reason && { reason }), message });
}

function beneficiaryOf(cells: Record<PayrollCsvColumn, string>, context: RowContext): CsvBeneficiary | null {
  const { beneficiaryId, beneficiaryReference } = cells;
  if (beneficiaryId && beneficiaryReference) {
    report(context, 'beneficiaryId', 'give beneficiaryId or beneficiaryReference, not both');
    return null;
  }
  if (beneficiaryReference) return { beneficiaryReference };
  if (!beneficiaryId) {
    report(context, context.headerNames.beneficiaryReference ? 'beneficiaryReference' : 'beneficiaryId', 'the row names no beneficiary');
    return null;
  }
  if (!isUuid(beneficiaryId)) {
    report(context, 'beneficiaryId', `${echo(beneficiaryId)} is not a beneficiary id (a uuid)`);
    return null;
  }
  return { beneficiaryId: beneficiaryId.toLowerCase() };
}

function amountCurrencyTypeOf(text: string, context: RowContext): AmountCurrencyType | null {
  if (!text) return 'SOURCE';
  const value = AMOUNT_CURRENCY_TYPES.find((type) => type === text.toUpperCase());
  if (!value) report(context, 'amountCurrencyType', `${echo(text)} is not an amountCurrencyType; use SOURCE or PAYROLL`);
  return value ?? null;
}

function purposeCodeOf(text: string, requirePurposeCode: boolean, context: RowContext): PurposeCode | undefined | null {
  if (!text) {
    if (requirePurposeCode) report(context, 'purposeCode', `the row has no purposeCode; use one of ${PURPOSE_CODES.join(', ')}`);
    return requirePurposeCode ? null : undefined;
  }
  const value = PURPOSE_CODES.find((code) => code === text.toUpperCase());
  if (!value) report(context, 'purposeCode', `${echo(text)} is not a purposeCode; use one of ${PURPOSE_CODES.join(', ')}`);
  return value ?? null;
}

/** The amount within the rules of a JSON entry (the money rules are written once, in minorUnits), parsed; null when it breaks one. */
function validAmount(text: string, type: AmountCurrencyType | null, scales: SettlementScales, context: RowContext): Decimal | null {
  if (!AMOUNT_PATTERN.test(text)) {
    report(
      context,
      'amount',
      text ? `${echo(text)} is not an amount: digits with "." before at most 8 decimals, no sign or separators` : 'the row has no amount',
    );
    return null;
  }
  const amount = parseAmount(text);
  if (!amount.greaterThan(0)) {
    report(context, 'amount', `${echo(text)} must be greater than zero`, 'AMOUNT_NOT_POSITIVE');
    return null;
  }
  if (!type) return null;
  const isSource = type === 'SOURCE';
  const problem = scaleProblem(amount, isSource ? scales.source : scales.payroll, type, isSource ? scales.sourceCode : scales.payrollCode);
  if (problem) report(context, 'amount', `${echo(text)} ${problem}`, 'TOO_MANY_DECIMALS');
  return problem === null ? amount : null;
}

const WPS_AMOUNT = /^(0|[1-9][0-9]{0,14})(\.[0-9]{1,2})?$/;
const DATE = /^\d{4}-\d{2}-\d{2}$/;

/** A YYYY-MM-DD that names a day of the calendar (2026-02-30 does not: Date would roll it into March). */
function isCalendarDate(text: string): boolean {
  const at = new Date(`${text}T00:00:00Z`);
  return DATE.test(text) && !Number.isNaN(at.getTime()) && at.toISOString().slice(0, 10) === text;
}

/** The WPS cells of a row (each optional here: a WPS payroll's creation says which are missing); null when one is malformed. */
function wpsOf(cells: Record<PayrollCsvColumn, string>, context: RowContext): WpsSalaryDetails | undefined | null {
  const details: WpsSalaryDetails = {};
  let malformed = false;
  const bad = (column: PayrollCsvColumn, message: string) => {
    report(context, column, message);
    malformed = true;
  };
  for (const column of ['payPeriodStart', 'payPeriodEnd'] as const) {
    const text = cells[column];
    if (text && !isCalendarDate(text)) bad(column, `${echo(text)} is not a date (YYYY-MM-DD)`);
    else if (text) details[column] = text;
  }
  for (const column of ['fixedAmount', 'variableAmount'] as const) {
    const text = cells[column];
    if (text && !WPS_AMOUNT.test(text)) bad(column, `${echo(text)} is not an amount in AED: digits with "." before at most 2 decimals`);
    else if (text) details[column] = text;
  }
  const leave = cells.leaveDays;
  if (leave && (!/^\d{1,3}$/.test(leave) || Number(leave) > 366)) bad('leaveDays', `${echo(leave)} is not a number of days (0 to 366)`);
  else if (leave) details.leaveDays = Number(leave);
  if (malformed) return null;
  return Object.keys(details).length > 0 ? details : undefined;
}

/**
 * Every row's values; `problems` lists what is wrong, with rows and columns. `named` holds every
 * row whose beneficiary could be read, complete or not, so that its beneficiary is checked too.
 */
export function readPayrollCsvEntries(
  layout: PayrollCsvLayout,
  scales: SettlementScales,
  requirePurposeCode: boolean,
): { entries: PayrollCsvEntry[]; named: NamedRow[]; problems: ErrorDetail[] } {
  const problems: ErrorDetail[] = [...layout.problems];
  const entries: PayrollCsvEntry[] = [];
  const named: NamedRow[] = [];
  for (const { row, cells } of layout.rows) {
    const context = { row, problems, headerNames: layout.headerNames };
    const beneficiary = beneficiaryOf(cells, context);
    const amountCurrencyType = amountCurrencyTypeOf(cells.amountCurrencyType, context);
    const requestedAmount = validAmount(cells.amount, amountCurrencyType, scales, context);
    const purposeCode = purposeCodeOf(cells.purposeCode, requirePurposeCode, context);
    const wps = wpsOf(cells, context);
    if (beneficiary) named.push({ row, beneficiary });
    if (beneficiary && amountCurrencyType && requestedAmount && purposeCode !== null && wps !== null) {
      entries.push({ row, beneficiary, amount: cells.amount, requestedAmount, amountCurrencyType, purposeCode, wps });
    }
  }
  return { entries, named, problems };
}
