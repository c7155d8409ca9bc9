/**
 * JSON text written field by field, for the wire objects read in bulk (a request's splits and
 * transfers): each field's value is already JSON text — a string escaped here, a JSON column's
 * text as the database gives it — so no object is built, parsed or serialised again per item. A
 * writer lists every field of its schema (`satisfies WireFields<components['schemas']['…']>`), so
 * `tsc` fails when the spec adds or drops one; an optional field's value may be null (absent).
 */
type FieldOf<T, K extends keyof T> = Partial<Pick<T, K>> extends Pick<T, K> ? string | null : string;

export type WireFields<T> = { readonly [K in keyof T]-?: FieldOf<T, K> };

/** The object's JSON text, its fields in the order written; absent ones left out. Keys are plain names. */
export function objectText(fields: Readonly<Record<string, string | null>>): string {
  let text = '';
  for (const key in fields) {
    const value = fields[key];
    if (value !== null && value !== undefined) text += `${text === '' ? '{' : ','}"${key}":${value}`;
  }
  return `${text}}`;
}

/**
 * A value whose text never needs escaping, between quotes as it is: a uuid, a decimal, an ISO
 * timestamp, a code of the spec's enums (the bulk of a split's or transfer's fields).
 */
export const plain = (value: string): string => `"${value}"`;
export const plainOrNull = (value: string | null): string => (value === null ? 'null' : `"${value}"`);
export const plainOrAbsent = (value: string | null): string | null => (value === null ? null : `"${value}"`);

/** Free text as JSON (escaped). */
export const str = (value: string): string => JSON.stringify(value);
export const strOrAbsent = (value: string | null): string | null => (value === null ? null : JSON.stringify(value));
