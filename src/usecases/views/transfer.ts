import type { components } from '../../../generated/api.js';
import type { InstructedSplit, TransferWithSplit } from '../../store/payrollRequests.js';

type Transfer = components['schemas']['Transfer'];

/**
 * A transfer as the request's `transfers`, its pages and its transfer.status_changed events show
 * it: optional fields absent, never null, until they apply; a payout carries its split's
 * instruction (rule 4).
 */
export function toTransfer(transfer: TransferWithSplit): Transfer {
  return {
    id: transfer.id,
    payrollRequestId: transfer.payrollRequestId,
    transferType: transfer.transferType,
    status: transfer.status,
    ...(transfer.externalId !== null && { externalId: transfer.externalId }),
    amount: transfer.amount,
    currencyCode: transfer.currencyCode,
    ...(transfer.feeId !== null && { feeDetails: { id: transfer.feeId, amount: transfer.feeAmount, finalInternalFee: transfer.finalInternalFee } }),
    ...(transfer.split && { payoutInstruction: toPayoutInstruction(transfer.split, transfer.amount) }),
    ...(transfer.executedAt && { executedAt: transfer.executedAt.toISOString() }),
    ...(transfer.completedAt && { completedAt: transfer.completedAt.toISOString() }),
    ...(transfer.failureReason !== null && { failureReason: transfer.failureReason }),
    ...(transfer.bankBooking && { bankBooking: transfer.bankBooking }),
    ...(transfer.bankReturn && { bankReturn: transfer.bankReturn }),
    createdAt: transfer.createdAt.toISOString(),
  };
}

/**
 * The transfer as it stood when the bank took it, before the bank's id came back: a batch records
 * INITIATED and PROCESSING in one row update, and this is the payload of the first of the two events.
 */
export function toInitiatedTransfer(transfer: TransferWithSplit): Transfer {
  const { externalId: _sent, ...sent } = toTransfer(transfer);
  return { ...sent, status: 'INITIATED' };
}

/** Rule 4: the instruction id is the split id; the amount is what the payout pays. */
function toPayoutInstruction(split: InstructedSplit, amount: string): components['schemas']['PayoutInstruction'] {
  const { id, firstName, lastName, displayName } = split.beneficiarySnapshot;
  return {
    id: split.id,
    beneficiaryId: split.beneficiaryId,
    beneficiarySnapshot: { id, firstName, lastName, displayName },
    sourceCurrencyAmount: split.sourceCurrencyAmount,
    amount,
  };
}
