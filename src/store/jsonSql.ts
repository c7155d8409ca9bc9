/**
 * JSON objects written by SQL string concatenation, for the read that PostgreSQL answers as JSON
 * text (store/payrollRequestJson.ts) and for the JSON each split and transfer keeps on its row
 * (store/wireFormat.ts). json_build_object looks up every argument's type output function on every
 * call and puts spaces around every colon; concatenation costs each value its text output only.
 *
 * Each field says how its SQL value becomes JSON:
 * - `text`: free text, escaped by to_json (names, reasons, codes);
 * - `quoted`: a value whose text form never needs escaping, written between quotes as it is:
 *   uuid, numeric::text, a timestamp formatted by `iso` (digits, '-', ':', '.', 'T', 'Z');
 * - `json`: already JSON text: a json or jsonb column, an integer or boolean, a nested object built
 *   by `jsonObject`;
 * and what a NULL value does: the field is required (never NULL: the query says why), or, with
 * `orNull`, written as null, or, with `orAbsent`, left out.
 *
 * A table of fields is an object keyed by the API's names, checked against the generated schema
 * with `satisfies JsonFields<components['schemas']['…']>`: a field the spec has and the table
 * lacks, or one the spec does not have, fails `tsc`, and so does a field written in a way its
 * schema does not allow (an optional field not left out when NULL, a nullable one not null when
 * NULL, a number or object written as text).
 */
type JsonKind = 'text' | 'quoted' | 'json';
type WhenNull = 'required' | 'null' | 'absent';

export interface JsonField<Kind extends JsonKind = JsonKind, Null extends WhenNull = WhenNull> {
  readonly sql: string;
  readonly kind: Kind;
  readonly whenNull: Null;
}

/**
 * How field K of schema T may be written: an optional field is left out when NULL, a nullable one
 * is null when NULL, a required one is required (or null when NULL, where a column allows a NULL
 * the rows never hold); only a string may be `text` or `quoted`.
 */
type FieldOf<T, K extends keyof T> = JsonField<
  [NonNullable<T[K]>] extends [string] ? JsonKind : 'json',
  Partial<Pick<T, K>> extends Pick<T, K> ? 'absent' : null extends T[K] ? 'null' : 'required' | 'null'
>;

/** Every field of schema T, each written as `FieldOf` allows; use with `satisfies`. */
export type JsonFields<T> = { readonly [K in keyof T]-?: FieldOf<T, K> };

/** A timestamptz as Date#toISOString writes it: UTC, milliseconds truncated, "Z" (the wire format's api_timestamp). */
export const iso = (column: string): string => `api_timestamp(${column})`;

/** Field constructors, required unless `orNull` or `orAbsent` says otherwise. */
export const quoted = (sql: string): JsonField<'quoted', 'required'> => ({ sql, kind: 'quoted', whenNull: 'required' });
export const text = (sql: string): JsonField<'text', 'required'> => ({ sql, kind: 'text', whenNull: 'required' });
export const json = (sql: string): JsonField<'json', 'required'> => ({ sql, kind: 'json', whenNull: 'required' });
export const orNull = <Kind extends JsonKind>(field: JsonField<Kind, 'required'>): JsonField<Kind, 'null'> => ({ ...field, whenNull: 'null' });
export const orAbsent = <Kind extends JsonKind>(field: JsonField<Kind, 'required'>): JsonField<Kind, 'absent'> => ({ ...field, whenNull: 'absent' });

/** The value's JSON text; NULL when the SQL value is NULL. */
function valueOf({ sql, kind }: JsonField): string {
  if (kind === 'text') return `to_json((${sql})::text)::text`;
  if (kind === 'quoted') return `'"' || (${sql})::text || '"'`;
  return `(${sql})::text`;
}

/** The concat() arguments that write `,"key":value` (or `{"key":value` for the first field). */
function piecesOf([key, field]: [string, JsonField], index: number): string {
  const prefix = `'${index === 0 ? '{' : ','}${JSON.stringify(key)}:'`;
  if (field.whenNull === 'null') return `${prefix}, COALESCE(${valueOf(field)}, 'null')`;
  // Absent: one argument, NULL (which concat skips) when the value is.
  if (field.whenNull === 'absent' && field.kind === 'quoted') return `${prefix.slice(0, -1)}"' || (${field.sql})::text || '"'`;
  if (field.whenNull === 'absent') return `${prefix} || ${valueOf(field)}`;
  // Required: the value's parts as separate arguments, no intermediate string.
  if (field.kind === 'quoted') return `${prefix.slice(0, -1)}"', ${field.sql}, '"'`;
  return `${prefix}, ${valueOf(field)}`;
}

/** SQL text for one JSON object with these fields in this order (never NULL); the first must be required. */
export function jsonObject(fields: Readonly<Record<string, JsonField>>): string {
  const entries = Object.entries(fields);
  if (entries[0]?.[1].whenNull !== 'required') throw new Error('jsonObject: the first field must be required (it opens the object)');
  for (const [key] of entries) if (!/^[A-Za-z][A-Za-z0-9]*$/.test(key)) throw new Error(`jsonObject: key "${key}" is not a plain name`);
  return `concat(${entries.map(piecesOf).join(', ')}, '}')`;
}

/** A scalar subquery: the JSON array of the objects `object` over the rows of `from` (FROM … WHERE …) in `orderBy`; [] when none. */
export const jsonArray = (object: string, from: string, orderBy: string): string =>
  `(SELECT COALESCE('[' || string_agg(${object}, ',' ORDER BY ${orderBy}) || ']', '[]') ${from})`;
