import type { components } from '../../../generated/api.js';
import type { Queryable } from '../../store/db.js';
import { type AmountSplitRow, type TransferRow, findAmountSplit, findTransfer } from '../../store/payrollRequests.js';

type Transfer = components['schemas']['Transfer'];

/**
 * One transfer as the request's `transfers` shows it (and as transfer events carry it). Optional
 * fields are absent, never null, until they apply; a payout links back to its split.
 */
export function toTransfer(transfer: TransferRow, split: AmountSplitRow | undefined): Transfer {
  return {
    id: transfer.id,
    payrollRequestId: transfer.payroll_request_id,
    transferType: transfer.transfer_type,
    status: transfer.status,
    ...(transfer.external_id !== null && { externalId: transfer.external_id }),
    amount: transfer.amount,
    currencyCode: transfer.currency_code,
    ...(transfer.fee_id !== null && {
      feeDetails: { id: transfer.fee_id, amount: transfer.fee_amount!, finalInternalFee: transfer.final_internal_fee! },
    }),
    ...(split && { payoutInstruction: toPayoutInstruction(split, transfer.amount) }),
    ...(transfer.executed_at && { executedAt: transfer.executed_at.toISOString() }),
    ...(transfer.completed_at && { completedAt: transfer.completed_at.toISOString() }),
    ...(transfer.failure_reason !== null && { failureReason: transfer.failure_reason }),
    createdAt: transfer.created_at.toISOString(),
  };
}

/** Rule 4: the instruction id is the split id; the amount is what the payout pays. */
function toPayoutInstruction(split: AmountSplitRow, amount: string): components['schemas']['PayoutInstruction'] {
  const { id, firstName, lastName, displayName } = split.beneficiarySnapshot;
  return {
    id: split.id,
    beneficiaryId: split.beneficiaryId,
    beneficiarySnapshot: { id, firstName, lastName, displayName },
    sourceCurrencyAmount: split.sourceCurrencyAmount,
    amount,
  };
}

/** One transfer by id with the request it belongs to, or null. */
export async function loadTransfer(tx: Queryable, transferId: string): Promise<{ transfer: Transfer; requestId: string } | null> {
  const transfer = await findTransfer(tx, transferId);
  if (!transfer) return null;
  const split = transfer.amount_split_id ? await findAmountSplit(tx, transfer.amount_split_id) : null;
  return { transfer: toTransfer(transfer, split ?? undefined), requestId: transfer.payroll_request_id };
}
