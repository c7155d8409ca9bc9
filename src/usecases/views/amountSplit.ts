import type { components } from '../../../generated/api.js';
import type { AmountSplitRow } from '../../store/payroll/payrollItems.js';
import { type WireFields, objectText, plain, plainOrNull, str } from './wireText.js';

/** A split as the request's `amountSplitDetails` and the splits' pages show it: every field present, null until it applies. */
export function amountSplitText(split: AmountSplitRow, requestId: string): string {
  return objectText({
    id: plain(split.id),
    beneficiaryId: plain(split.beneficiaryId),
    beneficiarySnapshot: split.beneficiarySnapshotJson,
    amountCurrencyType: plain(split.amountCurrencyType),
    sourceCurrencyAmount: plain(split.sourceCurrencyAmount),
    amount: plain(split.amount),
    quotedSourceCurrencyAmount: plainOrNull(split.quotedSourceCurrencyAmount),
    quotedAmount: plainOrNull(split.quotedAmount),
    returnedSourceCurrencyAmount: plainOrNull(split.returnedSourceCurrencyAmount),
    purposeCode: str(split.purposeCode),
    payoutTransferId: plainOrNull(split.payoutTransferId),
    createdAt: plain(split.createdAt),
    payrollRequestId: plain(requestId),
  } satisfies WireFields<components['schemas']['AmountSplitDetail']>);
}
