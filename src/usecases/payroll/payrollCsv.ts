import type { components } from '../../../generated/api.js';
import { DomainError, type ErrorDetail, validationProblems } from '../../domain/errors.js';
import { normaliseEstimateEntries } from '../../domain/fees/estimateFigures.js';
import { type SettlementScales, settlementScales } from '../../domain/money/minorUnits.js';
import { type ResolvedCsvEntry, namedBeneficiaries, resolveCsvBeneficiaries } from '../../domain/payroll/payrollCsvBeneficiaries.js';
import { payrollCsvTemplateText, readPayrollCsvLayout } from '../../domain/payroll/payrollCsvFile.js';
import { type CsvQueryFields, type PayrollCsvQuery, requireCsvQuery } from '../../domain/payroll/payrollCsvQuery.js';
export { refuseCsvQueryWithJson } from '../../domain/payroll/payrollCsvQuery.js';
import { readPayrollCsvEntries } from '../../domain/payroll/payrollCsvRows.js';
import { findBeneficiariesByIdOrReference, firstActiveBeneficiaryReference } from '../../store/reference/referenceData.js';
import { findWpsEmployer } from '../../store/payroll/wpsRegistration.js';
import { createPayrollRequest } from './createPayrollRequest.js';
import type { UseCaseDeps } from '../deps.js';
import { type EntriesAtScales, estimatePayrollEntries } from '../fees/estimatePayrollFee.js';
import { estimateReference } from '../fees/estimateReference.js';
import type { PayrollRequestAnswer } from '../webhooks/events.js';
import { type Principal, requireCustomer } from '../access/principal.js';

/**
 * Payroll from a spreadsheet: a CSV file becomes the JSON body the estimate and the creation
 * already take, so the figures, the feeHash and every rule after the file's own checks are the
 * same. The file is checked whole first (layout, values, beneficiaries) and refused once with all
 * its problems; an entry refused later by the estimate or the creation is reported with its row.
 */

type PayrollFeeEstimate = components['schemas']['PayrollFeeEstimate'];

/** The file's rows read and checked, without its cells (up to 100,000 rows' worth, let go before the beneficiaries are looked up). */
function readRows(csv: string, scales: SettlementScales, forCreation: boolean) {
  const layout = readPayrollCsvLayout(csv, { requirePurposeCode: forCreation });
  const dataRows = layout.rows.map(({ row }) => row);
  return { ...readPayrollCsvEntries(layout, scales, forCreation), headerNames: layout.headerNames, dataRows };
}

/** Each problem of a data row with the entry that row becomes (the data rows in order, from 0). */
function withEntryIndexes(problems: readonly ErrorDetail[], dataRows: readonly number[]): ErrorDetail[] {
  if (problems.length === 0) return [];
  const entryOfRow = new Map(dataRows.map((row, index) => [row, index]));
  return problems.map((problem) => {
    const entryIndex = problem.row === undefined ? undefined : entryOfRow.get(problem.row);
    return entryIndex === undefined ? problem : { ...problem, entryIndex };
  });
}

/** The file's entries, each paying a known active beneficiary once, and the scales they were read at; or the 400 listing every problem. */
async function readFile(
  deps: UseCaseDeps,
  customerId: string,
  csv: string,
  accounts: CsvQueryFields,
  forCreation: boolean,
): Promise<{ entries: ResolvedCsvEntry[]; scales: SettlementScales }> {
  const reference = await estimateReference(deps, customerId, accounts);
  const scales = settlementScales(
    { code: reference.source.currencyCode, decimals: reference.source.decimals },
    { code: reference.payroll.currencyCode, decimals: reference.payroll.decimals },
  );
  const { entries, named, problems, headerNames, dataRows } = readRows(csv, scales, forCreation);
  const { ids, references } = namedBeneficiaries(named);
  const known = named.length > 0 ? await findBeneficiariesByIdOrReference(deps.db, customerId, ids, references) : [];
  const headerName = (column: 'beneficiaryId' | 'beneficiaryReference') => headerNames[column] ?? column;
  // Every named row's beneficiary is checked, also on rows with other problems: every problem is listed.
  const beneficiaries = resolveCsvBeneficiaries(named, known, headerName);
  const all = withEntryIndexes([...problems, ...beneficiaries.problems], dataRows).sort((a, b) => (a.row ?? 0) - (b.row ?? 0));
  if (all.length > 0) throw validationProblems('The CSV file', all);
  // No problem anywhere: every row is an entry, and each named row's beneficiary is its entry's.
  const resolved = entries.map(({ row, amount, requestedAmount, amountCurrencyType, purposeCode, wps }, index) => ({
    row,
    amount,
    requestedAmount,
    amountCurrencyType,
    purposeCode,
    wps,
    beneficiaryId: beneficiaries.beneficiaryIds[index]!,
  }));
  return { entries: resolved, scales };
}

const sameScales = (a: SettlementScales, b: SettlementScales): boolean =>
  a.source === b.source && a.payroll === b.payroll && a.sourceCode === b.sourceCode && a.payrollCode === b.payrollCode;

/**
 * The file's entries as the estimate takes them (each already has a normalised entry's fields): read
 * at `readAt`, they passed every rule a body's entries pass (amount above zero within its scale,
 * each beneficiary once), so they are not parsed again; at other scales (the reference data changed
 * meanwhile) they are validated again.
 */
function csvEntriesAt(entries: readonly ResolvedCsvEntry[], readAt: SettlementScales): EntriesAtScales {
  return (scales) =>
    sameScales(scales, readAt)
      ? entries
      : normaliseEstimateEntries(
          entries.map(({ beneficiaryId, amount, amountCurrencyType }) => ({ beneficiaryId, amount, amountCurrencyType })),
          scales,
        );
}

/**
 * An error the estimate or creation reports for `amountSplitDetails[i]` is said again with the
 * file's row, in `details` (`FEE_HASH_MISMATCH` too: the file differs from what was estimated).
 * It keeps only the rows' numbers meanwhile, not the file's entries (up to 100,000 of them).
 */
async function withRows<T>(rows: readonly number[], work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof DomainError && error.variant === undefined && error.details && error.details.length > 1) throw withRowsOfDetails(error, rows);
    const row = error instanceof DomainError && error.entryIndex !== undefined ? rows[error.entryIndex] : undefined;
    // A variant is answered its own way (none names an entry): passed on as it is.
    if (!(error instanceof DomainError) || row === undefined || error.variant !== undefined) throw error;
    const { reason, field, entryIndex } = error;
    const place = { ...(field === undefined ? {} : { field }), entryIndex: entryIndex! };
    const detail: ErrorDetail = { row, ...(reason ? { reason } : {}), ...place, message: error.message };
    throw new DomainError(error.code, `Row ${row} of the CSV file: ${error.message}`, { details: [detail], ...place, ...(reason ? { reason } : {}) });
  }
}

/** Several problems of the entries (a WPS payroll's missing fields): each detail said again with its row, the rest as it was. */
function withRowsOfDetails(error: DomainError, rows: readonly number[]): DomainError {
  const details = error.details!.map((detail) => {
    const row = detail.entryIndex === undefined ? undefined : rows[detail.entryIndex];
    return row === undefined ? detail : { ...detail, row };
  });
  const { reason, field, entryIndex } = error;
  return new DomainError(error.code, `The CSV file: ${error.message}`, {
    details,
    ...(reason && { reason }),
    ...(field !== undefined && { field }),
    ...(entryIndex !== undefined && { entryIndex }),
  });
}

export async function estimatePayrollFeeFromCsv(deps: UseCaseDeps, caller: Principal, csv: string, query: PayrollCsvQuery): Promise<PayrollFeeEstimate> {
  const customerId = requireCustomer(caller);
  const accounts = requireCsvQuery(query, 'estimate');
  const { entries, scales } = await readFile(deps, customerId, csv, accounts, false);
  return withRows(
    entries.map((entry) => entry.row),
    () =>
      // readFile found every row's beneficiary as the caller's and active.
      estimatePayrollEntries(deps, caller, accounts, csvEntriesAt(entries, scales), { beneficiariesVerified: true }),
  );
}

/**
 * The file's entries as the creation's body names them, and the row of each: the read rows (their
 * parsed amounts included) are let go before the creation writes 100,000 splits.
 */
async function creationEntries(deps: UseCaseDeps, customerId: string, csv: string, fields: CsvQueryFields) {
  const { entries } = await readFile(deps, customerId, csv, fields, true);
  const amountSplitDetails = entries.map(({ row, beneficiaryId, amount, amountCurrencyType, purposeCode, wps }) => {
    // readFile has refused every row without one, since a purpose code is required to create.
    if (!purposeCode) throw new Error(`row ${row} reached creation without a purposeCode`);
    return { beneficiaryId, amount, amountCurrencyType, purposeCode, ...(wps && { wps }) };
  });
  return { amountSplitDetails, rows: entries.map((entry) => entry.row) };
}

export async function createPayrollRequestFromCsv(deps: UseCaseDeps, caller: Principal, csv: string, query: PayrollCsvQuery): Promise<PayrollRequestAnswer> {
  const customerId = requireCustomer(caller);
  const fields = requireCsvQuery(query, 'create');
  const { amountSplitDetails, rows } = await creationEntries(deps, customerId, csv, fields);
  return withRows(rows, () =>
    createPayrollRequest(deps, caller, {
      feeHash: fields.feeHash,
      sourceAccountCurrencyId: fields.sourceAccountCurrencyId,
      payrollAccountCurrencyId: fields.payrollAccountCurrencyId,
      amountSplitDetails,
      ...(fields.payDate === undefined ? {} : { payDate: fields.payDate }),
    }),
  );
}

/** The file to start a payroll spreadsheet from, its example row one of the customer's beneficiaries; for customer users, as the payroll operations. */
export async function payrollCsvTemplate(deps: UseCaseDeps, caller: Principal): Promise<{ csv: string; filename: string }> {
  const customerId = requireCustomer(caller);
  const reference = await firstActiveBeneficiaryReference(deps.db, customerId);
  const employer = await findWpsEmployer(deps.db, customerId);
  return { csv: payrollCsvTemplateText(reference, employer?.establishmentId != null), filename: 'payroll-template.csv' };
}
