import type { components } from '../../../generated/api.js';
import type { AmountSplitRecord } from '../../store/payrollRequests.js';

/** A split as the request's `amountSplitDetails` and the splits' pages show it: every field present, null until it applies. */
export function toAmountSplit(split: AmountSplitRecord): components['schemas']['AmountSplitDetail'] {
  return {
    id: split.id,
    beneficiaryId: split.beneficiaryId,
    beneficiarySnapshot: split.beneficiarySnapshot,
    amountCurrencyType: split.amountCurrencyType,
    sourceCurrencyAmount: split.sourceCurrencyAmount,
    amount: split.amount,
    quotedSourceCurrencyAmount: split.quotedSourceCurrencyAmount,
    quotedAmount: split.quotedAmount,
    returnedSourceCurrencyAmount: split.returnedSourceCurrencyAmount,
    purposeCode: split.purposeCode,
    payoutTransferId: split.payoutTransferId,
    createdAt: split.createdAt.toISOString(),
    payrollRequestId: split.payrollRequestId,
  };
}
