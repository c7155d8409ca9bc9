import type { components } from '../../../generated/api.js';
import { notFound } from '../../domain/errors.js';
import type { TransferStatus } from '../../domain/payroll/transfers.js';
import { BENEFICIARY_SNAPSHOT_SQL } from '../beneficiaries/beneficiarySnapshot.js';
import type { Queryable } from '../database/db.js';
import type { PayoutFeeEstimateRecord } from '../fees/feeEstimates.js';

/** What a payout keeps of the estimate it was created from: who pays whom, and the figures. */
type EstimatedPayout = Pick<
  PayoutFeeEstimateRecord,
  'id' | 'customerId' | 'accountId' | 'beneficiaryId' | 'currencyCode' | 'amount' | 'fee' | 'internalFee' | 'totalFee' | 'totalAmount'
>;

export interface NewPayout extends EstimatedPayout {
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

export interface PayoutRecord extends EstimatedPayout {
  accountCurrencyId: string;
  beneficiarySnapshot: components['schemas']['Payout']['beneficiarySnapshot'];
  status: TransferStatus;
  externalId: string | null;
  failureReason: string | null;
  executedAt: Date | null;
  completedAt: Date | null;
  bankBooking: components['schemas']['TransferBankBooking'] | null;
  bankReturn: components['schemas']['TransferBankReturn'] | null;
  createdAt: Date;
  updatedAt: Date;
}

export async function findPayout(tx: Queryable, payoutId: string): Promise<PayoutRecord | null> {
  const rows = await tx.query<PayoutRecord>(
    `SELECT id, customer_id AS "customerId", account_id AS "accountId", account_currency_id AS "accountCurrencyId",
            beneficiary_id AS "beneficiaryId", beneficiary_snapshot AS "beneficiarySnapshot", currency_code AS "currencyCode",
            amount::text AS "amount", fee::text AS "fee", internal_fee::text AS "internalFee", total_fee::text AS "totalFee",
            total_amount::text AS "totalAmount", status, external_id AS "externalId", failure_reason AS "failureReason",
            executed_at AS "executedAt", completed_at AS "completedAt", bank_booking AS "bankBooking", bank_return AS "bankReturn",
            created_at AS "createdAt", updated_at AS "updatedAt"
       FROM payouts WHERE id = $1`,
    [payoutId],
  );
  return rows[0] ?? null;
}

/** The same, for a payout that must exist (one just written): a missing one is NOT_FOUND. */
export async function getPayout(tx: Queryable, payoutId: string): Promise<PayoutRecord> {
  const payout = await findPayout(tx, payoutId);
  if (!payout) throw notFound(`Payout ${payoutId} not found`);
  return payout;
}

/** The account's currency with this code, which must exist (the account holds the currency): a missing one is NOT_FOUND. */
export async function getAccountCurrencyOf(tx: Queryable, accountId: string, currencyCode: string): Promise<string> {
  const rows = await tx.query<{ id: string }>('SELECT id FROM account_currencies WHERE account_id = $1 AND currency_code = $2', [accountId, currencyCode]);
  if (!rows[0]) throw notFound(`Account ${accountId} has no ${currencyCode} account currency`);
  return rows[0].id;
}
