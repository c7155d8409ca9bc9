import { type ErrorDetail, type ErrorReason, echo } from '../errors.js';
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

/** Why a row names no beneficiary of the caller. */
type NoMatch = { reason: ErrorReason; message: string };

/** Where a beneficiary is in the store's list: its position, or why the row names none. */
function match(beneficiary: CsvBeneficiary, { byId, byReference }: BeneficiaryIndex): number | NoMatch {
  if ('beneficiaryId' in beneficiary) {
    return (
      byId.get(beneficiary.beneficiaryId) ?? { reason: 'UNKNOWN_BENEFICIARY', message: `no beneficiary of yours has the id ${echo(beneficiary.beneficiaryId)}` }
    );
  }
  const reference = beneficiary.beneficiaryReference;
  const matches = byReference.get(reference);
  if (Array.isArray(matches)) {
    return { reason: 'AMBIGUOUS_REFERENCE', message: `the reference ${echo(reference)} names ${matches.length} beneficiaries; use beneficiaryId for this row` };
  }
  return matches ?? { reason: 'UNKNOWN_BENEFICIARY', message: `no beneficiary of yours has the reference ${echo(reference)}` };
}

/** A reference's beneficiary, or all of them when several share it (positions in the store's list). */
type ByReference = Map<string, number | number[]>;

interface BeneficiaryIndex {
  byId: Map<string, number>;
  byReference: ByReference;
}

/**
 * The caller's beneficiaries by id where some row names one by id, and by reference where some row
 * names one by reference (a list only for a reference several share): a file of 100,000 rows names
 * them all one way, and each map is 100,000 entries of positions, not objects.
 */
function indexOf(known: readonly KnownBeneficiary[], rows: readonly NamedRow[]): BeneficiaryIndex {
  const byId = new Map<string, number>();
  const byReference: ByReference = new Map();
  const idsNamed = rows.some(({ beneficiary }) => 'beneficiaryId' in beneficiary);
  const referencesNamed = rows.some(({ beneficiary }) => 'beneficiaryReference' in beneficiary);
  known.forEach(({ id, reference }, position) => {
    if (idsNamed) byId.set(id, position);
    if (!referencesNamed || reference === null) return;
    const same = byReference.get(reference);
    if (same === undefined) byReference.set(reference, position);
    else if (Array.isArray(same)) same.push(position);
    else byReference.set(reference, [same, position]);
  });
  return { byId, byReference };
}

/** How a problem names the row's beneficiary: its id, or the reference the row gave and the id it found. */
function nameOf(beneficiary: CsvBeneficiary, id: string): string {
  return 'beneficiaryId' in beneficiary ? id : `${echo(beneficiary.beneficiaryReference)} (${id})`;
}

/**
 * Checks every row that names a beneficiary, those with other problems too (a bad amount does not
 * hide an inactive beneficiary, and a repeat is reported against the earlier row whatever else is
 * wrong with either). `beneficiaryIds[i]` is the id row `rows[i]` pays, undefined where its row has
 * a problem. A file has up to 100,000 rows: a row without a problem costs its lookups and its id,
 * nothing more (the words of a problem are written only for a row that has one).
 */
export function resolveCsvBeneficiaries(
  rows: readonly NamedRow[],
  known: readonly KnownBeneficiary[],
  headerName: (column: 'beneficiaryId' | 'beneficiaryReference') => string,
): { beneficiaryIds: Array<string | undefined>; problems: ErrorDetail[] } {
  const index = indexOf(known, rows);
  const problems: ErrorDetail[] = [];
  const beneficiaryIds: Array<string | undefined> = [];
  // The first row paying each beneficiary, by its position in `known` (0: none yet; no row is numbered 0).
  const firstRowOf = new Int32Array(known.length);
  for (const { beneficiary, row } of rows) {
    const position = match(beneficiary, index);
    const column = headerName(columnOf(beneficiary));
    if (typeof position !== 'number') {
      problems.push({ row, column, ...position });
      beneficiaryIds.push(undefined);
      continue;
    }
    const found = known[position]!;
    const earlier = firstRowOf[position]!;
    if (!found.active) problems.push({ row, column, reason: 'INACTIVE_BENEFICIARY', message: `the beneficiary ${nameOf(beneficiary, found.id)} is inactive` });
    if (earlier !== 0) {
      const message = `${nameOf(beneficiary, found.id)} is also in row ${earlier}; each beneficiary may appear once`;
      problems.push({ row, column, reason: 'DUPLICATE_ENTRY', message });
    } else firstRowOf[position] = row;
    beneficiaryIds.push(found.active && earlier === 0 ? found.id : undefined);
  }
  return { beneficiaryIds, problems };
}
