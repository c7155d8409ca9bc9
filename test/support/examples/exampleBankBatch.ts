// A payment file at a bank that never answers, for the examples of the operations that act on one.
import { mkdir, readdir, rename } from 'node:fs/promises';
import { join } from 'node:path';
import { type BankWorld, payouts, payrollAtTheBank } from '../bankBooks.js';

/**
 * A payroll of three payouts taken to the bank on the ISO 20022 rail, its file delivered by the
 * transport (moved to the outbox's processed/, as a transport does) and no report dropped: its
 * batch and payouts. Delivered, because failing the payouts of a file that still waits in the
 * outbox is refused: the bank may yet receive and pay it.
 */
export async function unansweredBatch(world: BankWorld): Promise<{ batchId: string; payoutIds: string[] }> {
  const request = await payrollAtTheBank(world, ['1000', '1500.50', '700'], 'none');
  const [row] = await world.server.db.query<{ batch_id: string }>('SELECT batch_id::text FROM bank_file_batches WHERE payroll_request_id = $1', [request.id]);
  await deliverOutbox(world.outbox);
  return { batchId: row!.batch_id, payoutIds: payouts(request).map((payout) => payout.id) };
}

/** The transport's part: every file waiting in the outbox moved to its processed/. */
async function deliverOutbox(outbox: string): Promise<void> {
  await mkdir(join(outbox, 'processed'), { recursive: true });
  for (const name of (await readdir(outbox)).filter((file) => file.endsWith('.xml'))) {
    await rename(join(outbox, name), join(outbox, 'processed', name));
  }
}
