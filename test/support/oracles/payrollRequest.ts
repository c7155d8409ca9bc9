import type { components } from '../../../generated/api.js';
import { returnedAmountOf } from '../../../src/domain/payouts/returnedAmount.js';
import type { Queryable } from '../../../src/store/database/db.js';
import type { TransferStatus, TransferType } from '../../../src/domain/payroll/transfers.js';
import {
  type FxExchangeRecord,
  type PayrollRequestRecord,
  type TransferFee,
  findFxExchange,
  findPayrollRequestRow,
  payoutTransferIdOf,
} from '../../../src/store/payroll/payrollRequests.js';
import { findApprovers } from '../../../src/store/payroll/payrollApproval.js';
import { toTransfer } from './transfer.js';

type Schemas = components['schemas'];
type PayrollRequest = Schemas['PayrollRequest'];

/** A split as the API shows it, but for its timestamp (a Date here). */
export type AmountSplitRecord = Omit<Schemas['AmountSplitDetail'], 'createdAt'> & { createdAt: Date };

const SPLIT_COLUMNS = `id, beneficiary_id AS "beneficiaryId", beneficiary_snapshot AS "beneficiarySnapshot",
            amount_currency_type AS "amountCurrencyType", source_currency_amount::text AS "sourceCurrencyAmount", amount::text AS "amount",
            quoted_source_currency_amount::text AS "quotedSourceCurrencyAmount", quoted_amount::text AS "quotedAmount",
            returned_source_currency_amount::text AS "returnedSourceCurrencyAmount", purpose_code AS "purposeCode",
            ${payoutTransferIdOf('amount_splits')} AS "payoutTransferId", created_at AS "createdAt"`;

/** The request id is the parameter: it is set on each row here rather than read back (a column less per row). */
async function findAmountSplits(tx: Queryable, requestId: string): Promise<AmountSplitRecord[]> {
  const rows = await tx.query<AmountSplitRecord>(`SELECT ${SPLIT_COLUMNS} FROM amount_splits WHERE payroll_request_id = $1 ORDER BY position`, [requestId]);
  return withRequestId(rows, 'payrollRequestId', requestId);
}

export type TransferRecord = TransferFee & {
  id: string;
  payrollRequestId: string;
  transferType: TransferType;
  status: TransferStatus;
  externalId: string | null;
  amount: string;
  currencyCode: string;
  amountSplitId: string | null;
  executedAt: Date | null;
  completedAt: Date | null;
  failureReason: string | null;
  /** What the bank booked for a payout, and its return (Transfer's bankBooking and bankReturn). */
  bankBooking: components['schemas']['TransferBankBooking'] | null;
  bankReturn: components['schemas']['TransferBankReturn'] | null;
  createdAt: Date;
};

const TRANSFER_COLUMNS = `id, transfer_type AS "transferType", status, external_id AS "externalId", amount::text AS "amount",
            currency_code AS "currencyCode", fee_id AS "feeId", fee_amount::text AS "feeAmount", final_internal_fee::text AS "finalInternalFee",
            amount_split_id AS "amountSplitId", executed_at AS "executedAt", completed_at AS "completedAt", failure_reason AS "failureReason",
            bank_booking AS "bankBooking", bank_return AS "bankReturn", created_at AS "createdAt"`;

async function findTransfers(tx: Queryable, requestId: string): Promise<TransferRecord[]> {
  const rows = await tx.query<TransferRecord>(`SELECT ${TRANSFER_COLUMNS} FROM transfers WHERE payroll_request_id = $1 ORDER BY position`, [requestId]);
  return withRequestId(rows, 'payrollRequestId', requestId);
}

/** uuid columns read back in lowercase; the id as given may be in either case. */
function withRequestId<K extends string, T extends Record<K, string>>(rows: T[], key: K, requestId: string): T[] {
  const id = requestId.toLowerCase();
  for (const row of rows) (row as Record<K, string>)[key] = id;
  return rows;
}

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
