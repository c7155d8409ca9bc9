import type { Queryable } from './db.js';

// Any fixed number: serialises the start-up work (migrations, the world's seeding) of every
// process that starts on one database, servers and workers alike.
const STARTUP_LOCK_KEY = 4_812_134;
const RETRY_MS = 100;
/** A process that waits this long for another's start-up work gives up (the work is stuck). */
const GIVE_UP_MS = 15 * 60_000;

/**
 * Takes the start-up lock for the rest of the transaction `tx`, waiting for another process's
 * start-up work however long it takes (a big world loads for minutes): the wait is a loop of
 * tries, not one statement, so no statement or lock timeout of the session cuts it short, and
 * this transaction's own statements run without one.
 */
export async function takeStartupLock(tx: Queryable): Promise<void> {
  await tx.query("SELECT set_config('statement_timeout', '0', true), set_config('lock_timeout', '0', true)");
  const deadline = Date.now() + GIVE_UP_MS;
  for (;;) {
    const [row] = await tx.query<{ locked: boolean }>('SELECT pg_try_advisory_xact_lock($1) AS locked', [STARTUP_LOCK_KEY]);
    if (row?.locked) return;
    if (Date.now() > deadline) throw new Error('Gave up waiting for another process to finish migrating or seeding the database');
    await new Promise((resolve) => setTimeout(resolve, RETRY_MS));
  }
}
