import { XMLBuilder, XMLParser } from 'fast-xml-parser';

/** Repeatable elements of the messages we read (pain.001, pain.002, camt.053, camt.054): always arrays, even with one occurrence. */
const REPEATED = new Set([
  ...['PmtInf', 'CdtTrfTxInf', 'OrgnlPmtInfAndSts', 'TxInfAndSts', 'StsRsnInf', 'AddtlInf', 'Ustrd', 'NbOfTxsPerSts'],
  ...['Stmt', 'Ntfctn', 'Bal', 'Ntry', 'NtryDtls', 'TxDtls', 'Rcrd'],
]);

/** Whether an element of these messages may repeat (and is read as an array). */
export function isRepeated(name: string): boolean {
  return REPEATED.has(name);
}

/**
 * The parser for bank files: every value stays a string (an id of digits or an amount is never turned
 * into a number), namespace prefixes are dropped (a bank may write <ns2:Document>), attributes kept.
 * fast-xml-parser reads no external entity or DTD file, so a hostile file cannot reach the disk.
 */
export function parseXml(xml: string): unknown {
  const parser = new XMLParser({
    ignoreAttributes: false,
    removeNSPrefix: true,
    parseTagValue: false,
    parseAttributeValue: false,
    trimValues: true,
    isArray: (name) => REPEATED.has(name),
  });
  return parser.parse(xml);
}

/** An object tree as an XML document with its declaration, indented unless `format` is false; texts and attributes escaped by the builder. */
export function buildXml(root: Record<string, unknown>, format = true): string {
  const builder = new XMLBuilder({ ignoreAttributes: false, format, suppressEmptyNode: true });
  return builder.build({ '?xml': { '@_version': '1.0', '@_encoding': 'UTF-8' }, ...root }) as string;
}

/** A child object of a parsed element, or undefined. */
export function child(node: unknown, name: string): Record<string, unknown> | undefined {
  if (typeof node !== 'object' || node === null) return undefined;
  const value = (node as Record<string, unknown>)[name];
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
}

/** A repeated child (an array by the parser's options), or an empty array. */
export function children(node: unknown, name: string): unknown[] {
  if (typeof node !== 'object' || node === null) return [];
  const value = (node as Record<string, unknown>)[name];
  return Array.isArray(value) ? value : [];
}

/** A text child, or undefined (an element with attributes keeps its text under #text). */
export function text(node: unknown, name: string): string | undefined {
  if (typeof node !== 'object' || node === null) return undefined;
  const value = (node as Record<string, unknown>)[name];
  if (typeof value === 'string') return value;
  if (typeof value === 'object' && value !== null && typeof (value as Record<string, unknown>)['#text'] === 'string')
    return (value as Record<string, string>)['#text'];
  return undefined;
}
