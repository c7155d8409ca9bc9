import type { components } from '../../generated/api.js';
import { notFound } from '../domain/errors.js';
import type { Queryable } from '../store/db.js';
import {
  type AmountSplitRow,
  type FxExchangeRow,
  type PayrollRequestRow,
  type TransferRow,
  findAmountSplits,
  findFxExchange,
  findPayrollRequestRow,
  findTransfers,
} from '../store/payrollRequests.js';
import type { UseCaseDeps } from './deps.js';
import type { Principal } from './principal.js';

type Schemas = components['schemas'];
type PayrollRequest = Schemas['PayrollRequest'];

/**
 * Read one payroll request as it is now. A customer sees only their own; another customer's
 * request is reported exactly as a missing one. Admins see every request.
 */
export async function getPayrollRequest(deps: UseCaseDeps, caller: Principal, requestId: string): Promise<PayrollRequest> {
  return deps.db.transaction(async (tx) => {
    const request = await loadPayrollRequest(tx, requestId);
    if (!request || (caller.role !== 'admin' && request.customer.id !== caller.customerId)) {
      throw notFound(`Payroll request ${requestId} not found`);
    }
    return request;
  });
}

/** The whole request of 2.2–2.8, or null. Shared by every operation that answers with a request. */
export async function loadPayrollRequest(tx: Queryable, requestId: string): Promise<PayrollRequest | null> {
  const row = await findPayrollRequestRow(tx, requestId);
  if (!row) return null;
  const [splits, transfers, fx] = [await findAmountSplits(tx, requestId), await findTransfers(tx, requestId), await findFxExchange(tx, requestId)];
  return toPayrollRequest(row, splits, transfers, fx);
}

function toPayrollRequest(row: PayrollRequestRow, splits: AmountSplitRow[], transfers: TransferRow[], fx: FxExchangeRow | null): PayrollRequest {
  const splitById = new Map(splits.map((split) => [split.id, split]));
  return {
    id: row.id,
    sourceAccountCurrencyId: row.source_account_currency_id,
    sourceAccountCurrency: {
      id: row.source_account_currency_id,
      accountId: row.source_account_id,
      currency: {
        id: row.source_currency_id,
        currencyCode: row.source_currency_code,
        currencyName: row.source_currency_name,
        currencySymbol: row.source_currency_symbol,
      },
      balance: row.source_balance,
      available: row.source_available,
      account: { id: row.source_account_id, accountProvider: row.source_account_provider, customerId: row.source_account_customer_id },
    },
    payrollAccountCurrencyId: row.payroll_account_currency_id,
    payrollAccountCurrency: {
      id: row.payroll_account_currency_id,
      currency: { currencyCode: row.payroll_currency_code, currencyName: row.payroll_currency_name },
      account: { accountProvider: row.payroll_account_provider },
    },
    totalAmount: row.total_amount,
    status: row.status as PayrollRequest['status'],
    estimatedFxRate: row.estimated_fx_rate,
    estimatedReceivedAmount: row.estimated_received_amount,
    sourceAmountForExchange: row.source_amount_for_exchange,
    quotedFxRate: row.quote_rate,
    quoteExpiresAt: iso(row.quote_expires_at),
    quotedByUserId: row.quoted_by_user_id,
    quotedByUser: row.quoted_by_user_id
      ? { id: row.quoted_by_user_id, firstName: row.quoted_by_first_name!, lastName: row.quoted_by_last_name!, email: row.quoted_by_email! }
      : null,
    quotedAt: iso(row.quoted_at),
    acceptedByCustomerAt: iso(row.accepted_by_customer_at),
    cancellationReason: row.cancellation_reason,
    failureReason: row.failure_reason,
    metadata: row.metadata as PayrollRequest['metadata'],
    amountSplitDetails: splits.map(toAmountSplit),
    transfers: transfers.map((transfer) => toTransfer(transfer, transfer.amount_split_id ? splitById.get(transfer.amount_split_id) : undefined)),
    fxExchange: fx && toFxExchange(fx),
    customer: { id: row.customer_id, firstName: row.customer_first_name, lastName: row.customer_last_name, company: { legalName: row.company_legal_name } },
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
  };
}

/** One transfer as the request's `transfers` shows it (the payload of transfer events). */
export async function loadTransfer(tx: Queryable, transferId: string): Promise<{ transfer: Schemas['Transfer']; requestId: string } | null> {
  const [transfer] = await tx.query<TransferRow>(
    `SELECT id, payroll_request_id, transfer_type, status, external_id, amount::text, currency_code, fee_id, fee_amount::text,
            final_internal_fee::text, amount_split_id, executed_at, completed_at, failure_reason, created_at
       FROM transfers WHERE id = $1`,
    [transferId],
  );
  if (!transfer) return null;
  const [split] = transfer.amount_split_id
    ? await tx.query<AmountSplitRow>(
        `SELECT id, payroll_request_id, beneficiary_id, beneficiary_snapshot, source_currency_amount::text, amount::text, purpose_code,
                payout_transfer_id, created_at FROM amount_splits WHERE id = $1`,
        [transfer.amount_split_id],
      )
    : [];
  return { transfer: toTransfer(transfer, split), requestId: transfer.payroll_request_id };
}

function toAmountSplit(split: AmountSplitRow): Schemas['AmountSplitDetail'] {
  return {
    id: split.id,
    payrollRequestId: split.payroll_request_id,
    beneficiaryId: split.beneficiary_id,
    beneficiarySnapshot: split.beneficiary_snapshot as Schemas['BeneficiarySnapshot'],
    sourceCurrencyAmount: split.source_currency_amount,
    amount: split.amount,
    purposeCode: split.purpose_code as Schemas['PurposeCode'],
    payoutTransferId: split.payout_transfer_id,
    createdAt: split.created_at.toISOString(),
  };
}

function toTransfer(transfer: TransferRow, split: AmountSplitRow | undefined): Schemas['Transfer'] {
  const snapshot = split?.beneficiary_snapshot;
  return {
    id: transfer.id,
    payrollRequestId: transfer.payroll_request_id,
    transferType: transfer.transfer_type as Schemas['TransferType'],
    status: transfer.status as Schemas['TransferStatus'],
    ...(transfer.external_id !== null && { externalId: transfer.external_id }),
    amount: transfer.amount,
    currencyCode: transfer.currency_code,
    ...(transfer.fee_id !== null && {
      feeDetails: { id: transfer.fee_id, amount: transfer.fee_amount!, finalInternalFee: transfer.final_internal_fee! },
    }),
    // Rule 4: a payout links back to its split; the instruction id is the split id.
    ...(split &&
      snapshot && {
        payoutInstruction: {
          id: split.id,
          beneficiaryId: split.beneficiary_id,
          beneficiarySnapshot: {
            id: snapshot.id!,
            firstName: snapshot.firstName!,
            lastName: snapshot.lastName!,
            displayName: snapshot.displayName!,
          },
          sourceCurrencyAmount: split.source_currency_amount,
          amount: transfer.amount,
        },
      }),
    ...(transfer.executed_at && { executedAt: transfer.executed_at.toISOString() }),
    ...(transfer.completed_at && { completedAt: transfer.completed_at.toISOString() }),
    ...(transfer.failure_reason !== null && { failureReason: transfer.failure_reason }),
    createdAt: transfer.created_at.toISOString(),
  };
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
    feeDetails: { id: fx.fee_id, amount: fx.fee_amount, finalInternalFee: fx.final_internal_fee },
    recordedByUserId: fx.recorded_by_user_id,
    recordedByUser: { id: fx.recorded_by_user_id, firstName: fx.recorded_by_first_name, lastName: fx.recorded_by_last_name, email: fx.recorded_by_email },
    recordedAt: fx.recorded_at.toISOString(),
    createdAt: fx.created_at.toISOString(),
  };
}

function iso(value: Date | null): string | null {
  return value ? value.toISOString() : null;
}
