/**
 * Rows a statement takes as one JSON parameter, at most ROWS_PER_STATEMENT at a time. The driver
 * copies a parameter twice on its way out (a text, then the bytes of the message, grown by half
 * each time it is full): a payroll's 100,000 rows as one parameter would hold over 100 MB in the
 * process for a moment, in pieces of 2 MB, a few MB.
 */
const ROWS_PER_STATEMENT = 10_000;

/** Consecutive slices of `rows`, each with the index of its first row. */
export function* rowChunks<T>(rows: readonly T[], size = ROWS_PER_STATEMENT): Generator<{ rows: readonly T[]; first: number }> {
  for (let first = 0; first < rows.length; first += size) yield { rows: rows.slice(first, first + size), first };
}
