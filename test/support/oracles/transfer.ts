import type { components } from '../../../generated/api.js';
import type { AmountSplitRecord, TransferRecord } from './payrollRequest.js';

type Transfer = components['schemas']['Transfer'];

/**
 * One transfer as the request's `transfers` shows it (and as transfer events carry it). Optional
 * fields are absent, never null, until they apply; a payout links back to its split.
 */
export function toTransfer(transfer: TransferRecord, split: AmountSplitRecord | undefined): Transfer {
  return {
    id: transfer.id,
    payrollRequestId: transfer.payrollRequestId,
    transferType: transfer.transferType,
    status: transfer.status,
    ...(transfer.externalId !== null && { externalId: transfer.externalId }),
    amount: transfer.amount,
    currencyCode: transfer.currencyCode,
    ...(transfer.feeId !== null && { feeDetails: { id: transfer.feeId, amount: transfer.feeAmount, finalInternalFee: transfer.finalInternalFee } }),
    ...(split && { payoutInstruction: toPayoutInstruction(split, transfer.amount) }),
    ...(transfer.executedAt && { executedAt: transfer.executedAt.toISOString() }),
    ...(transfer.completedAt && { completedAt: transfer.completedAt.toISOString() }),
    ...(transfer.failureReason !== null && { failureReason: transfer.failureReason }),
    ...(transfer.bankBooking && { bankBooking: transfer.bankBooking }),
    ...(transfer.bankReturn && { bankReturn: transfer.bankReturn }),
    createdAt: transfer.createdAt.toISOString(),
  };
}

/** Rule 4: the instruction id is the split id; the amount is what the payout pays. */
function toPayoutInstruction(split: AmountSplitRecord, amount: string): components['schemas']['PayoutInstruction'] {
  const { id, firstName, lastName, displayName } = split.beneficiarySnapshot;
  return {
    id: split.id,
    beneficiaryId: split.beneficiaryId,
    beneficiarySnapshot: { id, firstName, lastName, displayName },
    sourceCurrencyAmount: split.sourceCurrencyAmount,
    amount,
  };
}
