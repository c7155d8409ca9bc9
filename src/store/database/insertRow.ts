import type { Queryable } from './db.js';

/**
 * One row into `table`: its columns are the keys of `row`, in their order, and its values are bound
 * as parameters (one statement text per call site, so PostgreSQL plans each once per connection).
 * For a row written as it is given; a row that reads other tables as it is written keeps its SQL.
 */
export async function insertRow(tx: Queryable, table: string, row: Readonly<Record<string, unknown>>): Promise<void> {
  const columns = Object.keys(row);
  const placeholders = columns.map((_column, index) => `$${index + 1}`);
  await tx.query(`INSERT INTO ${table} (${columns.join(', ')}) VALUES (${placeholders.join(', ')})`, Object.values(row));
}
