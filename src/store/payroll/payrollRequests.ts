import type { components } from '../../../generated/api.js';
import type { PayrollRequestStatus } from '../../domain/payroll/payrollStatus.js';
import type { Queryable } from '../database/db.js';

type Schemas = components['schemas'];

/**
 * A split's payoutTransferId: its own column where a release before the link moved to the payout
 * set it (the same payout), else the payout that names the split (one payout per split).
 */
export const payoutTransferIdOf = (split: string): string =>
  `COALESCE(${split}.payout_transfer_id, (SELECT p.id FROM transfers p WHERE p.amount_split_id = ${split}.id))`;

/** Who quoted the request: all four set once an admin has quoted it, all null before. */
type QuotedBy =
  | { quotedByUserId: string; quotedByFirstName: string; quotedByLastName: string; quotedByEmail: string }
  | { quotedByUserId: null; quotedByFirstName: null; quotedByLastName: null; quotedByEmail: null };

/**
 * The read model of one payroll request: four queries whatever the number of splits,
 * numerics cast to text so they keep their exact stored scale.
 */
export type PayrollRequestRecord = QuotedBy & {
  id: string;
  customerId: string;
  status: PayrollRequestStatus;
  totalAmount: string;
  estimatedFxRate: string;
  estimatedReceivedAmount: string;
  sourceAmountForExchange: string;
  /** What creation debited; totalAmount becomes the quote's total at accept. */
  debitedAmount: string;
  quoteRate: string | null;
  /** The figures at the quote rate (null before the quote, and for requests quoted before quotes kept their figures). */
  quoteSourceAmountForExchange: string | null;
  quoteTotalAmount: string | null;
  quoteReceivedAmount: string | null;
  quoteAdjustmentAmount: string | null;
  quoteExpiresAt: Date | null;
  quotedAt: Date | null;
  acceptedByCustomerAt: Date | null;
  cancellationReason: string | null;
  failureReason: string | null;
  metadata: Schemas['PayrollRequestMetadata'];
  createdAt: Date;
  updatedAt: Date;
  customerFirstName: string;
  customerLastName: string;
  companyLegalName: string;
  sourceAccountCurrencyId: string;
  sourceAccountId: string;
  sourceBalance: string;
  sourceAvailable: string;
  sourceAccountProvider: string;
  sourceAccountCustomerId: string;
  sourceCurrencyId: string;
  sourceCurrencyCode: string;
  sourceCurrencyName: string;
  sourceCurrencySymbol: string;
  sourceCurrencyDecimals: number;
  payrollAccountCurrencyId: string;
  payrollCurrencyCode: string;
  payrollCurrencyName: string;
  payrollCurrencyDecimals: number;
  payrollAccountProvider: string;
  approvalRequired: boolean;
  createdByUserId: string | null;
  approvedByUserId: string | null;
  approvedAt: Date | null;
  rejectedByUserId: string | null;
  rejectedAt: Date | null;
  rejectionReason: string | null;
} & StoredPaySchedule;

/** A request's pay date and deadlines: all set (a request with a pay date) or all null. */
export type StoredPaySchedule =
  | { payDate: string; payTimeZone: string; approveBy: Date; quoteBy: Date; acceptBy: Date; fundBy: Date; instructBy: Date }
  | { payDate: null; payTimeZone: null; approveBy: null; quoteBy: null; acceptBy: null; fundBy: null; instructBy: null };

/**
 * The request row with its customer, both account currencies and the quoting admin. Each account
 * currency is read in a LATERAL subquery behind OFFSET 0, which keeps the planner from flattening
 * all nine tables into one join-order search: that search costs more than the query itself.
 */
export async function findPayrollRequestRow(tx: Queryable, requestId: string, customerId: string | null = null): Promise<PayrollRequestRecord | null> {
  const rows = await tx.query<PayrollRequestRecord>(
    `SELECT r.id, r.customer_id AS "customerId", r.status, r.total_amount::text AS "totalAmount", r.estimated_fx_rate::text AS "estimatedFxRate",
            r.estimated_received_amount::text AS "estimatedReceivedAmount", r.source_amount_for_exchange::text AS "sourceAmountForExchange",
            COALESCE(r.debited_amount, r.total_amount)::text AS "debitedAmount",
            r.quote_rate::text AS "quoteRate", r.quote_source_amount_for_exchange::text AS "quoteSourceAmountForExchange",
            r.quote_total_amount::text AS "quoteTotalAmount", r.quote_received_amount::text AS "quoteReceivedAmount",
            r.quote_adjustment_amount::text AS "quoteAdjustmentAmount", r.quote_expires_at AS "quoteExpiresAt", r.quoted_at AS "quotedAt",
            r.accepted_by_customer_at AS "acceptedByCustomerAt", r.cancellation_reason AS "cancellationReason",
            r.failure_reason AS "failureReason", r.metadata, r.created_at AS "createdAt", r.updated_at AS "updatedAt",
            cu.first_name AS "customerFirstName", cu.last_name AS "customerLastName", cu.company_legal_name AS "companyLegalName",
            s."sourceAccountCurrencyId", s."sourceAccountId", s."sourceBalance", s."sourceAvailable",
            s."sourceAccountProvider", s."sourceAccountCustomerId",
            s."sourceCurrencyId", s."sourceCurrencyCode", s."sourceCurrencyName", s."sourceCurrencySymbol", s."sourceCurrencyDecimals",
            p."payrollAccountCurrencyId", p."payrollCurrencyCode", p."payrollCurrencyName", p."payrollCurrencyDecimals",
            p."payrollAccountProvider",
            q.id AS "quotedByUserId", q.first_name AS "quotedByFirstName", q.last_name AS "quotedByLastName",
            q.email AS "quotedByEmail", r.approval_required AS "approvalRequired", r.created_by_user_id AS "createdByUserId",
            r.approved_by_user_id AS "approvedByUserId", r.approved_at AS "approvedAt",
            r.rejected_by_user_id AS "rejectedByUserId", r.rejected_at AS "rejectedAt", r.rejection_reason AS "rejectionReason",
            to_char(r.pay_date, 'YYYY-MM-DD') AS "payDate", r.pay_time_zone AS "payTimeZone", r.approve_by AS "approveBy",
            r.quote_by AS "quoteBy", r.accept_by AS "acceptBy", r.fund_by AS "fundBy", r.instruct_by AS "instructBy"
       FROM payroll_requests r
       JOIN customers cu ON cu.id = r.customer_id
       CROSS JOIN LATERAL (
         SELECT ac.id AS "sourceAccountCurrencyId", ac.account_id AS "sourceAccountId",
                ac.balance::text AS "sourceBalance", ac.available::text AS "sourceAvailable",
                a.account_provider AS "sourceAccountProvider", a.customer_id AS "sourceAccountCustomerId",
                c.id AS "sourceCurrencyId", c.code AS "sourceCurrencyCode", c.name AS "sourceCurrencyName",
                c.symbol AS "sourceCurrencySymbol", c.decimals AS "sourceCurrencyDecimals"
           FROM account_currencies ac
           JOIN accounts a ON a.id = ac.account_id
           JOIN currencies c ON c.code = ac.currency_code
          WHERE ac.id = r.source_account_currency_id
         OFFSET 0) s
       CROSS JOIN LATERAL (
         SELECT ac.id AS "payrollAccountCurrencyId", c.code AS "payrollCurrencyCode", c.name AS "payrollCurrencyName",
                c.decimals AS "payrollCurrencyDecimals", a.account_provider AS "payrollAccountProvider"
           FROM account_currencies ac
           JOIN accounts a ON a.id = ac.account_id
           JOIN currencies c ON c.code = ac.currency_code
          WHERE ac.id = r.payroll_account_currency_id
         OFFSET 0) p
       LEFT JOIN users q ON q.id = r.quoted_by_user_id
      WHERE r.id = $1 AND ($2::uuid IS NULL OR r.customer_id = $2::uuid)`,
    [requestId, customerId],
  );
  return rows[0] ?? null;
}

/** A transfer's fee: the three are set together (the source legs), or all null (a payout). */
export type TransferFee = { feeId: string; feeAmount: string; finalInternalFee: string } | { feeId: null; feeAmount: null; finalInternalFee: null };

export interface FxExchangeRecord {
  id: string;
  payrollRequestId: string;
  fromCurrencyCode: string;
  toCurrencyCode: string;
  fromAmount: string;
  toAmount: string;
  exchangeRate: string;
  payoutAmount: string;
  fxResultAmount: string;
  feeId: string;
  feeAmount: string;
  finalInternalFee: string;
  recordedAt: Date;
  createdAt: Date;
  recordedByUserId: string;
  recordedByFirstName: string;
  recordedByLastName: string;
  recordedByEmail: string;
}

export async function findFxExchange(tx: Queryable, requestId: string): Promise<FxExchangeRecord | null> {
  const rows = await tx.query<FxExchangeRecord>(
    `SELECT f.id, f.payroll_request_id AS "payrollRequestId", f.from_currency_code AS "fromCurrencyCode", f.to_currency_code AS "toCurrencyCode",
            f.from_amount::text AS "fromAmount", f.to_amount::text AS "toAmount", f.exchange_rate::text AS "exchangeRate",
            f.payout_amount::text AS "payoutAmount", f.fx_result_amount::text AS "fxResultAmount", f.fee_id AS "feeId",
            f.fee_amount::text AS "feeAmount", f.final_internal_fee::text AS "finalInternalFee", f.recorded_at AS "recordedAt",
            f.created_at AS "createdAt", u.id AS "recordedByUserId", u.first_name AS "recordedByFirstName",
            u.last_name AS "recordedByLastName", u.email AS "recordedByEmail"
       FROM fx_exchanges f JOIN users u ON u.id = f.recorded_by_user_id
      WHERE f.payroll_request_id = $1`,
    [requestId],
  );
  return rows[0] ?? null;
}

/** The request's splits' returned source amounts (exact strings), those that have one: returnedAmount is their sum, a money rule. */
export async function findReturnedAmounts(tx: Queryable, requestId: string): Promise<string[]> {
  const rows = await tx.query<{ amount: string }>(
    'SELECT returned_source_currency_amount::text AS amount FROM amount_splits WHERE payroll_request_id = $1 AND returned_source_currency_amount IS NOT NULL',
    [requestId],
  );
  return rows.map((row) => row.amount);
}

/** How many splits the request has (kept on the request, or counted for one written before it was). */
export async function countSplits(tx: Queryable, requestId: string): Promise<number> {
  const [row] = await tx.query<{ n: number }>(
    `SELECT COALESCE(r.split_count, (SELECT count(*)::int FROM amount_splits c WHERE c.payroll_request_id = r.id)) AS n FROM payroll_requests r WHERE r.id = $1`,
    [requestId],
  );
  return row?.n ?? 0;
}

/** The request's id as stored (lower case), or null when there is none (with `customerId`, none of that customer's). */
export async function findPayrollRequestId(tx: Queryable, requestId: string, customerId: string | null): Promise<string | null> {
  const [row] = await tx.query<{ id: string }>('SELECT id FROM payroll_requests WHERE id = $1 AND ($2::uuid IS NULL OR customer_id = $2::uuid)', [
    requestId,
    customerId,
  ]);
  return row?.id ?? null;
}
