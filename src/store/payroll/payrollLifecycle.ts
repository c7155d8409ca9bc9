import type { components } from '../../../generated/api.js';
import type { PayrollRequestStatus } from '../../domain/payroll/payrollStatus.js';
import type { TransferStatus, TransferType } from '../../domain/payroll/transfers.js';
import type { Queryable } from '../database/db.js';
import { insertRow } from '../database/insertRow.js';
import { rowChunks } from '../database/rowChunks.js';
import { payoutTransferIdOf } from './payrollRequests.js';

/** Inserts of the payroll lifecycle and the reads its steps need. Amounts are exact decimal strings. */

export interface NewPayrollRequest {
  id: string;
  customerId: string;
  sourceAccountCurrencyId: string;
  payrollAccountCurrencyId: string;
  /** What creation debits: the estimate's total (total_amount until accept). */
  totalAmount: string;
  estimatedFxRate: string;
  estimatedReceivedAmount: string;
  sourceAmountForExchange: string;
  feeBreakdown: components['schemas']['FeeBreakdown'];
  feeHash: string;
  /** The customer user creating it. */
  createdByUserId: string;
  /** Four-eyes approval: created AWAITING_APPROVAL, nothing debited; otherwise PENDING. */
  approvalRequired: boolean;
  at: Date;
}

export async function insertPayrollRequest(tx: Queryable, request: NewPayrollRequest): Promise<void> {
  await tx.query(
    `INSERT INTO payroll_requests (id, customer_id, source_account_currency_id, payroll_account_currency_id, total_amount, debited_amount,
       status, estimated_fx_rate, estimated_received_amount, source_amount_for_exchange, metadata, fee_hash, created_at, updated_at,
       created_by_user_id, approval_required)
     VALUES ($1, $2, $3, $4, $5, $5, CASE WHEN $13::boolean THEN 'AWAITING_APPROVAL' ELSE 'PENDING' END, $6, $7, $8, $9::jsonb, $10, $11, $11, $12, $13)`,
    [
      request.id,
      request.customerId,
      request.sourceAccountCurrencyId,
      request.payrollAccountCurrencyId,
      request.totalAmount,
      request.estimatedFxRate,
      request.estimatedReceivedAmount,
      request.sourceAmountForExchange,
      JSON.stringify({ feeBreakdown: request.feeBreakdown }),
      request.feeHash,
      request.at,
      request.createdByUserId,
      request.approvalRequired,
    ],
  );
}

export interface NewTransfer {
  id: string;
  transferType: TransferType;
  amount: string;
  currencyCode: string;
  fee?: { id: string; amount: string; finalInternalFee: string } | undefined;
}

/** Inserts a request's legs in PENDING, after the transfers it already has. */
export async function insertTransfers(tx: Queryable, requestId: string, transfers: NewTransfer[], at: Date): Promise<void> {
  await tx.query(
    `INSERT INTO transfers (id, payroll_request_id, transfer_type, status, amount, currency_code, fee_id, fee_amount, final_internal_fee, created_at, position)
     SELECT e.id, $1, e.transfer_type, 'PENDING', e.amount, e.currency_code, e.fee_id, e.fee_amount, e.final_internal_fee,
            $2, e.position + (SELECT COALESCE(max(position) + 1, 0) FROM transfers WHERE payroll_request_id = $1)
       FROM jsonb_to_recordset($3::jsonb) AS e(id uuid, transfer_type text, amount numeric, currency_code text, fee_id uuid,
            fee_amount numeric, final_internal_fee numeric, position integer)`,
    [
      requestId,
      at,
      JSON.stringify(
        transfers.map((transfer, position) => ({
          id: transfer.id,
          transfer_type: transfer.transferType,
          amount: transfer.amount,
          currency_code: transfer.currencyCode,
          fee_id: transfer.fee?.id ?? null,
          fee_amount: transfer.fee?.amount ?? null,
          final_internal_fee: transfer.fee?.finalInternalFee ?? null,
          position,
        })),
      ),
    ],
  );
}

/**
 * One BANK_TO_BENEFICIARY transfer in PENDING per split of the request that has none yet, for the
 * split's quoted amount, in the splits' order after the request's legs, into the batch; each payout
 * names its split (rule 4: the split's payoutTransferId and the payout's instruction are read
 * through that link). No split is written. One statement whatever the number of splits: the
 * amounts never leave the database. Returns how many payouts it made.
 * Whether a split has a payout is one probe of the payouts' index per split (a scalar subquery):
 * as an anti join, its plan followed statistics that may not count the request's new splits yet,
 * and the FX record was many times slower on the benchmark's fresh database.
 */
export async function insertPayoutsOfSplits(tx: Queryable, request: { id: string; currencyCode: string; batchId: string }, at: Date): Promise<number> {
  const [row] = await tx.query<{ made: number }>(
    `WITH made AS (
       INSERT INTO transfers (id, payroll_request_id, transfer_type, status, amount, currency_code, amount_split_id, created_at, position, batch_id)
       SELECT gen_random_uuid(), s.payroll_request_id, 'BANK_TO_BENEFICIARY', 'PENDING', s.quoted_amount, $2, s.id, $3,
              (SELECT COALESCE(max(position) + 1, 0) FROM transfers WHERE payroll_request_id = $1) + row_number() OVER (ORDER BY s.position) - 1, $4
         FROM amount_splits s
        WHERE s.payroll_request_id = $1 AND s.payout_transfer_id IS NULL AND ${payoutTransferIdOf('s')} IS NULL
        ORDER BY s.position
       RETURNING 1
     )
     SELECT count(*)::int AS made FROM made`,
    [request.id, request.currencyCode, at, request.batchId],
  );
  return row!.made;
}

export async function transferStatuses(tx: Queryable, requestId: string): Promise<Array<{ transferType: TransferType; status: TransferStatus }>> {
  return tx.query('SELECT transfer_type AS "transferType", status FROM transfers WHERE payroll_request_id = $1 ORDER BY position', [requestId]);
}

/** A split's figures as the estimate locked them and as the quote made them final (null before the quote). */
export interface SplitFigures {
  id: string;
  amountCurrencyType: components['schemas']['AmountCurrencyType'];
  sourceCurrencyAmount: string;
  amount: string;
  quotedSourceCurrencyAmount: string | null;
  quotedAmount: string | null;
}

/** The request's splits in their order; aliased in SQL, as a request may have 100,000 of them. */
export async function splitsOf(tx: Queryable, requestId: string): Promise<SplitFigures[]> {
  return tx.query(
    `SELECT id, amount_currency_type AS "amountCurrencyType", source_currency_amount::text AS "sourceCurrencyAmount", amount::text AS "amount",
            quoted_source_currency_amount::text AS "quotedSourceCurrencyAmount", quoted_amount::text AS "quotedAmount"
       FROM amount_splits WHERE payroll_request_id = $1 ORDER BY position`,
    [requestId],
  );
}

/**
 * What each split of a request the quote has made final (its status says so) pays: its quoted
 * amount, exact, in the splits' order. One text of them all, split here: the figures are all the FX
 * record needs of a split, and a row object per split would be read and parsed only to sum them. A
 * split without its quoted figures is a broken invariant, not a caller's mistake.
 */
export async function quotedPayoutAmountsOf(tx: Queryable, requestId: string): Promise<string[]> {
  const [row] = await tx.query<{ amounts: string | null; unquoted: string | null }>(
    `SELECT string_agg(quoted_amount::text, ',' ORDER BY position) AS amounts,
            min(id::text) FILTER (WHERE quoted_amount IS NULL OR quoted_source_currency_amount IS NULL) AS unquoted
       FROM amount_splits WHERE payroll_request_id = $1`,
    [requestId],
  );
  if (row?.unquoted) {
    throw new Error(`Split ${row.unquoted} has no quoted figures: requests quoted before migration 005 must be drained before it`);
  }
  return row?.amounts ? row.amounts.split(',') : [];
}

/** Each split's figures at the quote rate (a re-quote overwrites them), in one statement. */
export async function setSplitQuotes(
  tx: Queryable,
  splits: ReadonlyArray<{ id: string; quotedSourceCurrencyAmount: string; quotedAmount: string }>,
): Promise<void> {
  for (const chunk of rowChunks(splits)) {
    await tx.query(
      `UPDATE amount_splits s SET quoted_source_currency_amount = q.quoted_source_currency_amount, quoted_amount = q.quoted_amount
         FROM jsonb_to_recordset($1::jsonb) AS q(id uuid, quoted_source_currency_amount numeric, quoted_amount numeric)
        WHERE s.id = q.id`,
      [
        JSON.stringify(
          chunk.rows.map((split) => ({ id: split.id, quoted_source_currency_amount: split.quotedSourceCurrencyAmount, quoted_amount: split.quotedAmount })),
        ),
      ],
    );
  }
}

export interface NewFxExchange {
  id: string;
  requestId: string;
  fromCurrencyCode: string;
  toCurrencyCode: string;
  fromAmount: string;
  toAmount: string;
  exchangeRate: string;
  payoutAmount: string;
  fxResultAmount: string;
  fee: { id: string; amount: string; finalInternalFee: string };
  recordedByUserId: string;
  at: Date;
}

export async function insertFxExchange(tx: Queryable, fx: NewFxExchange): Promise<void> {
  await insertRow(tx, 'fx_exchanges', {
    ...{ id: fx.id, payroll_request_id: fx.requestId, from_currency_code: fx.fromCurrencyCode, to_currency_code: fx.toCurrencyCode },
    ...{ from_amount: fx.fromAmount, to_amount: fx.toAmount, exchange_rate: fx.exchangeRate },
    ...{ payout_amount: fx.payoutAmount, fx_result_amount: fx.fxResultAmount },
    ...{ fee_id: fx.fee.id, fee_amount: fx.fee.amount, final_internal_fee: fx.fee.finalInternalFee },
    ...{ recorded_by_user_id: fx.recordedByUserId, recorded_at: fx.at, created_at: fx.at },
  });
}

export interface PayrollRequestSummaryRecord {
  id: string;
  status: PayrollRequestStatus;
  customerId: string;
  customerName: string;
  quoteExpiresAt: Date | null;
  payDate: string | null;
  sourceAccountCurrencyId: string;
  sourceCurrencyCode: string;
  payrollAccountCurrencyId: string;
  payrollCurrencyCode: string;
  totalAmount: string;
  estimatedFxRate: string;
  estimatedReceivedAmount: string;
  beneficiaryCount: number;
  createdAt: Date;
  updatedAt: Date;
}

/** A page of requests, newest first, after the keyset (createdAt, id) of the previous page. */
export async function listPayrollRequests(
  tx: Queryable,
  filter: { customerId: string | null; status: PayrollRequestStatus | null; after: { createdAt: Date; id: string } | null; limit: number },
): Promise<PayrollRequestSummaryRecord[]> {
  return tx.query<PayrollRequestSummaryRecord>(
    `SELECT r.id, r.status, r.customer_id AS "customerId", c.company_legal_name AS "customerName", r.quote_expires_at AS "quoteExpiresAt",
            to_char(r.pay_date, 'YYYY-MM-DD') AS "payDate", r.source_account_currency_id AS "sourceAccountCurrencyId",
            sac.currency_code AS "sourceCurrencyCode", r.payroll_account_currency_id AS "payrollAccountCurrencyId",
            pac.currency_code AS "payrollCurrencyCode", r.total_amount::text AS "totalAmount",
            r.estimated_fx_rate::text AS "estimatedFxRate", r.estimated_received_amount::text AS "estimatedReceivedAmount",
            COALESCE(r.split_count, (SELECT count(*)::int FROM amount_splits s WHERE s.payroll_request_id = r.id)) AS "beneficiaryCount",
            r.created_at AS "createdAt", r.updated_at AS "updatedAt"
       FROM payroll_requests r
       JOIN customers c ON c.id = r.customer_id
       JOIN account_currencies sac ON sac.id = r.source_account_currency_id
       JOIN account_currencies pac ON pac.id = r.payroll_account_currency_id
      WHERE ($1::uuid IS NULL OR r.customer_id = $1)
        AND ($2::text IS NULL OR r.status = $2)
        AND ($3::timestamptz IS NULL OR (r.created_at, r.id) < ($3, $4::uuid))
      ORDER BY r.created_at DESC, r.id DESC
      LIMIT $5`,
    [filter.customerId, filter.status, filter.after?.createdAt ?? null, filter.after?.id ?? null, filter.limit],
  );
}

/** The transfers of a request with their ids (the two legs, and the payouts once created). */
export function transfersOf(tx: Queryable, requestId: string): Promise<Array<{ id: string; transferType: TransferType; status: TransferStatus }>> {
  return tx.query('SELECT id, transfer_type AS "transferType", status FROM transfers WHERE payroll_request_id = $1 ORDER BY position', [requestId]);
}
