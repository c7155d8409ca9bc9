/**
 * A UUID in the canonical 8-4-4-4-12 form, either case: the spec's `Uuid` pattern (the uuid
 * format alone also admits 'urn:uuid:' prefixes, which the database's uuid type does not parse).
 */
export const UUID_PATTERN = '^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$';

/** UUID_PATTERN's body, to embed in a larger pattern (a payout feeHash begins with its estimate's id). */
export const UUID_PATTERN_BODY = UUID_PATTERN.slice(1, -1);

/** UUID_PATTERN in lower case only, as the database writes a uuid (the reference data's files are held to it). */
export const LOWERCASE_UUID_PATTERN = UUID_PATTERN.replaceAll('0-9a-fA-F', '0-9a-f');

const UUID = new RegExp(UUID_PATTERN);

export function isUuid(value: unknown): value is string {
  return typeof value === 'string' && UUID.test(value);
}
