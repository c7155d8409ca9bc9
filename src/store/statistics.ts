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
  await db.transaction((tx) => tx.exec(`ANALYZE ${table} (${analysedColumns(table).join(', ')})`)).catch(() => undefined);
}

/**
 * Every column of the table but those a row keeps its API JSON in (store/wireFormat.ts; the test
 * checks the list against the table): those are read whole and never filtered, joined or sorted
 * on, so their statistics steer no plan, and computing them over a sample of kilobyte texts is
 * much of an ANALYZE's work. The row count and every other column's statistics are refreshed;
 * autovacuum's own analysis still covers the JSON columns later.
 */
export const PLANNED_COLUMNS: Record<BulkTable, readonly string[]> = {
  amount_splits: [
    'id',
    'payroll_request_id',
    'beneficiary_id',
    'source_currency_amount',
    'amount',
    'purpose_code',
    'payout_transfer_id',
    'created_at',
    'position',
    'amount_currency_type',
    'quoted_source_currency_amount',
    'quoted_amount',
    'returned_source_currency_amount',
  ],
  transfers: [
    'id',
    'payroll_request_id',
    'transfer_type',
    'status',
    'external_id',
    'amount',
    'currency_code',
    'fee_id',
    'fee_amount',
    'final_internal_fee',
    'amount_split_id',
    'executed_at',
    'completed_at',
    'failure_reason',
    'created_at',
    'position',
    'locked_until',
    'batch_id',
    'bank_booking',
    'bank_return',
  ],
};

const analysedColumns = (table: BulkTable): string[] => PLANNED_COLUMNS[table].map((column) => `"${column}"`);

/** After a payroll's creation has committed its `splitCount` splits (see analyzeAfterBulkWrite). */
export const refreshPlannerStatisticsAfterPayrollCreated = (db: Database, splitCount: number): Promise<void> =>
  analyzeAfterBulkWrite(db, 'amount_splits', splitCount);

/** After an FX record has committed its `payoutCount` payouts, on which the worker's batch steps are then planned. */
export const refreshPlannerStatisticsAfterPayoutsCreated = (db: Database, payoutCount: number): Promise<void> =>
  analyzeAfterBulkWrite(db, 'transfers', payoutCount);

/**
 * The ledger's checks (a posting's references, an entry's balance) run plans PostgreSQL keeps for
 * the session. A worker whose session began while journal_entries was small (a young database)
 * kept a scan of the whole table, and a chunk's thousands of checks then grew with the ledger.
 * Forgotten before each chunk of settlements, the plans are made again for the tables as they are
 * now: one index probe per check (planning every check instead cost more than the checks).
 */
export async function replanLedgerChecksForTheTablesAsTheyAreNow(tx: Queryable): Promise<void> {
  await tx.query('DISCARD PLANS');
}
