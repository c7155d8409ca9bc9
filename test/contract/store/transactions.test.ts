import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../../src/store/database/db.js';
import { consumePayrollFeeEstimate, insertPayrollFeeEstimate } from '../../../src/store/fees/feeEstimates.js';
import { migrate } from '../../../src/store/database/migrate.js';
import { joinTransaction } from '../../../src/store/database/savepoint.js';
import { ids } from '../../fixtures/world.js';
import { TEST_DATABASE_URL, freshDatabase } from '../../support/database.js';
import { settlesWithin } from '../../support/polling.js';

let db: Database;
let drop: () => Promise<void>;
beforeAll(async () => ({ db, drop } = await freshDatabase()));
afterAll(() => drop());

/** A minimal locked estimate of customer A; tests add the feeHash and expiry. */
const estimateOfA = (now: Date) => ({
  customerId: ids.customerA,
  createdByUserId: ids.userA,
  sourceAccountCurrencyId: ids.accountCurrencyAUsd,
  payrollAccountCurrencyId: ids.accountCurrencyPartnerAed,
  entries: [],
  feeBreakdown: {},
  sourceCurrencyAmount: '1',
  feeAmount: '0',
  totalAmount: '1',
  estimatedReceivedAmount: '3.67',
  createdAt: now,
});

/** A promise and the function that settles it: one transaction tells another where it stands. */
function signal(): { reached: Promise<void>; reach: () => void } {
  let reach!: () => void;
  const reached = new Promise<void>((resolve) => (reach = resolve));
  return { reached, reach };
}

describe(`transactions on ${TEST_DATABASE_URL ? 'PostgreSQL' : 'embedded Postgres'}`, () => {
  it('a rolled-back transaction never leaks into a concurrent one', async () => {
    await db.exec('CREATE TABLE IF NOT EXISTS tx_probe (name text PRIMARY KEY)');
    // The order is forced: the failing one writes, the other writes and reads, then the first rolls back.
    const written = signal();
    const read = signal();
    const failing = db.transaction(async (tx) => {
      await tx.query("INSERT INTO tx_probe VALUES ('rolled-back')");
      written.reach();
      await read.reached;
      throw new Error('boom');
    });
    const succeeding = db.transaction(async (tx) => {
      await written.reached;
      await tx.query("INSERT INTO tx_probe VALUES ('committed')");
      const names = (await tx.query<{ name: string }>('SELECT name FROM tx_probe ORDER BY name')).map((row) => row.name);
      read.reach();
      return names;
    });
    const [failed, seen] = await Promise.allSettled([failing, succeeding]);
    expect(failed.status).toBe('rejected');
    expect(seen).toEqual({ status: 'fulfilled', value: ['committed'] });
    expect(await db.query('SELECT name FROM tx_probe')).toEqual([{ name: 'committed' }]);
  });

  it('transactions run side by side: a short one does not wait for a long one to finish', async () => {
    const finished: string[] = [];
    const holding = signal();
    const longMayEnd = signal();
    const long = db.transaction(async (tx) => {
      await tx.query('SELECT 1');
      holding.reach();
      await longMayEnd.reached;
      finished.push('long');
    });
    await holding.reached;
    // The long one ends only after the short one: a short one that waited for it would never end.
    const short = db.transaction(async (tx) => {
      await tx.query('SELECT 1');
      finished.push('short');
    });
    await settlesWithin('the short transaction, beside a long one still open', short);
    longMayEnd.reach();
    await long;
    expect(finished).toEqual(['short', 'long']);
  });

  it('a statement is prepared once per connection (named) and then only executed', async () => {
    const probe = 'SELECT $1::int + 1 AS n';
    await db.transaction(async (tx) => {
      expect(await tx.query(probe, [1])).toEqual([{ n: 2 }]);
      expect(await tx.query(probe, [2])).toEqual([{ n: 3 }]);
      const prepared = await tx.query<{ name: string; runs: number }>(
        'SELECT name, generic_plans + custom_plans AS runs FROM pg_prepared_statements WHERE statement = $1',
        [probe],
      );
      expect(prepared).toEqual([{ name: expect.stringMatching(/^q_/), runs: 2 }]);
    });
  });

  it('migrations are re-runnable: a second run applies nothing', async () => {
    expect(await migrate(db)).toEqual([]);
  });

  it('a feeHash is consumed exactly once, however many consumers race', async () => {
    const now = new Date();
    await insertPayrollFeeEstimate(db, { ...estimateOfA(now), feeHash: 'race-test-fee-hash-0123456789', expiresAt: new Date(now.getTime() + 60_000) });
    const attempts = await Promise.all(
      Array.from({ length: 20 }, (_, n) =>
        db.transaction((tx) =>
          consumePayrollFeeEstimate(tx, 'race-test-fee-hash-0123456789', ids.customerA, `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`, new Date()),
        ),
      ),
    );
    expect(attempts.filter((attempt) => attempt.ok)).toHaveLength(1);
    expect(attempts.filter((attempt) => !attempt.ok && attempt.reason === 'ALREADY_USED')).toHaveLength(19);
    const other = await db.transaction((tx) => consumePayrollFeeEstimate(tx, 'race-test-fee-hash-0123456789', ids.customerB, ids.customerB, new Date()));
    expect(other).toEqual({ ok: false, reason: 'NOT_FOUND' });
  });

  it('an expired feeHash cannot be consumed, and a rollback leaves it unused', async () => {
    const now = new Date();
    const base = estimateOfA(now);
    await insertPayrollFeeEstimate(db, { ...base, feeHash: 'expired-fee-hash-0123456789', expiresAt: new Date(now.getTime() - 1) });
    await insertPayrollFeeEstimate(db, { ...base, feeHash: 'rolled-back-fee-hash-012345', expiresAt: new Date(now.getTime() + 60_000) });
    expect(await db.transaction((tx) => consumePayrollFeeEstimate(tx, 'expired-fee-hash-0123456789', ids.customerA, ids.customerA, now))).toEqual({
      ok: false,
      reason: 'EXPIRED',
      expiresAt: new Date(now.getTime() - 1),
    });
    const refused = new Error('insufficient funds, say');
    await expect(
      db.transaction(async (tx) => {
        await consumePayrollFeeEstimate(tx, 'rolled-back-fee-hash-012345', ids.customerA, ids.customerA, now);
        throw refused;
      }),
    ).rejects.toBe(refused);
    expect((await db.transaction((tx) => consumePayrollFeeEstimate(tx, 'rolled-back-fee-hash-012345', ids.customerA, ids.customerA, now))).ok).toBe(true);
  });

  it('an effect runs once after its commit: never after a rollback, once for a retried conflict', async () => {
    const ran: string[] = [];
    await db.transaction(async (tx) => tx.afterCommit(() => ran.push('committed')));
    const boom = new Error('boom');
    await expect(
      db.transaction(async (tx) => {
        tx.afterCommit(() => ran.push('rolled back'));
        throw boom;
      }),
    ).rejects.toBe(boom);
    let attempts = 0;
    await db.transaction(async (tx) => {
      attempts++;
      tx.afterCommit(() => ran.push(`attempt ${attempts}`));
      if (attempts === 1) await tx.query("DO $$ BEGIN RAISE EXCEPTION 'conflict' USING ERRCODE = '40001'; END $$");
    });
    expect(attempts).toBe(2);
    expect(ran).toEqual(['committed', 'attempt 2']);
  });

  it('a joined transaction keeps the effects of a released savepoint for the commit and drops a rolled-back one', async () => {
    const ran: string[] = [];
    await db.transaction(async (tx) => {
      const joined = joinTransaction(tx, db.kind);
      await joined.transaction(async (inner) => inner.afterCommit(() => ran.push('released')));
      const boom = new Error('boom');
      await expect(
        joined.transaction(async (inner) => {
          inner.afterCommit(() => ran.push('rolled back'));
          throw boom;
        }),
      ).rejects.toBe(boom);
      expect(ran).toEqual([]);
    });
    expect(ran).toEqual(['released']);
  });
});
