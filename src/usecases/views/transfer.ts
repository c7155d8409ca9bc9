import type { components } from '../../../generated/api.js';
import type { TransferRow } from '../../store/payroll/payrollItems.js';
import { type WireFields, objectText, plain, plainOrAbsent, str, strOrAbsent } from './wireText.js';

type Schemas = components['schemas'];

/**
 * A transfer as the request's `transfers`, its pages and its transfer.status_changed events show
 * it: optional fields absent, never null, until they apply; a payout carries its split's
 * instruction (rule 4). `as` overrides what the row says for an event of an earlier step.
 */
export function transferText(transfer: TransferRow, as: { status?: Schemas['TransferStatus']; externalId?: null } = {}): string {
  return objectText({
    id: plain(transfer.id),
    payrollRequestId: plain(transfer.payrollRequestId),
    transferType: plain(transfer.transferType),
    status: plain(as.status ?? transfer.status),
    externalId: strOrAbsent(as.externalId === null ? null : transfer.externalId),
    amount: plain(transfer.amount),
    currencyCode: plain(transfer.currencyCode),
    feeDetails:
      transfer.feeId === null
        ? null
        : objectText({
            id: plain(transfer.feeId),
            amount: plain(transfer.feeAmount),
            finalInternalFee: plain(transfer.finalInternalFee),
          } satisfies WireFields<Schemas['FeeDetails']>),
    payoutInstruction: payoutInstructionText(transfer),
    executedAt: plainOrAbsent(transfer.executedAt),
    completedAt: plainOrAbsent(transfer.completedAt),
    failureReason: strOrAbsent(transfer.failureReason),
    bankBooking: transfer.bankBookingJson,
    bankReturn: transfer.bankReturnJson,
    screeningHold: screeningHoldText(transfer),
    createdAt: plain(transfer.createdAt),
  } satisfies WireFields<Schemas['Transfer']>);
}

function screeningHoldText(transfer: TransferRow): string | null {
  if (transfer.holdHitId === null) return null;
  return objectText({
    hitId: plain(transfer.holdHitId),
    state: plain(transfer.holdState),
    list: plain(transfer.holdList),
    entryId: str(transfer.holdEntryId),
    heldAt: plain(transfer.holdHeldAt),
  } satisfies WireFields<Schemas['TransferScreeningHold']>);
}

/**
 * The transfer as it stood when the bank took it, before the bank's id came back: a batch records
 * INITIATED and PROCESSING in one row update, and this is the payload of the first of the two events.
 */
export const initiatedTransferText = (transfer: TransferRow): string => transferText(transfer, { status: 'INITIATED', externalId: null });

/** Rule 4: the instruction id is the split id (the beneficiary's names as they were); the amount is what the payout pays. */
function payoutInstructionText(transfer: TransferRow): string | null {
  if (transfer.splitId === null) return null;
  return objectText({
    id: plain(transfer.splitId),
    beneficiaryId: plain(transfer.splitBeneficiaryId),
    beneficiarySnapshot: objectText({
      id: str(transfer.snapshotId),
      firstName: str(transfer.snapshotFirstName),
      lastName: str(transfer.snapshotLastName),
      displayName: str(transfer.snapshotDisplayName),
    } satisfies WireFields<Schemas['PayoutBeneficiarySnapshot']>),
    sourceCurrencyAmount: plain(transfer.splitSourceCurrencyAmount),
    amount: plain(transfer.amount),
  } satisfies WireFields<Schemas['PayoutInstruction']>);
}
