import type { Database } from '../database/db.js';

// Any fixed number, other than the start-up lock's: held by the one worker reading the bank inbox.
const BANK_INBOX_LOCK_KEY = 4_812_135;

/**
 * Runs `pass` while holding the bank inbox's lock, or not at all (undefined) when another worker of
 * the fleet holds it: two workers never read, apply and move the same file. The lock is a
 * transaction-scoped advisory lock held by one pool connection for the pass, so a worker that dies
 * mid-pass releases it with its connection. That transaction stays idle while the pass reads files
 * (its own statements go through other connections), hence no idle-in-transaction limit on it.
 */
export async function withBankInboxLock<T>(db: Database, pass: () => Promise<T>): Promise<T | undefined> {
  return db.transaction(async (tx) => {
    await tx.query("SELECT set_config('idle_in_transaction_session_timeout', '0', true)");
    const [row] = await tx.query<{ locked: boolean }>('SELECT pg_try_advisory_xact_lock($1) AS locked', [BANK_INBOX_LOCK_KEY]);
    return row?.locked ? pass() : undefined;
  });
}
