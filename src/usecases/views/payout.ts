import type { components } from '../../../generated/api.js';
import type { PayoutRecord } from '../../store/payouts/payouts.js';

type Payout = components['schemas']['Payout'];

/** A payout as GET returns it (and as payout events carry it). */
export function toPayout(payout: PayoutRecord): Payout {
  return {
    id: payout.id,
    accountId: payout.accountId,
    accountCurrencyId: payout.accountCurrencyId,
    beneficiaryId: payout.beneficiaryId,
    beneficiarySnapshot: payout.beneficiarySnapshot,
    currency: payout.currencyCode,
    amount: payout.amount,
    fee: payout.fee,
    internalFee: payout.internalFee,
    totalFee: payout.totalFee,
    totalAmount: payout.totalAmount,
    status: payout.status,
    ...(payout.externalId !== null && { externalId: payout.externalId }),
    ...(payout.failureReason !== null && { failureReason: payout.failureReason }),
    ...(payout.executedAt && { executedAt: payout.executedAt.toISOString() }),
    ...(payout.completedAt && { completedAt: payout.completedAt.toISOString() }),
    ...(payout.bankBooking && { bankBooking: payout.bankBooking }),
    ...(payout.bankReturn && { bankReturn: payout.bankReturn }),
    createdAt: payout.createdAt.toISOString(),
    updatedAt: payout.updatedAt.toISOString(),
  };
}
