import type { components } from '../../../generated/api.js';
import type { PayoutRow } from '../../store/payouts.js';

type Payout = components['schemas']['Payout'];

/** A payout as GET returns it (and as payout events carry it). */
export function toPayout(row: PayoutRow): Payout {
  return {
    id: row.id,
    accountId: row.account_id,
    accountCurrencyId: row.account_currency_id,
    beneficiaryId: row.beneficiary_id,
    beneficiarySnapshot: row.beneficiary_snapshot,
    currency: row.currency_code,
    amount: row.amount,
    fee: row.fee,
    internalFee: row.internal_fee,
    totalFee: row.total_fee,
    totalAmount: row.total_amount,
    status: row.status,
    ...(row.external_id !== null && { externalId: row.external_id }),
    ...(row.failure_reason !== null && { failureReason: row.failure_reason }),
    ...(row.executed_at && { executedAt: row.executed_at.toISOString() }),
    ...(row.completed_at && { completedAt: row.completed_at.toISOString() }),
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
  };
}
