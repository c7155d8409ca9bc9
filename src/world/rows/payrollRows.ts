/** The rows of a world's payroll requests: the requests, their transfers, splits and FX records. */
import type { WorldTableRows } from '../../store/worldRows.js';
import type { WorldPayrollRequest, WorldTransfer } from '../types.js';
import { columns } from './columns.js';

type PayrollTable = 'payroll_requests' | 'transfers' | 'amount_splits' | 'fx_exchanges';

export function payrollRows(requests: readonly WorldPayrollRequest[]): Pick<WorldTableRows, PayrollTable> {
  // Transfers first, so that amount splits can point at their payout transfer.
  const { transfers, payoutOfSplit } = transferRows(requests);
  return {
    payroll_requests: requests.map((r) => ({
      ...columns(r, ['id', 'customerId', 'sourceAccountCurrencyId', 'payrollAccountCurrencyId', 'totalAmount', 'status']),
      ...columns(r, ['estimatedFxRate', 'estimatedReceivedAmount', 'sourceAmountForExchange']),
      ...columns(r, ['quoteRate', 'quoteExpiresAt', 'quotedByUserId', 'quotedAt', 'acceptedByCustomerAt']),
      ...columns(r, ['cancellationReason', 'failureReason', 'createdAt', 'updatedAt']),
      metadata: { feeBreakdown: r.feeBreakdown },
    })),
    transfers,
    amount_splits: splitRows(requests, payoutOfSplit),
    fx_exchanges: requests.flatMap(({ id, fxExchange: fx }) =>
      fx
        ? [
            {
              ...columns(fx, ['id', 'fromCurrencyCode', 'toCurrencyCode', 'fromAmount', 'toAmount', 'exchangeRate']),
              ...columns(fx, ['recordedByUserId', 'recordedAt', 'createdAt']),
              ...feeColumns(fx.feeDetails),
              payroll_request_id: id,
            },
          ]
        : [],
    ),
  };
}

function feeColumns(fee: WorldTransfer['feeDetails']): { fee_id: string | null; fee_amount: string | null; final_internal_fee: string | null } {
  return { fee_id: fee?.id ?? null, fee_amount: fee?.amount ?? null, final_internal_fee: fee?.finalInternalFee ?? null };
}

/** The transfers, and split id → payout transfer id for links given only on the transfer. */
function transferRows(requests: readonly WorldPayrollRequest[]): {
  transfers: WorldTableRows['transfers'];
  payoutOfSplit: Map<string, string>;
} {
  const payoutOfSplit = new Map<string, string>();
  const transfers = requests.flatMap((request) => {
    const splitOfTransfer = new Map<string, string>();
    for (const split of request.amountSplitDetails) {
      if (split.payoutTransferId !== undefined) splitOfTransfer.set(split.payoutTransferId, split.id);
    }
    return (request.transfers ?? []).map((t, position) => {
      const amountSplitId = t.amountSplitId ?? splitOfTransfer.get(t.id) ?? null;
      if (amountSplitId !== null) payoutOfSplit.set(amountSplitId, t.id);
      return {
        ...columns(t, ['id', 'transferType', 'status', 'externalId', 'amount', 'currencyCode']),
        ...columns(t, ['executedAt', 'completedAt', 'failureReason', 'createdAt']),
        ...feeColumns(t.feeDetails),
        payroll_request_id: request.id,
        amount_split_id: amountSplitId,
        position,
      };
    });
  });
  return { transfers, payoutOfSplit };
}

/** The beneficiary snapshot is taken by the insert itself, from the beneficiaries just loaded. */
function splitRows(requests: readonly WorldPayrollRequest[], payoutOfSplit: ReadonlyMap<string, string>): WorldTableRows['amount_splits'] {
  return requests.flatMap((request) =>
    request.amountSplitDetails.map((s, position) => ({
      ...columns(s, ['id', 'beneficiaryId', 'sourceCurrencyAmount', 'amount', 'purposeCode']),
      payout_transfer_id: s.payoutTransferId ?? payoutOfSplit.get(s.id) ?? null,
      payroll_request_id: request.id,
      created_at: request.createdAt,
      position,
    })),
  );
}
