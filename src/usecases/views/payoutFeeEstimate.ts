import type { components } from '../../../generated/api.js';
import { toJsonNumber } from '../../domain/money/money.js';
import type { PayoutFeeFigures } from '../../domain/fees/payoutFees.js';

/** The payout estimate as the interface document asks for it: amounts as JSON numbers. */
export function toPayoutFeeEstimate(figures: PayoutFeeFigures, currency: string, feeHash: string, expiresAt: Date): components['schemas']['PayoutFeeEstimate'] {
  return {
    amount: toJsonNumber(figures.amount),
    currency,
    fee: toJsonNumber(figures.fee),
    feeCurrency: currency,
    estimatedDate: figures.estimatedDate.toISOString(),
    isEstimateAvailable: figures.isEstimateAvailable,
    totalAmount: toJsonNumber(figures.totalAmount),
    internalFee: toJsonNumber(figures.internalFee),
    ruleSet: figures.ruleSet,
    totalFee: toJsonNumber(figures.totalFee),
    feeHash,
    expiresAt: expiresAt.toISOString(),
  };
}
