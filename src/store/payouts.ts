import type { components } from '../../generated/api.js';
import type { TransferStatus } from '../domain/transfers.js';
import { BENEFICIARY_SNAPSHOT_SQL } from './beneficiarySnapshot.js';
import type { Queryable } from './db.js';
import type { PayoutFeeEstimateRecord } from './feeEstimates.js';

/** A payout keeps the figures of the estimate it was created from. */
export interface NewPayout extends Pick<
  PayoutFeeEstimateRecord,
  'id' | 'customerId' | 'accountId' | 'beneficiaryId' | 'currencyCode' | 'amount' | 'fee' | 'internalFee' | 'totalFee' | 'totalAmount'
> {
  accountCurrencyId: string;
  feeEstimateId: string;
  at: Date;
}

export async function insertPayout(tx: Queryable, payout: NewPayout): Promise<void> {
  await tx.query(
    `INSERT INTO payouts (id, customer_id, account_id, account_currency_id, beneficiary_id, beneficiary_snapshot, fee_estimate_id,
       currency_code, amount, fee, internal_fee, total_fee, total_amount, status, created_at, updated_at)
     SELECT $1, $2, $3, $4, b.id,
            ${BENEFICIARY_SNAPSHOT_SQL},
            $6, $7, $8, $9, $10, $11, $12, 'PENDING', $13, $13
       FROM beneficiaries b WHERE b.id = $5`,
    [
      ...[payout.id, payout.customerId, payout.accountId, payout.accountCurrencyId, payout.beneficiaryId],
      ...[payout.feeEstimateId, payout.currencyCode, payout.amount, payout.fee, payout.internalFee],
      ...[payout.totalFee, payout.totalAmount, payout.at],
    ],
  );
}

export interface PayoutRow {
  id: string;
  customer_id: string;
  account_id: string;
  account_currency_id: string;
  beneficiary_id: string;
  beneficiary_snapshot: components['schemas']['Payout']['beneficiarySnapshot'];
  currency_code: string;
  amount: string;
  fee: string;
  internal_fee: string;
  total_fee: string;
  total_amount: string;
  status: TransferStatus;
  external_id: string | null;
  failure_reason: string | null;
  executed_at: Date | null;
  completed_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

export async function findPayout(tx: Queryable, payoutId: string): Promise<PayoutRow | null> {
  const rows = await tx.query<PayoutRow>(
    `SELECT id, customer_id, account_id, account_currency_id, beneficiary_id, beneficiary_snapshot, currency_code, amount::text,
            fee::text, internal_fee::text, total_fee::text, total_amount::text, status, external_id, failure_reason, executed_at,
            completed_at, created_at, updated_at
       FROM payouts WHERE id = $1`,
    [payoutId],
  );
  return rows[0] ?? null;
}

export async function findAccountCurrencyOf(tx: Queryable, accountId: string, currencyCode: string): Promise<string | null> {
  const rows = await tx.query<{ id: string }>('SELECT id FROM account_currencies WHERE account_id = $1 AND currency_code = $2', [accountId, currencyCode]);
  return rows[0]?.id ?? null;
}
