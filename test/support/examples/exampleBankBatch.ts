// A payment file at a bank that never answers, for the examples of the operations that act on one.
import { type BankWorld, payouts, payrollAtTheBank } from '../bankBooks.js';

/** A payroll of three payouts taken to the bank on the ISO 20022 rail, no report dropped: its batch and payouts. */
export async function unansweredBatch(world: BankWorld): Promise<{ batchId: string; payoutIds: string[] }> {
  const request = await payrollAtTheBank(world, ['1000', '1500.50', '700'], 'none');
  const [row] = await world.server.db.query<{ batch_id: string }>('SELECT batch_id::text FROM bank_file_batches WHERE payroll_request_id = $1', [request.id]);
  return { batchId: row!.batch_id, payoutIds: payouts(request).map((payout) => payout.id) };
}
