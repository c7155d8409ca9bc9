import type { PostgresDatabase } from '../src/store/database/postgres.js';

/**
 * `copies` copies of request `requestId`, made in SQL (the world loader checks a world whole, which
 * at 100,000 splits takes longer than the measurements): its row, its payouts, then its splits,
 * each with new ids (md5 of the old id and the copy's number).
 */
export async function copyRequest(db: PostgresDatabase, requestId: string, copies: number): Promise<void> {
  const newId = (column: string) => `md5(${column}::text || '/' || copy_no.g)::uuid`;
  const copy = (table: string, changes: string) =>
    `INSERT INTO ${table} SELECT (jsonb_populate_record(NULL::${table}, to_jsonb(x) || jsonb_build_object(${changes}))).*
       FROM ${table} x, (SELECT $2::int AS g) copy_no WHERE x.${table === 'payroll_requests' ? 'id' : 'payroll_request_id'} = $1`;
  const owned = `'id', ${newId('x.id')}, 'payroll_request_id', ${newId('x.payroll_request_id')}`;
  // A copy per transaction: each statement stays within the session's statement timeout.
  for (let g = 1; g <= copies; g++) {
    await db.transaction(async (tx) => {
      await tx.query(copy('payroll_requests', `'id', ${newId('x.id')}, 'fee_hash', NULL`), [requestId, g]);
      await tx.query(copy('transfers', `${owned}, 'amount_split_id', ${newId('x.amount_split_id')}, 'batch_id', NULL`), [requestId, g]);
      await tx.query(copy('amount_splits', `${owned}, 'payout_transfer_id', ${newId('x.payout_transfer_id')}`), [requestId, g]);
    });
  }
}
