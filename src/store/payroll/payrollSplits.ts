import type { components } from '../../../generated/api.js';
import type { WpsSalaryDetails } from '../../domain/payroll/wpsPayroll.js';
import { BENEFICIARY_SNAPSHOT_SQL } from '../beneficiaries/beneficiarySnapshot.js';
import type { Queryable } from '../database/db.js';
import { rowChunks } from '../database/rowChunks.js';
import { WPS_SPLIT_COLUMNS, WPS_SPLIT_RECORD, WPS_SPLIT_VALUES, wpsSplitColumns } from './wpsRegistration.js';

/** A new payroll request's splits, written with their beneficiaries' snapshots. */

export interface NewSplit {
  beneficiaryId: string;
  amountCurrencyType: components['schemas']['AmountCurrencyType'];
  sourceCurrencyAmount: string;
  amount: string;
  purposeCode: components['schemas']['PurposeCode'];
  /** A WPS salary's period and parts (docs/wps.md); the beneficiary's WPS ids are copied with its snapshot. */
  wps?: WpsSalaryDetails | undefined;
}

/**
 * All splits, a statement per chunk of rows, each with an immutable snapshot of its beneficiary as
 * it is now, written only for a beneficiary of `customerId` that is active. Returns false, having
 * written only part, when some split's beneficiary is not (the caller rolls back and says which).
 */
export async function insertSplitsWithSnapshots(tx: Queryable, request: { id: string; customerId: string }, splits: NewSplit[], at: Date): Promise<boolean> {
  for (const chunk of rowChunks(splits)) {
    const [written] = await tx.query<{ count: number }>(
      `WITH written AS (
         INSERT INTO amount_splits (id, payroll_request_id, beneficiary_id, beneficiary_snapshot, amount_currency_type, source_currency_amount, amount,
           purpose_code, created_at, position, ${WPS_SPLIT_COLUMNS})
         SELECT gen_random_uuid(), $1, b.id,
                ${BENEFICIARY_SNAPSHOT_SQL},
                e.amount_currency_type, e.source_currency_amount, e.amount, e.purpose_code, $2, e.position, ${WPS_SPLIT_VALUES}
           FROM jsonb_to_recordset($3::jsonb) AS e(beneficiary_id uuid, amount_currency_type text, source_currency_amount numeric, amount numeric,
                purpose_code text, position integer, ${WPS_SPLIT_RECORD})
           JOIN beneficiaries b ON b.id = e.beneficiary_id AND b.customer_id = $4 AND b.active
         RETURNING 1)
       SELECT count(*)::int AS count FROM written`,
      [
        request.id,
        at,
        JSON.stringify(
          chunk.rows.map((split, index) => ({
            beneficiary_id: split.beneficiaryId,
            amount_currency_type: split.amountCurrencyType,
            source_currency_amount: split.sourceCurrencyAmount,
            amount: split.amount,
            purpose_code: split.purposeCode,
            position: chunk.first + index,
            ...wpsSplitColumns(split.wps),
          })),
        ),
        request.customerId,
      ],
    );
    if (written!.count !== chunk.rows.length) return false;
  }
  await tx.query('UPDATE payroll_requests SET split_count = $2 WHERE id = $1', [request.id, splits.length]);
  return true;
}
