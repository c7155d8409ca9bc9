import type { components } from '../../../generated/api.js';
import { returnedAmountOf } from '../../../src/domain/returnedAmount.js';
import type { Queryable } from '../../../src/store/db.js';
import {
  type AmountSplitRecord,
  type FxExchangeRecord,
  type PayrollRequestRecord,
  type TransferRecord,
  findAmountSplits,
  findFxExchange,
  findPayrollRequestRow,
  findTransfers,
} from '../../../src/store/payrollRequests.js';
import { findApprovers } from '../../../src/store/payrollApproval.js';
import { toTransfer } from './transfer.js';

type Schemas = components['schemas'];
type PayrollRequest = Schemas['PayrollRequest'];

/**
 * The whole request of 2.2–2.8, or null, written in TypeScript: the reference that the JSON built
 * by PostgreSQL (store/payrollRequestJson.ts: every answer with a request and the payload of its
 * status events) is tested against.
 */
export async function loadPayrollRequest(tx: Queryable, requestId: string): Promise<PayrollRequest | null> {
  const request = await findPayrollRequestRow(tx, requestId);
  if (!request) return null;
  const [splits, transfers, fx] = [await findAmountSplits(tx, requestId), await findTransfers(tx, requestId), await findFxExchange(tx, requestId)];
  const approvers = request.approvalRequired ? await findApprovers(tx, request.customerId, request.createdByUserId) : [];
  return { ...toPayrollRequest(request, splits, transfers, fx), approval: approvalOf(request, approvers) };
}

function toPayrollRequest(
  request: PayrollRequestRecord,
  splits: AmountSplitRecord[],
  transfers: TransferRecord[],
  fx: FxExchangeRecord | null,
): Omit<PayrollRequest, 'approval'> {
  const splitById = new Map(splits.map((split) => [split.id, split]));
  return {
    id: request.id,
    ...accountCurrencies(request),
    totalAmount: request.totalAmount,
    status: request.status,
    estimatedFxRate: request.estimatedFxRate,
    estimatedReceivedAmount: request.estimatedReceivedAmount,
    sourceAmountForExchange: request.sourceAmountForExchange,
    quotedFxRate: request.quoteRate,
    quoteExpiresAt: isoOrNull(request.quoteExpiresAt),
    quotedByUserId: request.quotedByUserId,
    quotedByUser:
      request.quotedByUserId === null
        ? null
        : { id: request.quotedByUserId, firstName: request.quotedByFirstName, lastName: request.quotedByLastName, email: request.quotedByEmail },
    quotedAt: isoOrNull(request.quotedAt),
    quote: quoteOf(request),
    acceptedByCustomerAt: isoOrNull(request.acceptedByCustomerAt),
    cancellationReason: request.cancellationReason,
    failureReason: request.failureReason,
    returnedAmount: returnedAmountOf(
      splits.flatMap((split) => (split.returnedSourceCurrencyAmount === null ? [] : [split.returnedSourceCurrencyAmount])),
      request.sourceCurrencyDecimals,
    ),
    metadata: request.metadata,
    amountSplitDetails: splits.map(toAmountSplit),
    transfers: transfers.map((transfer) => toTransfer(transfer, transfer.amountSplitId ? splitById.get(transfer.amountSplitId) : undefined)),
    fxExchange: fx && toFxExchange(fx),
    customer: {
      id: request.customerId,
      firstName: request.customerFirstName,
      lastName: request.customerLastName,
      company: { legalName: request.companyLegalName },
    },
    createdAt: request.createdAt.toISOString(),
    updatedAt: request.updatedAt.toISOString(),
  };
}

function accountCurrencies(
  request: PayrollRequestRecord,
): Pick<PayrollRequest, 'sourceAccountCurrencyId' | 'sourceAccountCurrency' | 'payrollAccountCurrencyId' | 'payrollAccountCurrency'> {
  return {
    sourceAccountCurrencyId: request.sourceAccountCurrencyId,
    sourceAccountCurrency: {
      id: request.sourceAccountCurrencyId,
      accountId: request.sourceAccountId,
      currency: {
        id: request.sourceCurrencyId,
        currencyCode: request.sourceCurrencyCode,
        currencyName: request.sourceCurrencyName,
        currencySymbol: request.sourceCurrencySymbol,
        decimals: request.sourceCurrencyDecimals,
      },
      balance: request.sourceBalance,
      available: request.sourceAvailable,
      account: { id: request.sourceAccountId, accountProvider: request.sourceAccountProvider, customerId: request.sourceAccountCustomerId },
    },
    payrollAccountCurrencyId: request.payrollAccountCurrencyId,
    payrollAccountCurrency: {
      id: request.payrollAccountCurrencyId,
      currency: { currencyCode: request.payrollCurrencyCode, currencyName: request.payrollCurrencyName, decimals: request.payrollCurrencyDecimals },
      account: { accountProvider: request.payrollAccountProvider },
    },
  };
}

/**
 * The figures at the quote rate, as the quote stored them (each written at its currency's scale);
 * null before the quote. The fee amount is the locked one; the debited amount what creation took.
 */
function quoteOf(request: PayrollRequestRecord): Schemas['PayrollQuoteFigures'] | null {
  const { quoteRate, quoteSourceAmountForExchange, quoteTotalAmount, quoteReceivedAmount, quoteAdjustmentAmount } = request;
  if (quoteRate === null || quoteSourceAmountForExchange === null || quoteTotalAmount === null || quoteReceivedAmount === null) return null;
  if (quoteAdjustmentAmount === null) return null;
  return {
    exchangeRate: quoteRate,
    sourceAmountForExchange: quoteSourceAmountForExchange,
    feeAmount: request.metadata.feeBreakdown.totalFee,
    totalAmount: quoteTotalAmount,
    receivedAmount: quoteReceivedAmount,
    debitedAmount: request.debitedAmount,
    adjustmentAmount: quoteAdjustmentAmount,
  };
}

/** Four-eyes approval: who may approve (when required), and who approved or rejected and when. */
function approvalOf(request: PayrollRequestRecord, approvers: Schemas['UserSummary'][]): Schemas['PayrollApproval'] {
  return {
    required: request.approvalRequired,
    approvers,
    createdByUserId: request.approvalRequired ? request.createdByUserId : null,
    approvedByUserId: request.approvedByUserId,
    approvedAt: isoOrNull(request.approvedAt),
    rejectedByUserId: request.rejectedByUserId,
    rejectedAt: isoOrNull(request.rejectedAt),
    rejectionReason: request.rejectionReason,
  };
}

function toAmountSplit(split: AmountSplitRecord): Schemas['AmountSplitDetail'] {
  return { ...split, createdAt: split.createdAt.toISOString() };
}

function toFxExchange(fx: FxExchangeRecord): Schemas['FxExchange'] {
  return {
    id: fx.id,
    payrollRequestId: fx.payrollRequestId,
    fromCurrencyCode: fx.fromCurrencyCode,
    toCurrencyCode: fx.toCurrencyCode,
    fromAmount: fx.fromAmount,
    toAmount: fx.toAmount,
    exchangeRate: fx.exchangeRate,
    payoutAmount: fx.payoutAmount,
    fxResultAmount: fx.fxResultAmount,
    feeDetails: { id: fx.feeId, amount: fx.feeAmount, finalInternalFee: fx.finalInternalFee },
    recordedByUserId: fx.recordedByUserId,
    recordedByUser: { id: fx.recordedByUserId, firstName: fx.recordedByFirstName, lastName: fx.recordedByLastName, email: fx.recordedByEmail },
    recordedAt: fx.recordedAt.toISOString(),
    createdAt: fx.createdAt.toISOString(),
  };
}

/** A timestamp that may not have happened yet (a quote, an acceptance): null until it has. */
function isoOrNull(value: Date | null): string | null {
  return value ? value.toISOString() : null;
}
