/** `quotedByUserId` → `quoted_by_user_id`. */
type SnakeCase<Name extends string> = Name extends `${infer Head}${infer Tail}`
  ? `${Head extends Lowercase<Head> ? Head : `_${Lowercase<Head>}`}${SnakeCase<Tail>}`
  : Name;

type Columns<Entry, Key extends keyof Entry & string> = { [K in Key as SnakeCase<K>]-?: Exclude<Entry[K], undefined> | null };

/**
 * The named fields of a world entry as row columns of the same name in snake case; an absent
 * optional field becomes null. The row types of src/store/reference/worldRows.ts check the result.
 */
export function columns<Entry extends object, const Key extends keyof Entry & string>(entry: Entry, keys: readonly Key[]): Columns<Entry, Key> {
  const row: Record<string, unknown> = {};
  for (const key of keys) row[key.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`)] = entry[key] ?? null;
  return row as Columns<Entry, Key>;
}
