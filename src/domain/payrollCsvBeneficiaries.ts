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

function match(beneficiary: CsvBeneficiary, { byId, byReference }: BeneficiaryIndex): KnownBeneficiary | string {
  if ('beneficiaryId' in beneficiary) return byId.get(beneficiary.beneficiaryId) ?? `no beneficiary of yours has the id ${echo(beneficiary.beneficiaryId)}`;
  const reference = beneficiary.beneficiaryReference;
  const matches = byReference.get(reference);
  if (Array.isArray(matches)) return `the reference ${echo(reference)} names ${matches.length} beneficiaries; use beneficiaryId for this row`;
  return matches ?? `no beneficiary of yours has the reference ${echo(reference)}`;
}

/** A reference's beneficiary, or all of them when several share it. */
type ByReference = Map<string, KnownBeneficiary | KnownBeneficiary[]>;

interface BeneficiaryIndex {
  byId: Map<string, KnownBeneficiary>;
  byReference: ByReference;
}

/**
 * The caller's beneficiaries by id where some row names one by id, and by reference where some row
 * names one by reference (a list only for a reference several share): a file of 100,000 rows names
 * them all one way, and each map is 100,000 entries.
 */
function indexOf(known: readonly KnownBeneficiary[], entries: readonly NamedRow[]): BeneficiaryIndex {
  const byId = new Map<string, KnownBeneficiary>();
  const byReference: ByReference = new Map();
  const idsNamed = entries.some(({ beneficiary }) => 'beneficiaryId' in beneficiary);
  const referencesNamed = entries.some(({ beneficiary }) => 'beneficiaryReference' in beneficiary);
  for (const beneficiary of known) {
    if (idsNamed) byId.set(beneficiary.id, beneficiary);
    if (!referencesNamed || beneficiary.reference === null) continue;
    const same = byReference.get(beneficiary.reference);
    if (same === undefined) byReference.set(beneficiary.reference, beneficiary);
    else if (Array.isArray(same)) same.push(beneficiary);
    else byReference.set(beneficiary.reference, [same, beneficiary]);
  }
  return { byId, byReference };
}

/** How a problem names the row's beneficiary: its id, or the reference the row gave and the id it found. */
function nameOf(beneficiary: CsvBeneficiary, id: string): string {
  return 'beneficiaryId' in beneficiary ? id : `${echo(beneficiary.beneficiaryReference)} (${id})`;
}

/**
 * Checks every row that names a beneficiary, those with other problems too (a bad amount does not
 * hide an inactive beneficiary, and a repeat is reported against the earlier row whatever else is
 * wrong with either); `resolved` holds the rows with the beneficiary's id in place of its name.
 * A file has up to 100,000 rows: a row without a problem costs its lookups and its resolved entry,
 * nothing more (the words of a problem are written only for a row that has one).
 */
export function resolveCsvBeneficiaries<T extends NamedRow>(
  entries: readonly T[],
  known: readonly KnownBeneficiary[],
  headerName: (column: 'beneficiaryId' | 'beneficiaryReference') => string,
): { resolved: Array<Omit<T, 'beneficiary'> & { beneficiaryId: string }>; problems: ErrorDetail[] } {
  const index = indexOf(known, entries);
  const problems: ErrorDetail[] = [];
  const resolved: Array<Omit<T, 'beneficiary'> & { beneficiaryId: string }> = [];
  // Keyed by the found beneficiary itself: one object per beneficiary, so no id is hashed again.
  const firstRowOf = new Map<KnownBeneficiary, number>();
  for (const entry of entries) {
    const { beneficiary, row } = entry;
    const found = match(beneficiary, index);
    if (typeof found === 'string') {
      problems.push({ row, column: headerName(columnOf(beneficiary)), message: found });
      continue;
    }
    const earlier = firstRowOf.get(found);
    if (!found.active)
      problems.push({ row, column: headerName(columnOf(beneficiary)), message: `the beneficiary ${nameOf(beneficiary, found.id)} is inactive` });
    if (earlier !== undefined) {
      const message = `${nameOf(beneficiary, found.id)} is also in row ${earlier}; each beneficiary may appear once`;
      problems.push({ row, column: headerName(columnOf(beneficiary)), message });
    } else firstRowOf.set(found, row);
    // The row as it came (its name kept) with the id: a spread copies it the fast way, a rest does not.
    if (found.active && earlier === undefined) resolved.push({ ...entry, beneficiaryId: found.id });
  }
  return { resolved, problems };
}
