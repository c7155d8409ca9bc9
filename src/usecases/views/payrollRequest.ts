import type { components } from '../../../generated/api.js';
import { formatAtScale, sourceScaleOf } from '../../domain/minorUnits.js';
import { Money, sum } from '../../domain/money.js';
import type { Queryable } from '../../store/db.js';
import {
  type AmountSplitRow,
  type FxExchangeRow,
  type PayrollRequestRow,
  type TransferRow,
  findAmountSplits,
  findFxExchange,
  findPayrollRequestRow,
  findTransfers,
} from '../../store/payrollRequests.js';
import { findApprovers } from '../../store/payrollApproval.js';
import { toTransfer } from './transfer.js';

type Schemas = components['schemas'];
type PayrollRequest = Schemas['PayrollRequest'];

/**
 * The whole request of 2.2–2.8, or null, written in TypeScript: the reference that the JSON built
 * by PostgreSQL (store/payrollRequestJson.ts: every answer with a request and the payload of its
 * status events) is tested against.
 */
export async function loadPayrollRequest(tx: Queryable, requestId: string): Promise<PayrollRequest | null> {
  const row = await findPayrollRequestRow(tx, requestId);
  if (!row) return null;
  const [splits, transfers, fx] = [await findAmountSplits(tx, requestId), await findTransfers(tx, requestId), await findFxExchange(tx, requestId)];
  const approvers = row.approval_required ? await findApprovers(tx, row.customer_id, row.created_by_user_id) : [];
  return { ...toPayrollRequest(row, splits, transfers, fx), approval: approvalOf(row, approvers) };
}

function toPayrollRequest(
  row: PayrollRequestRow,
  splits: AmountSplitRow[],
  transfers: TransferRow[],
  fx: FxExchangeRow | null,
): Omit<PayrollRequest, 'approval'> {
  const splitById = new Map(splits.map((split) => [split.id, split]));
  return {
    id: row.id,
    ...accountCurrencies(row),
    totalAmount: row.total_amount,
    status: row.status,
    estimatedFxRate: row.estimated_fx_rate,
    estimatedReceivedAmount: row.estimated_received_amount,
    sourceAmountForExchange: row.source_amount_for_exchange,
    quotedFxRate: row.quote_rate,
    quoteExpiresAt: isoOrNull(row.quote_expires_at),
    quotedByUserId: row.quoted_by_user_id,
    quotedByUser: row.quoted_by_user_id
      ? { id: row.quoted_by_user_id, firstName: row.quoted_by_first_name!, lastName: row.quoted_by_last_name!, email: row.quoted_by_email! }
      : null,
    quotedAt: isoOrNull(row.quoted_at),
    quote: quoteOf(row),
    acceptedByCustomerAt: isoOrNull(row.accepted_by_customer_at),
    cancellationReason: row.cancellation_reason,
    failureReason: row.failure_reason,
    returnedAmount: returnedAmountOf(
      splits.flatMap((split) => (split.returnedSourceCurrencyAmount === null ? [] : [split.returnedSourceCurrencyAmount])),
      row.source_currency_decimals,
    ),
    metadata: row.metadata,
    amountSplitDetails: splits.map(toAmountSplit),
    transfers: transfers.map((transfer) => toTransfer(transfer, transfer.amount_split_id ? splitById.get(transfer.amount_split_id) : undefined)),
    fxExchange: fx && toFxExchange(fx),
    customer: { id: row.customer_id, firstName: row.customer_first_name, lastName: row.customer_last_name, company: { legalName: row.company_legal_name } },
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
  };
}

function accountCurrencies(
  row: PayrollRequestRow,
): Pick<PayrollRequest, 'sourceAccountCurrencyId' | 'sourceAccountCurrency' | 'payrollAccountCurrencyId' | 'payrollAccountCurrency'> {
  return {
    sourceAccountCurrencyId: row.source_account_currency_id,
    sourceAccountCurrency: {
      id: row.source_account_currency_id,
      accountId: row.source_account_id,
      currency: {
        id: row.source_currency_id,
        currencyCode: row.source_currency_code,
        currencyName: row.source_currency_name,
        currencySymbol: row.source_currency_symbol,
        decimals: row.source_currency_decimals,
      },
      balance: row.source_balance,
      available: row.source_available,
      account: { id: row.source_account_id, accountProvider: row.source_account_provider, customerId: row.source_account_customer_id },
    },
    payrollAccountCurrencyId: row.payroll_account_currency_id,
    payrollAccountCurrency: {
      id: row.payroll_account_currency_id,
      currency: { currencyCode: row.payroll_currency_code, currencyName: row.payroll_currency_name, decimals: row.payroll_currency_decimals },
      account: { accountProvider: row.payroll_account_provider },
    },
  };
}

/**
 * The figures at the quote rate, as the quote stored them (each written at its currency's scale);
 * null before the quote. The fee amount is the locked one; the debited amount what creation took.
 */
function quoteOf(row: PayrollRequestRow): Schemas['PayrollQuoteFigures'] | null {
  const { quote_rate: rate, quote_source_amount_for_exchange: forExchange, quote_total_amount: total } = row;
  if (rate === null || forExchange === null || total === null || row.quote_received_amount === null || row.quote_adjustment_amount === null) return null;
  return {
    exchangeRate: rate,
    sourceAmountForExchange: forExchange,
    feeAmount: row.metadata.feeBreakdown.totalFee,
    totalAmount: total,
    receivedAmount: row.quote_received_amount,
    debitedAmount: row.debited_amount,
    adjustmentAmount: row.quote_adjustment_amount,
  };
}

/** Four-eyes approval: who may approve (when required), and who approved or rejected and when. */
function approvalOf(row: PayrollRequestRow, approvers: Schemas['UserSummary'][]): Schemas['PayrollApproval'] {
  return {
    required: row.approval_required,
    approvers,
    createdByUserId: row.approval_required ? row.created_by_user_id : null,
    approvedByUserId: row.approved_by_user_id,
    approvedAt: isoOrNull(row.approved_at),
    rejectedByUserId: row.rejected_by_user_id,
    rejectedAt: isoOrNull(row.rejected_at),
    rejectionReason: row.rejection_reason,
  };
}

/** Σ of what failed payouts credited back (the splits' returned amounts), at the source scale ("0.00" when none failed). */
export function returnedAmountOf(returnedAmounts: readonly string[], sourceDecimals: number): string {
  return formatAtScale(sum(returnedAmounts.map((amount) => new Money(amount))), sourceScaleOf(sourceDecimals));
}

function toAmountSplit(split: AmountSplitRow): Schemas['AmountSplitDetail'] {
  return { ...split, createdAt: split.createdAt.toISOString() };
}

function toFxExchange(fx: FxExchangeRow): Schemas['FxExchange'] {
  return {
    id: fx.id,
    payrollRequestId: fx.payroll_request_id,
    fromCurrencyCode: fx.from_currency_code,
    toCurrencyCode: fx.to_currency_code,
    fromAmount: fx.from_amount,
    toAmount: fx.to_amount,
    exchangeRate: fx.exchange_rate,
    payoutAmount: fx.payout_amount,
    fxResultAmount: fx.fx_result_amount,
    feeDetails: { id: fx.fee_id, amount: fx.fee_amount, finalInternalFee: fx.final_internal_fee },
    recordedByUserId: fx.recorded_by_user_id,
    recordedByUser: { id: fx.recorded_by_user_id, firstName: fx.recorded_by_first_name, lastName: fx.recorded_by_last_name, email: fx.recorded_by_email },
    recordedAt: fx.recorded_at.toISOString(),
    createdAt: fx.created_at.toISOString(),
  };
}

/** A timestamp that may not have happened yet (a quote, an acceptance): null until it has. */
function isoOrNull(value: Date | null): string | null {
  return value ? value.toISOString() : null;
}
