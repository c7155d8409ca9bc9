import type { Database, Queryable } from './db.js';

/** The tables a payroll writes in bulk: its splits when created, its payouts when the FX is recorded. */
type BulkTable = 'amount_splits' | 'transfers';

/**
 * Below this many rows, a plan misled by old statistics costs little (it reads the new rows once
 * per chunk of thousands: a few times), and autovacuum's own analysis comes soon enough.
 */
const BULK_ROWS = 20_000;

/**
 * PostgreSQL's planner statistics follow a table's growth only when autovacuum next analyses it
 * (once a tenth of the table has changed, up to a minute later). Until then the planner takes a
 * new payroll's 100,000 rows for a handful, and the steps that follow pick plans that read every
 * one of them once per chunk (an index of all open transfers scanned for each chunk of a batch, a
 * split looked up through its request's index). After a write of many rows the table is analysed
 * at once, after the operation's commit (ANALYZE's lock, held to the end of its transaction, would
 * otherwise queue other payrolls' analyses behind the whole operation), in a transaction of its own:
 * under an Idempotency-Key the operation runs inside the transaction that stores its answer, and
 * there that is a savepoint, so a failed ANALYZE cannot abort it. A failure changes only plans,
 * never the outcome of the operation, so it is not reported as one.
 */
async function analyzeAfterBulkWrite(db: Database, table: BulkTable, rowsWritten: number): Promise<void> {
  if (rowsWritten < BULK_ROWS) return;
  await db
    .transaction(async (tx) => {
      const columns = await plannedColumns(tx, table);
      await tx.exec(`ANALYZE ${table} (${columns.map((column) => `"${column}"`).join(', ')})`);
    })
    .catch(() => undefined);
}

/**
 * The columns of JSON a row keeps (a split's beneficiary snapshot): read whole and never filtered,
 * joined or sorted on, so their statistics steer no plan, and computing them over a sample of
 * kilobyte texts is much of an ANALYZE's work. Autovacuum's own analysis still covers them later.
 */
const UNPLANNED_COLUMNS: Record<BulkTable, readonly string[]> = {
  amount_splits: ['beneficiary_snapshot'],
  transfers: [],
};

/** Every column of the table as it is now but its JSON: the row count and these columns' statistics are what a bulk write refreshes. */
export async function plannedColumns(tx: Queryable, table: BulkTable): Promise<string[]> {
  const rows = await tx.query<{ name: string }>(
    `SELECT attname AS name FROM pg_attribute
      WHERE attrelid = $1::regclass AND attnum > 0 AND NOT attisdropped AND attname <> ALL($2::text[])
      ORDER BY attnum`,
    [table, UNPLANNED_COLUMNS[table]],
  );
  return rows.map((row) => row.name);
}

/** After a payroll's creation has committed its `splitCount` splits (see analyzeAfterBulkWrite). */
export const refreshPlannerStatisticsAfterPayrollCreated = (db: Database, splitCount: number): Promise<void> =>
  analyzeAfterBulkWrite(db, 'amount_splits', splitCount);

/** After an FX record has committed its `payoutCount` payouts, on which the worker's batch steps are then planned. */
export const refreshPlannerStatisticsAfterPayoutsCreated = (db: Database, payoutCount: number): Promise<void> =>
  analyzeAfterBulkWrite(db, 'transfers', payoutCount);

/**
 * PostgreSQL keeps a session's plans of its prepared statements, made for the tables as they were
 * when planned. A plan made while a table was small (a young database, or before a payroll's
 * thousands of payouts were inserted in this very transaction) scans the whole table where an
 * index probe is wanted, and a statement that runs such a scan once per row grows with the square
 * of the payroll. Forgotten after a bulk write (and before each chunk of settlements, whose ledger
 * checks meet a ledger that grows), the plans are made again for the tables as they are now:
 * PostgreSQL scales the last statistics by the table's current size. Planning every statement
 * instead cost more than the statements.
 */
export async function replanForTheTablesAsTheyAreNow(tx: Queryable): Promise<void> {
  await tx.query('DISCARD PLANS');
}
