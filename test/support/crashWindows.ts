/**
 * The states a process killed between two of its steps leaves behind, made to happen: a worker
 * or a rail that died after acting on the outside world (the processor, the bank, a file) and
 * before recording it. No operation of the product leaves them (each step commits what it did, and
 * nothing undoes a recorded step), and a SIGKILL lands in one only by chance, so they are written
 * here in SQL, one helper per window, named after it. The tests then check that the next process
 * resumes from the window without paying twice. A change of the tables they write changes this
 * file, not the tests.
 */
import type { Queryable } from '../../src/store/database/db.js';

export const crashWindow = {
  /**
   * A worker created a payroll leg and died before sending it: the leg PENDING, never executed,
   * and the processor has never heard of it. (Made from a leg that was sent: the processor forgets
   * its operation and the leg is recorded as not yet sent.)
   */
  async legCreatedNotSent(db: Queryable, transferId: string): Promise<void> {
    await db.query('DELETE FROM simulated_operations WHERE transfer_id = $1', [transferId]);
    await db.query("UPDATE transfers SET status = 'PENDING', executed_at = NULL, external_id = NULL WHERE id = $1", [transferId]);
  },

  /**
   * A worker marked a transfer INITIATED at `at` and died, before or after its submit to the rails
   * and in any case before recording it: its lease has run out at `at`. (The test submits it to the
   * rails itself when the dead worker had.)
   */
  async transferInitiatedNotRecorded(db: Queryable, transferId: string, at: Date): Promise<void> {
    await db.query("UPDATE transfers SET status = 'INITIATED', executed_at = $2, locked_until = $2 WHERE id = $1", [transferId, at]);
  },

  /**
   * A worker marked a payout batch's items INITIATED at `at`, submitted the batch (the test does
   * that with the rails) and died before recording it: the batch still CREATED, its lease run out at `at`.
   */
  async batchSubmittedNotRecorded(db: Queryable, batchId: string, at: Date): Promise<void> {
    await db.query("UPDATE transfers SET status = 'INITIATED', executed_at = $2 WHERE batch_id = $1", [batchId, at]);
    await db.query('UPDATE payout_batches SET locked_until = $2 WHERE id = $1', [batchId, at]);
  },

  /** The ISO 20022 rail wrote a batch's payment file and died before recording it: the file exists, the record says it was never written. */
  async bankFileWrittenNotRecorded(db: Queryable, batchId: string): Promise<void> {
    await db.query('UPDATE bank_file_batches SET written_at = NULL WHERE batch_id = $1', [batchId]);
  },
  /** The worker died after writing a batch's WPS salary file, before noting it written. */
  async salaryFileWrittenNotRecorded(db: Queryable, batchId: string): Promise<void> {
    await db.query('UPDATE wps_salary_files SET written_at = NULL WHERE batch_id = $1', [batchId]);
  },
};
