/**
 * Free text as the ISO 20022 schemas allow it. XML escaping itself is the builder's (fast-xml-parser
 * turns & < > " ' into entities); what is left here is what escaping cannot fix: characters XML 1.0
 * forbids outright, and the schemas' maximum lengths, which count characters (code points), not
 * UTF-16 units — a name cut in the middle of a surrogate pair would be invalid XML.
 */

// Control characters other than tab, newline and carriage return, lone surrogates, U+FFFE and U+FFFF: not allowed in XML 1.0.
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const NOT_XML = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/**
 * `value` cleaned and cut to `max` characters (Max35Text, Max70Text, Max140Text…); undefined when
 * nothing is left, since the schemas' texts have a minimum length of 1 (the element is then left out).
 */
export function maxText(value: string | null | undefined, max: number): string | undefined {
  if (value === null || value === undefined) return undefined;
  const cleaned = value.replace(NOT_XML, '').replace(/\s+/g, ' ').trim();
  if (cleaned === '') return undefined;
  const characters = Array.from(cleaned);
  return characters.length <= max ? cleaned : characters.slice(0, max).join('').trimEnd();
}

/** A UUID as an ISO 20022 identifier: its 32 hex digits, lowercase, without hyphens (Max35Text holds 35; a hyphenated UUID is 36). */
export function compactUuid(uuid: string): string {
  return uuid.replace(/-/g, '').toLowerCase();
}
