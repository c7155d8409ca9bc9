import { createHash } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { XMLParser } from 'fast-xml-parser';
import type { SanctionsEntry, SanctionsListFile } from '../../domain/screening/sanctionsLists.js';

/**
 * The official files of the sanctions lists, read into entries: OFAC's SDN list as `SDN.XML`
 * (`sdnList`, in the namespace OFAC's sanctions list service publishes it in, or the older
 * `http://tempuri.org/sdnList.xsd`) and the UN Security Council's consolidated list (its
 * `CONSOLIDATED_LIST` XML). Nothing is downloaded: an operator drops the files in a folder.
 */

const OFAC_NAMESPACES = ['https://sanctionslistservice.ofac.treas.gov/api/PublicationPreview/exports/XML', 'http://tempuri.org/sdnList.xsd'];

/** A file the folder holds that is not a list this service reads, or not one it can read: said at start, never half-read. */
export class SanctionsFileError extends Error {}

const REPEATED = new Set([
  'sdnEntry',
  'program',
  'aka',
  'dateOfBirthItem',
  'nationality',
  'INDIVIDUAL',
  'ENTITY',
  'INDIVIDUAL_ALIAS',
  'ENTITY_ALIAS',
  'INDIVIDUAL_DATE_OF_BIRTH',
  'VALUE',
]);

const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '@',
  removeNSPrefix: false,
  parseAttributeValue: false,
  parseTagValue: false,
  processEntities: true,
  isArray: (name) => REPEATED.has(name),
});

type Node = Record<string, unknown>;

/** One list file read whole; SanctionsFileError says why a file is refused. */
export function parseSanctionsFile(fileName: string, bytes: Buffer): SanctionsListFile {
  const sha256 = createHash('sha256').update(bytes).digest('hex');
  let document: Node;
  try {
    document = parser.parse(bytes.toString('utf8'), true) as Node;
  } catch (error) {
    throw new SanctionsFileError(`${fileName}: not well-formed XML (${(error as Error).message})`);
  }
  if (isNode(document['sdnList'])) return ofacSdn(fileName, sha256, document['sdnList']);
  if (isNode(document['CONSOLIDATED_LIST'])) return unConsolidated(fileName, sha256, document['CONSOLIDATED_LIST']);
  throw new SanctionsFileError(`${fileName}: neither an OFAC sdnList nor a UN CONSOLIDATED_LIST`);
}

/** Every list file of a folder (`*.xml`, any case), read; the files refused, with why. */
export async function readSanctionsFolder(dir: string): Promise<{ files: SanctionsListFile[]; refused: string[] }> {
  const names = (await readdir(dir)).filter((name) => name.toLowerCase().endsWith('.xml')).sort();
  const files: SanctionsListFile[] = [];
  const refused: string[] = [];
  for (const name of names) {
    try {
      files.push(parseSanctionsFile(name, await readFile(join(dir, name))));
    } catch (error) {
      if (!(error instanceof SanctionsFileError)) throw error;
      refused.push(error.message);
    }
  }
  return { files, refused };
}

function ofacSdn(fileName: string, sha256: string, root: Node): SanctionsListFile {
  const namespace = text(root['@xmlns']);
  if (!OFAC_NAMESPACES.includes(namespace)) throw new SanctionsFileError(`${fileName}: sdnList in an unknown namespace (${namespace || 'none'})`);
  const info = isNode(root['publshInformation']) ? root['publshInformation'] : {};
  const published = /^(\d{2})\/(\d{2})\/(\d{4})$/.exec(text(info['Publish_Date']));
  if (!published) throw new SanctionsFileError(`${fileName}: publshInformation has no Publish_Date (MM/DD/YYYY)`);
  const entries: SanctionsEntry[] = [];
  const records = nodes(root['sdnEntry']);
  for (const record of records) {
    const type = text(record['sdnType']).toLowerCase();
    // Vessels and aircraft are listed too; a payee is a person or an organisation.
    if (type !== 'individual' && type !== 'entity') continue;
    const entryId = text(record['uid']);
    if (!entryId) throw new SanctionsFileError(`${fileName}: an sdnEntry has no uid`);
    const akas = nodes(isNode(record['akaList']) ? record['akaList']['aka'] : undefined);
    entries.push({
      list: 'OFAC_SDN',
      entryId,
      kind: type,
      names: [ofacName(record), ...akas.map(ofacName)].filter(Boolean),
      datesOfBirth: nodes(isNode(record['dateOfBirthList']) ? record['dateOfBirthList']['dateOfBirthItem'] : undefined)
        .map((item) => ofacDate(text(item['dateOfBirth'])))
        .filter((date): date is string => date !== null),
      nationalities: nodes(isNode(record['nationalityList']) ? record['nationalityList']['nationality'] : undefined)
        .map((item) => text(item['country']))
        .filter(Boolean),
    });
  }
  const count = Number.parseInt(text(info['Record_Count']), 10);
  return {
    version: {
      list: 'OFAC_SDN',
      fileName,
      sha256,
      publishedOn: `${published[3]}-${published[1]}-${published[2]}`,
      recordCount: Number.isSafeInteger(count) ? count : records.length,
    },
    entries,
  };
}

/** OFAC writes "LAST, First" as two elements; an organisation has only `lastName`. */
function ofacName(node: Node): string {
  const last = text(node['lastName']);
  const first = text(node['firstName']);
  return first ? `${last}, ${first}` : last;
}

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];

/** OFAC's dates of birth: "30 Dec 1960", "Dec 1960", "1969", "circa 1955", "1960 to 1962" (the first year). */
function ofacDate(written: string): string | null {
  const full = /^(\d{1,2}) ([A-Za-z]{3}) (\d{4})$/.exec(written);
  const month = full ? MONTHS.indexOf(full[2]!.toLowerCase()) : -1;
  if (full && month >= 0) return `${full[3]}-${String(month + 1).padStart(2, '0')}-${full[1]!.padStart(2, '0')}`;
  const year = /\b(\d{4})\b/.exec(written);
  return year ? year[1]! : null;
}

function unConsolidated(fileName: string, sha256: string, root: Node): SanctionsListFile {
  const generated = /^(\d{4}-\d{2}-\d{2})/.exec(text(root['@dateGenerated']));
  if (!generated) throw new SanctionsFileError(`${fileName}: CONSOLIDATED_LIST has no dateGenerated`);
  const individuals = nodes(isNode(root['INDIVIDUALS']) ? root['INDIVIDUALS']['INDIVIDUAL'] : undefined);
  const organisations = nodes(isNode(root['ENTITIES']) ? root['ENTITIES']['ENTITY'] : undefined);
  const entries: SanctionsEntry[] = [];
  for (const [records, kind, aliasTag] of [
    [individuals, 'individual', 'INDIVIDUAL_ALIAS'],
    [organisations, 'entity', 'ENTITY_ALIAS'],
  ] as const) {
    for (const record of records) {
      const entryId = text(record['DATAID']);
      if (!entryId) throw new SanctionsFileError(`${fileName}: an ${kind === 'individual' ? 'INDIVIDUAL' : 'ENTITY'} has no DATAID`);
      const primary = ['FIRST_NAME', 'SECOND_NAME', 'THIRD_NAME', 'FOURTH_NAME']
        .map((tag) => text(record[tag]))
        .filter(Boolean)
        .join(' ');
      entries.push({
        list: 'UN_CONSOLIDATED',
        entryId,
        kind,
        names: [primary, ...nodes(record[aliasTag]).map((alias) => text(alias['ALIAS_NAME']))].filter(Boolean),
        datesOfBirth: nodes(record['INDIVIDUAL_DATE_OF_BIRTH']).flatMap(unDates),
        nationalities: values(record['NATIONALITY']),
      });
    }
  }
  return {
    version: { list: 'UN_CONSOLIDATED', fileName, sha256, publishedOn: generated[1]!, recordCount: individuals.length + organisations.length },
    entries,
  };
}

/** A UN date of birth: an exact DATE, a YEAR, or every year FROM_YEAR to TO_YEAR (a range of at most 20). */
function unDates(node: Node): string[] {
  const date = text(node['DATE']);
  if (/^\d{4}-\d{2}-\d{2}$/.test(date)) return [date];
  const year = text(node['YEAR']);
  if (/^\d{4}$/.test(year)) return [year];
  const from = Number.parseInt(text(node['FROM_YEAR']), 10);
  const to = Number.parseInt(text(node['TO_YEAR']), 10);
  if (!Number.isSafeInteger(from) || !Number.isSafeInteger(to) || to < from || to - from > 20) return [];
  return Array.from({ length: to - from + 1 }, (_, i) => String(from + i));
}

function values(node: unknown): string[] {
  return isNode(node) ? (Array.isArray(node['VALUE']) ? node['VALUE'] : []).map(text).filter(Boolean) : [];
}

function isNode(value: unknown): value is Node {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function nodes(value: unknown): Node[] {
  return Array.isArray(value) ? value.filter(isNode) : isNode(value) ? [value] : [];
}

function text(value: unknown): string {
  if (typeof value === 'string') return value.trim();
  if (isNode(value) && typeof value['#text'] === 'string') return value['#text'].trim();
  return '';
}
