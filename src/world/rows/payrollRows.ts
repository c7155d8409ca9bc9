/** The rows of a world's payroll requests: the requests, their transfers, splits and FX records. */
import { quoteFiguresView, splitSettlementView, fxResultView } from '../../domain/payroll/settlementView.js';
import type { WorldTableRows } from '../../store/reference/worldRows.js';
import type { RequestSettlement } from '../settlement.js';
import type { WorldPayrollRequest, WorldTransfer } from '../types.js';
import { columns } from './columns.js';

type PayrollTable = 'payroll_requests' | 'transfers' | 'amount_splits' | 'fx_exchanges';

/** `settlements[i]` is what the settlement rules make of `requests[i]` (src/world/settlement.ts). */
export function payrollRows(requests: readonly WorldPayrollRequest[], settlements: readonly RequestSettlement[]): Pick<WorldTableRows, PayrollTable> {
  return {
    payroll_requests: requests.map((r, i) => requestRow(r, settlements[i]!)),
    transfers: transferRows(requests),
    amount_splits: splitRows(requests, settlements),
    fx_exchanges: requests.flatMap(({ id, fxExchange: fx }, i) => {
      const { fx: figures, scales } = settlements[i]!;
      if (!fx) return [];
      const result = figures ? fxResultView(figures, scales) : null;
      return [
        {
          ...columns(fx, ['id', 'fromCurrencyCode', 'toCurrencyCode', 'fromAmount', 'toAmount', 'exchangeRate']),
          ...columns(fx, ['recordedByUserId', 'recordedAt', 'createdAt']),
          ...feeColumns(fx.feeDetails),
          payroll_request_id: id,
          payout_amount: result?.payoutAmount ?? null,
          fx_result_amount: result?.fxResultAmount ?? null,
        },
      ];
    }),
  };
}

/**
 * The file's totalAmount and sourceAmountForExchange are the creation figures (what was debited);
 * from acceptance on the request carries the quote's, as the use cases leave it.
 */
function requestRow(r: WorldPayrollRequest, settlement: RequestSettlement): WorldTableRows['payroll_requests'][number] {
  const quote = settlement.quote && quoteFiguresView(settlement.quote, settlement.scales);
  return {
    ...columns(r, ['id', 'customerId', 'sourceAccountCurrencyId', 'payrollAccountCurrencyId', 'status']),
    ...columns(r, ['estimatedFxRate', 'estimatedReceivedAmount']),
    ...columns(r, ['quoteRate', 'quoteExpiresAt', 'quotedByUserId', 'quotedAt', 'acceptedByCustomerAt']),
    ...columns(r, ['cancellationReason', 'failureReason', 'createdAt', 'updatedAt']),
    total_amount: settlement.accepted && quote ? quote.totalAmount : r.totalAmount,
    source_amount_for_exchange: settlement.accepted && quote ? quote.sourceAmountForExchange : r.sourceAmountForExchange,
    debited_amount: r.totalAmount,
    quote_source_amount_for_exchange: quote?.sourceAmountForExchange ?? null,
    quote_total_amount: quote?.totalAmount ?? null,
    quote_received_amount: quote?.receivedAmount ?? null,
    quote_adjustment_amount: quote?.adjustmentAmount ?? null,
    metadata: { feeBreakdown: r.feeBreakdown },
  };
}

function feeColumns(fee: WorldTransfer['feeDetails']): { fee_id: string | null; fee_amount: string | null; final_internal_fee: string | null } {
  return { fee_id: fee?.id ?? null, fee_amount: fee?.amount ?? null, final_internal_fee: fee?.finalInternalFee ?? null };
}

/**
 * The transfers. A payout names its split (amount_split_id) whichever side of the file gave the
 * link: that is where the API reads a split's payoutTransferId from (store/payroll/payrollRequests.ts).
 */
function transferRows(requests: readonly WorldPayrollRequest[]): WorldTableRows['transfers'] {
  return requests.flatMap((request) => {
    const splitOfTransfer = new Map<string, string>();
    for (const split of request.amountSplitDetails) {
      if (split.payoutTransferId !== undefined) splitOfTransfer.set(split.payoutTransferId, split.id);
    }
    return (request.transfers ?? []).map((t, position) => {
      const amountSplitId = t.amountSplitId ?? splitOfTransfer.get(t.id) ?? null;
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
}

/** The beneficiary snapshot is taken by the insert itself, from the beneficiaries just loaded; the payout link is the payout's. */
function splitRows(requests: readonly WorldPayrollRequest[], settlements: readonly RequestSettlement[]): WorldTableRows['amount_splits'] {
  return requests.flatMap((request, r) =>
    request.amountSplitDetails.map((s, position) => ({
      ...columns(s, ['id', 'beneficiaryId', 'sourceCurrencyAmount', 'amount', 'purposeCode']),
      ...settledSplitColumns(settlements[r]!, position),
      amount_currency_type: s.amountCurrencyType ?? 'SOURCE',
      payroll_request_id: request.id,
      created_at: request.createdAt,
      position,
    })),
  );
}

function settledSplitColumns(settlement: RequestSettlement, position: number) {
  const quoted = settlement.quote?.splits[position] ?? null;
  const view = splitSettlementView(quoted, settlement.returned[position] ?? null, settlement.scales);
  return {
    quoted_source_currency_amount: view.quotedSourceCurrencyAmount,
    quoted_amount: view.quotedAmount,
    returned_source_currency_amount: view.returnedSourceCurrencyAmount,
  };
}
