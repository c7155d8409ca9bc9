import type { SanctionsListName } from '../../domain/screening/sanctionsLists.js';
import type { Queryable } from '../database/db.js';

/** The check before a batch's bank file is written, on the beneficiaries' stored screening state (insertScreenings keeps it). */

export interface PayoutScreeningState {
  transferId: string;
  beneficiaryId: string;
  /** The beneficiary's stored screening is missing, or was against other list versions than those asked about. */
  stale: boolean;
  /** The best scored hit of the beneficiary's latest screening no admin released, if any. */
  hit: { id: string; state: 'OPEN' | 'CONFIRMED'; list: SanctionsListName; entryId: string } | null;
}

/**
 * The open payouts of a batch not yet told to the bank (and not held already) that the check must
 * act on, in one statement: those whose beneficiary's stored screening is stale against
 * `listVersionIds` (the newest loaded) or has hits; a payout whose beneficiary is screened up to
 * date with no hit is not returned.
 */
export async function batchScreeningStates(tx: Queryable, batchId: string, listVersionIds: readonly string[]): Promise<PayoutScreeningState[]> {
  const rows = await tx.query<PayoutScreeningState>(
    `SELECT t.id AS "transferId", s.beneficiary_id AS "beneficiaryId",
            (st.beneficiary_id IS NULL OR NOT (st.list_version_ids @> $2::uuid[] AND st.list_version_ids <@ $2::uuid[])) AS stale, hit.hit
       FROM transfers t
       JOIN amount_splits s ON s.id = t.amount_split_id
       LEFT JOIN beneficiary_screening_state st ON st.beneficiary_id = s.beneficiary_id
       LEFT JOIN LATERAL (SELECT json_build_object('id', h.id, 'state', h.state, 'list', h.list, 'entryId', h.entry_id) AS hit
                            FROM screening_hits h WHERE h.id = ANY(st.hit_ids) AND h.state <> 'RELEASED'
                           ORDER BY h.score DESC, h.id LIMIT 1) hit ON true
      WHERE t.batch_id = $1 AND t.status IN ('PENDING', 'INITIATED')
        AND (st.beneficiary_id IS NULL OR cardinality(st.hit_ids) > 0 OR NOT (st.list_version_ids @> $2::uuid[] AND st.list_version_ids <@ $2::uuid[]))
        AND NOT EXISTS (SELECT 1 FROM screening_holds h WHERE h.transfer_id = t.id)
      ORDER BY t.position`,
    [batchId, listVersionIds],
  );
  return rows.filter((row) => row.stale || row.hit !== null);
}
