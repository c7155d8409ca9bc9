import { type ErrorDetail, echo } from './errors.js';
import type { CsvBeneficiary, NamedRow, PayrollCsvEntry } from './payrollCsvRows.js';

/**
 * Who each row of a payroll CSV file pays, pure: the row's id or reference matched against the
 * caller's beneficiaries (found by the store), with a problem for an unknown or inactive one, a
 * reference two beneficiaries share, and a beneficiary paid by two rows (naming both).
 */

export interface KnownBeneficiary {
  id: string;
  reference: string | null;
  active: boolean;
}

export interface ResolvedCsvEntry extends Omit<PayrollCsvEntry, 'beneficiary'> {
  beneficiaryId: string;
}

function columnOf(beneficiary: CsvBeneficiary): 'beneficiaryId' | 'beneficiaryReference' {
  return 'beneficiaryId' in beneficiary ? 'beneficiaryId' : 'beneficiaryReference';
}

/** The ids and references the rows name, for the store's one lookup. */
export function namedBeneficiaries(entries: readonly NamedRow[]): { ids: string[]; references: string[] } {
  const ids = new Set<string>();
  const references = new Set<string>();
  for (const { beneficiary } of entries) {
    if ('beneficiaryId' in beneficiary) ids.add(beneficiary.beneficiaryId);
    else references.add(beneficiary.beneficiaryReference);
  }
  return { ids: [...ids], references: [...references] };
}

function match(beneficiary: CsvBeneficiary, byId: Map<string, KnownBeneficiary>, byReference: Map<string, KnownBeneficiary[]>): KnownBeneficiary | string {
  if ('beneficiaryId' in beneficiary) return byId.get(beneficiary.beneficiaryId) ?? `no beneficiary of yours has the id ${echo(beneficiary.beneficiaryId)}`;
  const reference = beneficiary.beneficiaryReference;
  const matches = byReference.get(reference) ?? [];
  if (matches.length > 1) return `the reference ${echo(reference)} names ${matches.length} beneficiaries; use beneficiaryId for this row`;
  return matches[0] ?? `no beneficiary of yours has the reference ${echo(reference)}`;
}

/**
 * Checks every row that names a beneficiary, those with other problems too (a bad amount does not
 * hide an inactive beneficiary, and a repeat is reported against the earlier row whatever else is
 * wrong with either); `resolved` holds the rows with the beneficiary's id in place of its name.
 */
export function resolveCsvBeneficiaries<T extends NamedRow>(
  entries: readonly T[],
  known: readonly KnownBeneficiary[],
  headerName: (column: 'beneficiaryId' | 'beneficiaryReference') => string,
): { resolved: Array<Omit<T, 'beneficiary'> & { beneficiaryId: string }>; problems: ErrorDetail[] } {
  const byId = new Map(known.map((beneficiary) => [beneficiary.id, beneficiary]));
  const byReference = new Map<string, KnownBeneficiary[]>();
  for (const beneficiary of known) {
    if (beneficiary.reference !== null) byReference.set(beneficiary.reference, [...(byReference.get(beneficiary.reference) ?? []), beneficiary]);
  }
  const problems: ErrorDetail[] = [];
  const resolved: Array<Omit<T, 'beneficiary'> & { beneficiaryId: string }> = [];
  const firstRowOf = new Map<string, number>();
  for (const { beneficiary, ...entry } of entries) {
    const column = headerName(columnOf(beneficiary));
    const found = match(beneficiary, byId, byReference);
    if (typeof found === 'string') {
      problems.push({ row: entry.row, column, message: found });
      continue;
    }
    const name = 'beneficiaryId' in beneficiary ? found.id : `${echo(beneficiary.beneficiaryReference)} (${found.id})`;
    const earlier = firstRowOf.get(found.id);
    if (!found.active) problems.push({ row: entry.row, column, message: `the beneficiary ${name} is inactive` });
    if (earlier !== undefined) problems.push({ row: entry.row, column, message: `${name} is also in row ${earlier}; each beneficiary may appear once` });
    else firstRowOf.set(found.id, entry.row);
    if (found.active && earlier === undefined) resolved.push({ ...entry, beneficiaryId: found.id });
  }
  return { resolved, problems };
}
