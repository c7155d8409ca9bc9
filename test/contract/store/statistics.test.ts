import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database, Queryable } from '../../../src/store/database/db.js';
import { joinTransaction } from '../../../src/store/database/savepoint.js';
import {
  plannedColumns,
  refreshPlannerStatisticsAfterPayoutsCreated,
  refreshPlannerStatisticsAfterPayrollCreated,
} from '../../../src/store/database/statistics.js';
import { freshDatabase } from '../../support/database.js';

let db: Database;
let drop: () => Promise<void>;
beforeAll(async () => ({ db, drop } = await freshDatabase()));
afterAll(() => drop());

/** How many times the table has been analysed by hand (ANALYZE), as the statistics system counts it. */
async function analyses(on: Queryable, table: string): Promise<number> {
  const [row] = await on.query<{ count: number }>('SELECT pg_stat_get_analyze_count($1::regclass)::int AS count', [table]);
  return row!.count;
}

describe('planner statistics after a bulk write', () => {
  it('analyses the tables written after 20,000 rows or more, and leaves smaller writes to autovacuum', async () => {
    const before = await analyses(db, 'transfers');
    await refreshPlannerStatisticsAfterPayoutsCreated(db, 19_999);
    expect(await analyses(db, 'transfers')).toBe(before);
    await refreshPlannerStatisticsAfterPayoutsCreated(db, 20_000);
    expect(await analyses(db, 'transfers')).toBe(before + 1);
  });

  it('inside an enclosing transaction (an Idempotency-Key) it runs in a savepoint, and the transaction goes on', async () => {
    const before = await analyses(db, 'amount_splits');
    const after = await db.transaction(async (tx) => {
      await refreshPlannerStatisticsAfterPayrollCreated(joinTransaction(tx, db.kind), 100_000);
      return analyses(tx, 'amount_splits');
    });
    expect(after).toBe(before + 1);
  });
});

describe('the columns a bulk write analyses', () => {
  it('are every column of the table but its JSON texts', async () => {
    const apiJson = { amount_splits: ['beneficiary_snapshot'], transfers: [] as string[] };
    for (const table of Object.keys(apiJson) as Array<keyof typeof apiJson>) {
      const planned = await plannedColumns(db, table);
      const rows = await db.query<{ name: string }>(
        'SELECT column_name AS name FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = $1',
        [table],
      );
      const columns = rows.map((row) => row.name).sort();
      expect([...planned, ...apiJson[table]].sort()).toEqual(columns);
    }
  });
});
