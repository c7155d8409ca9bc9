import type { SanctionsListName } from '../../domain/screening/sanctionsLists.js';
import type { Queryable } from '../database/db.js';
import { SCREENABLE, type ScreenableBeneficiary } from './screening.js';

/** The check before a batch's bank file is written, on the beneficiaries' stored screening state (insertScreenings keeps it). */

/**
 * The beneficiaries of a batch's open payouts not yet told to the bank whose stored screening is
 * missing or was against other list versions than these (the newest loaded): screened again before
 * the batch's payouts are checked.
 */
export async function staleBatchBeneficiaries(tx: Queryable, batchId: string, listVersionIds: readonly string[]): Promise<ScreenableBeneficiary[]> {
  return tx.query<ScreenableBeneficiary>(
    `SELECT ${SCREENABLE} FROM beneficiaries b
      WHERE b.id IN (SELECT s.beneficiary_id FROM transfers t JOIN amount_splits s ON s.id = t.amount_split_id
                      WHERE t.batch_id = $1 AND t.status IN ('PENDING', 'INITIATED')
                        AND NOT EXISTS (SELECT 1 FROM screening_holds h WHERE h.transfer_id = t.id))
        AND NOT EXISTS (SELECT 1 FROM beneficiary_screening_state st
                         WHERE st.beneficiary_id = b.id AND st.list_version_ids @> $2::uuid[] AND st.list_version_ids <@ $2::uuid[])`,
    [batchId, listVersionIds],
  );
}

/**
 * The open payouts of a batch not yet told to the bank (and not held already) whose beneficiary's
 * latest screening has a hit no admin released, each with that hit (the best scored), read from the
 * stored screening state in one statement.
 */
export async function blockedBatchPayouts(
  tx: Queryable,
  batchId: string,
): Promise<Array<{ transferId: string; hit: { id: string; state: 'OPEN' | 'CONFIRMED'; list: SanctionsListName; entryId: string } }>> {
  return tx.query(
    `SELECT t.id AS "transferId", json_build_object('id', hit.id, 'state', hit.state, 'list', hit.list, 'entryId', hit.entry_id) AS hit
       FROM transfers t
       JOIN amount_splits s ON s.id = t.amount_split_id
       JOIN beneficiary_screening_state st ON st.beneficiary_id = s.beneficiary_id
       CROSS JOIN LATERAL (SELECT h.id, h.state, h.list, h.entry_id FROM screening_hits h
                            WHERE h.id = ANY(st.hit_ids) AND h.state <> 'RELEASED' ORDER BY h.score DESC, h.id LIMIT 1) hit
      WHERE t.batch_id = $1 AND t.status IN ('PENDING', 'INITIATED') AND cardinality(st.hit_ids) > 0
        AND NOT EXISTS (SELECT 1 FROM screening_holds h WHERE h.transfer_id = t.id)
      ORDER BY t.position`,
    [batchId],
  );
}
