/**
 * The sanctions lists as the service reads them: each published list (OFAC's SDN list, the UN
 * Security Council's consolidated list) is one version (the file it came from, its publication
 * date, its record count) and its entries (names and aliases, dates of birth, nationalities). The
 * file adapter (src/adapters/screening) reads the official XML formats into these shapes.
 */

/** The lists the service reads, as the API names them. */
export type SanctionsListName = 'OFAC_SDN' | 'UN_CONSOLIDATED';

export type SanctionsEntryKind = 'individual' | 'entity';

/** One listed person or organisation, with every name it is known by. */
export interface SanctionsEntry {
  list: SanctionsListName;
  /** The list's own id: OFAC's `uid`, the UN's `DATAID`. */
  entryId: string;
  kind: SanctionsEntryKind;
  /** The primary name first, then the aliases, as published. */
  names: readonly string[];
  /** `YYYY` or `YYYY-MM-DD`, as precise as the list is. */
  datesOfBirth: readonly string[];
  /** Country names as the list writes them. */
  nationalities: readonly string[];
}

/** Where a list's entries came from: the file and what it says of itself. */
export interface SanctionsListVersion {
  list: SanctionsListName;
  fileName: string;
  /** The file's SHA-256 (hex): a version is its bytes, so a new file with the same date is a new version. */
  sha256: string;
  /** `YYYY-MM-DD`: OFAC's `Publish_Date`, the UN's `dateGenerated`. */
  publishedOn: string;
  recordCount: number;
}

export interface SanctionsListFile {
  version: SanctionsListVersion;
  entries: readonly SanctionsEntry[];
}

/**
 * Of several files of the same list, the one in force: the latest publication date, then (for
 * one date) the file name that sorts last, so that the choice never depends on a directory's order.
 */
export function listsInForce(files: readonly SanctionsListFile[]): SanctionsListFile[] {
  const byList = new Map<SanctionsListName, SanctionsListFile>();
  for (const file of files) {
    const current = byList.get(file.version.list);
    if (!current || newer(file.version, current.version)) byList.set(file.version.list, file);
  }
  return [...byList.values()].sort((a, b) => a.version.list.localeCompare(b.version.list));
}

function newer(a: SanctionsListVersion, b: SanctionsListVersion): boolean {
  if (a.publishedOn !== b.publishedOn) return a.publishedOn > b.publishedOn;
  return a.fileName > b.fileName;
}
