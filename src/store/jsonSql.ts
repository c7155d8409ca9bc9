/**
 * JSON objects written by SQL string concatenation, for the read that PostgreSQL answers as JSON
 * text (store/payrollRequestJson.ts). json_build_object looks up every argument's type output
 * function on every call and puts spaces around every colon; concatenation costs each value its
 * text output only. The splits' and transfers' own objects are written the same way, by the
 * triggers of migration 011.
 *
 * Each field says how its SQL value becomes JSON:
 * - `text`: free text, escaped by to_json (names, reasons, codes);
 * - `quoted`: a value whose text form never needs escaping, written between quotes as it is:
 *   uuid, numeric::text, a timestamp formatted by `iso` (digits, '-', ':', '.', 'T', 'Z');
 * - `json`: already JSON text: a json or jsonb column, an integer or boolean, a nested object built
 *   by `jsonObject`;
 * and what a NULL value does: the field is required (never NULL: the query says why) or, with
 * `orNull`, written as null.
 */
type JsonKind = 'text' | 'quoted' | 'json';

export interface JsonField {
  key: string;
  sql: string;
  kind: JsonKind;
  whenNull?: 'null';
}

/** A timestamptz as Date#toISOString writes it: UTC, milliseconds truncated, "Z" (migration 011's api_timestamp). */
export const iso = (column: string): string => `api_timestamp(${column})`;

/** Field constructors, required unless `orNull` says otherwise. */
export const quoted = (key: string, sql: string): JsonField => ({ key, sql, kind: 'quoted' });
export const text = (key: string, sql: string): JsonField => ({ key, sql, kind: 'text' });
export const json = (key: string, sql: string): JsonField => ({ key, sql, kind: 'json' });
export const orNull = (field: JsonField): JsonField => ({ ...field, whenNull: 'null' });

/** The value's JSON text; NULL when the SQL value is NULL. */
function valueOf({ sql, kind }: JsonField): string {
  if (kind === 'text') return `to_json((${sql})::text)::text`;
  if (kind === 'quoted') return `'"' || (${sql})::text || '"'`;
  return `(${sql})::text`;
}

/** The concat() arguments that write `,"key":value` (or `{"key":value` for the first field). */
function piecesOf(field: JsonField, index: number): string {
  const prefix = `'${index === 0 ? '{' : ','}${JSON.stringify(field.key)}:'`;
  if (field.whenNull === 'null') return `${prefix}, COALESCE(${valueOf(field)}, 'null')`;
  // Required: the value's parts as separate arguments, no intermediate string.
  if (field.kind === 'quoted') return `${prefix.slice(0, -1)}"', ${field.sql}, '"'`;
  return `${prefix}, ${valueOf(field)}`;
}

/** SQL text for one JSON object with these fields in this order (never NULL); the first must be required. */
export function jsonObject(fields: readonly JsonField[]): string {
  if (!fields[0] || fields[0].whenNull) throw new Error('jsonObject: the first field must be required (it opens the object)');
  for (const { key } of fields) if (!/^[A-Za-z][A-Za-z0-9]*$/.test(key)) throw new Error(`jsonObject: key "${key}" is not a plain name`);
  return `concat(${fields.map(piecesOf).join(', ')}, '}')`;
}

/** A scalar subquery: the JSON array of the objects `object` over the rows of `from` (FROM … WHERE …) in `orderBy`; [] when none. */
export const jsonArray = (object: string, from: string, orderBy: string): string =>
  `(SELECT COALESCE('[' || string_agg(${object}, ',' ORDER BY ${orderBy}) || ']', '[]') ${from})`;
