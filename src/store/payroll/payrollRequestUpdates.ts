import type { components } from '../../../generated/api.js';
import { notFound } from '../../domain/errors.js';
import type { PayrollRequestStatus } from '../../domain/payroll/payrollStatus.js';
import type { Queryable } from '../database/db.js';

/**
 * Changes of a payroll request after its creation: a row lock, a conditional status change and
 * one typed setter per group of fields the lifecycle fills in. Callers name what they change;
 * no column name leaves this file.
 */

/** A payroll request as the lifecycle reads it under its row lock: what its moves need, in camelCase. */
export interface LockedPayrollRequest {
  id: string;
  customerId: string;
  status: PayrollRequestStatus;
  sourceAccountCurrencyId: string;
  payrollAccountCurrencyId: string;
  totalAmount: string;
  sourceAmountForExchange: string;
  /** What creation debited (totalAmount until accept). */
  debitedAmount: string;
  quoteRate: string | null;
  quoteExpiresAt: Date | null;
  /** The quote's figures; null before the quote (and for requests quoted before quotes kept their figures). */
  quoteSourceAmountForExchange: string | null;
  quoteTotalAmount: string | null;
  quoteAdjustmentAmount: string | null;
  metadata: components['schemas']['PayrollRequestMetadata'];
  /** Four-eyes approval: who created the request (null for requests made before four-eyes approval) and whether it needs an approval. */
  createdByUserId: string | null;
  approvalRequired: boolean;
  payrollCurrencyCode: string;
  payrollDecimals: number;
  sourceCurrencyCode: string;
  sourceDecimals: number;
}

/** A request an admin has quoted: from QUOTE_PROVIDED on, the quote's rate is set. */
export type QuotedPayrollRequest = LockedPayrollRequest & { quoteRate: string };

/**
 * The request as quoted, for a move that only a quoted request can make (its status says so).
 * A missing quote there is a broken invariant, not a caller's mistake.
 */
export function quotedRequest(request: LockedPayrollRequest): QuotedPayrollRequest {
  if (request.quoteRate === null) {
    throw new Error(`Payroll request ${request.id} is ${request.status} without a quote`);
  }
  return request as QuotedPayrollRequest;
}

/** Row-locks a request for a state change; the lock serialises every move of one request. null when there is none. */
export async function lockPayrollRequest(tx: Queryable, requestId: string): Promise<LockedPayrollRequest | null> {
  const rows = await tx.query<LockedPayrollRequest>(
    `SELECT r.id, r.customer_id AS "customerId", r.status, r.source_account_currency_id AS "sourceAccountCurrencyId",
            r.payroll_account_currency_id AS "payrollAccountCurrencyId", r.total_amount::text AS "totalAmount",
            r.source_amount_for_exchange::text AS "sourceAmountForExchange", COALESCE(r.debited_amount, r.total_amount)::text AS "debitedAmount",
            r.quote_rate::text AS "quoteRate", r.quote_expires_at AS "quoteExpiresAt",
            r.quote_source_amount_for_exchange::text AS "quoteSourceAmountForExchange", r.quote_total_amount::text AS "quoteTotalAmount",
            r.quote_adjustment_amount::text AS "quoteAdjustmentAmount", r.metadata, r.created_by_user_id AS "createdByUserId",
            r.approval_required AS "approvalRequired", pac.currency_code AS "payrollCurrencyCode", pc.decimals AS "payrollDecimals",
            sac.currency_code AS "sourceCurrencyCode", sc.decimals AS "sourceDecimals"
       FROM payroll_requests r
       JOIN account_currencies pac ON pac.id = r.payroll_account_currency_id
       JOIN currencies pc ON pc.code = pac.currency_code
       JOIN account_currencies sac ON sac.id = r.source_account_currency_id
       JOIN currencies sc ON sc.code = sac.currency_code
      WHERE r.id = $1
      FOR NO KEY UPDATE OF r`,
    [requestId],
  );
  return rows[0] ?? null;
}

/** The same, for a request that must exist (a worker holding its id): a missing one is NOT_FOUND. */
export async function getLockedPayrollRequest(tx: Queryable, requestId: string): Promise<LockedPayrollRequest> {
  const request = await lockPayrollRequest(tx, requestId);
  if (!request) throw notFound(`Payroll request ${requestId} not found`);
  return request;
}

/** from → to, only if the request is still in `from`; false when it was not (nothing changed). */
export async function changeStatus(tx: Queryable, requestId: string, from: PayrollRequestStatus, to: PayrollRequestStatus, at: Date): Promise<boolean> {
  const rows = await tx.query('UPDATE payroll_requests SET status = $3, updated_at = $4 WHERE id = $1 AND status = $2 RETURNING id', [requestId, from, to, at]);
  return rows.length === 1;
}

/** The request's figures at the quote rate, as exact strings at their currency's scale. */
export type QuoteColumns = Pick<
  components['schemas']['PayrollQuoteFigures'],
  'sourceAmountForExchange' | 'totalAmount' | 'receivedAmount' | 'adjustmentAmount'
>;

/** The admin's quote: the rate (exact string), how long it holds, who gave it and when, and its figures. */
export async function setQuote(
  tx: Queryable,
  requestId: string,
  quote: { rate: string; expiresAt: Date; quotedByUserId: string; quotedAt: Date; figures: QuoteColumns },
): Promise<void> {
  const { figures } = quote;
  await tx.query(
    `UPDATE payroll_requests SET quote_rate = $2, quote_expires_at = $3, quoted_by_user_id = $4, quoted_at = $5,
            quote_source_amount_for_exchange = $6, quote_total_amount = $7, quote_received_amount = $8, quote_adjustment_amount = $9
      WHERE id = $1`,
    [
      requestId,
      quote.rate,
      quote.expiresAt,
      quote.quotedByUserId,
      quote.quotedAt,
      figures.sourceAmountForExchange,
      figures.totalAmount,
      figures.receivedAmount,
      figures.adjustmentAmount,
    ],
  );
}

/** Accepted: the quote's figures become final (a request quoted before quotes kept their figures keeps its own). */
export async function setAcceptance(tx: Queryable, requestId: string, acceptedAt: Date): Promise<void> {
  await tx.query(
    `UPDATE payroll_requests SET accepted_by_customer_at = $2, total_amount = COALESCE(quote_total_amount, total_amount),
            source_amount_for_exchange = COALESCE(quote_source_amount_for_exchange, source_amount_for_exchange)
      WHERE id = $1`,
    [requestId, acceptedAt],
  );
}

export async function setCancellationReason(tx: Queryable, requestId: string, reason: string): Promise<void> {
  await tx.query('UPDATE payroll_requests SET cancellation_reason = $2 WHERE id = $1', [requestId, reason]);
}

export async function setFailureReason(tx: Queryable, requestId: string, reason: string): Promise<void> {
  await tx.query('UPDATE payroll_requests SET failure_reason = $2 WHERE id = $1', [requestId, reason]);
}

/** Something under the request moved (a transfer settled) without a status change of its own. */
export async function touchPayrollRequest(tx: Queryable, requestId: string, at: Date): Promise<void> {
  await tx.query('UPDATE payroll_requests SET updated_at = $2 WHERE id = $1', [requestId, at]);
}

/** Requests the customer accepted, not yet started: claimed so that one worker starts each. */
export async function claimAcceptedRequests(tx: Queryable, now: Date, limit: number): Promise<string[]> {
  // A request with a pay date waits until its execution may start (execute_from); one without starts at once.
  const rows = await tx.query<{ id: string }>(
    `SELECT id FROM payroll_requests WHERE status = 'QUOTE_ACCEPTED' AND (execute_from IS NULL OR execute_from <= $2)
      ORDER BY updated_at LIMIT $1 FOR NO KEY UPDATE SKIP LOCKED`,
    [limit, now],
  );
  return rows.map((row) => row.id);
}

/** The day the bank is to pay a request's payouts (YYYY-MM-DD), or null for as soon as possible. */
export async function payDateOf(q: Queryable, requestId: string): Promise<string | null> {
  const [row] = await q.query<{ payDate: string | null }>(`SELECT to_char(pay_date, 'YYYY-MM-DD') AS "payDate" FROM payroll_requests WHERE id = $1`, [
    requestId,
  ]);
  return row?.payDate ?? null;
}
