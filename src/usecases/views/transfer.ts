import type { components } from '../../../generated/api.js';
import type { Queryable } from '../../store/db.js';
import { type AmountSplitRecord, type TransferRecord, findAmountSplit, getTransfer } from '../../store/payrollRequests.js';

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

/** One transfer by id, as its events carry it; NOT_FOUND when there is none. */
export async function loadTransfer(tx: Queryable, transferId: string): Promise<Transfer> {
  const transfer = await getTransfer(tx, transferId);
  const split = transfer.amountSplitId ? await findAmountSplit(tx, transfer.amountSplitId) : null;
  return toTransfer(transfer, split ?? undefined);
}
