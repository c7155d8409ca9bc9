import type { components } from '../../generated/api.js';
import type { PayrollRequestStatus } from '../domain/payrollStatus.js';
import type { TransferStatus, TransferType } from '../domain/transfers.js';
import type { Queryable } from './db.js';

type Schemas = components['schemas'];

/**
 * The read model of one payroll request: four queries whatever the number of splits,
 * numerics cast to text so they keep their exact stored scale.
 */
export interface PayrollRequestRow {
  id: string;
  customer_id: string;
  status: PayrollRequestStatus;
  total_amount: string;
  estimated_fx_rate: string;
  estimated_received_amount: string;
  source_amount_for_exchange: string;
  /** What creation debited; total_amount becomes the quote's total at accept. */
  debited_amount: string;
  quote_rate: string | null;
  /** The figures at the quote rate (null before the quote, and for requests quoted before migration 005). */
  quote_source_amount_for_exchange: string | null;
  quote_total_amount: string | null;
  quote_received_amount: string | null;
  quote_adjustment_amount: string | null;
  quote_expires_at: Date | null;
  quoted_at: Date | null;
  accepted_by_customer_at: Date | null;
  cancellation_reason: string | null;
  failure_reason: string | null;
  metadata: Schemas['PayrollRequestMetadata'];
  created_at: Date;
  updated_at: Date;
  customer_first_name: string;
  customer_last_name: string;
  company_legal_name: string;
  source_account_currency_id: string;
  source_account_id: string;
  source_balance: string;
  source_available: string;
  source_account_provider: string;
  source_account_customer_id: string;
  source_currency_id: string;
  source_currency_code: string;
  source_currency_name: string;
  source_currency_symbol: string;
  source_currency_decimals: number;
  payroll_account_currency_id: string;
  payroll_currency_code: string;
  payroll_currency_name: string;
  payroll_currency_decimals: number;
  payroll_account_provider: string;
  quoted_by_user_id: string | null;
  quoted_by_first_name: string | null;
  quoted_by_last_name: string | null;
  quoted_by_email: string | null;
  approval_required: boolean;
  created_by_user_id: string | null;
  approved_by_user_id: string | null;
  approved_at: Date | null;
  rejected_by_user_id: string | null;
  rejected_at: Date | null;
  rejection_reason: string | null;
}

/**
 * The request row with its customer, both account currencies and the quoting admin. Each account
 * currency is read in a LATERAL subquery behind OFFSET 0, which keeps the planner from flattening
 * all nine tables into one join-order search: that search costs more than the query itself.
 */
export async function findPayrollRequestRow(tx: Queryable, requestId: string): Promise<PayrollRequestRow | null> {
  const rows = await tx.query<PayrollRequestRow>(
    `SELECT r.id, r.customer_id, r.status, r.total_amount::text, r.estimated_fx_rate::text,
            r.estimated_received_amount::text, r.source_amount_for_exchange::text, COALESCE(r.debited_amount, r.total_amount)::text AS debited_amount,
            r.quote_rate::text, r.quote_source_amount_for_exchange::text, r.quote_total_amount::text, r.quote_received_amount::text,
            r.quote_adjustment_amount::text, r.quote_expires_at, r.quoted_at,
            r.accepted_by_customer_at, r.cancellation_reason, r.failure_reason, r.metadata, r.created_at, r.updated_at,
            cu.first_name AS customer_first_name, cu.last_name AS customer_last_name, cu.company_legal_name,
            s.source_account_currency_id, s.source_account_id, s.source_balance, s.source_available,
            s.source_account_provider, s.source_account_customer_id,
            s.source_currency_id, s.source_currency_code, s.source_currency_name, s.source_currency_symbol, s.source_currency_decimals,
            p.payroll_account_currency_id, p.payroll_currency_code, p.payroll_currency_name, p.payroll_currency_decimals,
            p.payroll_account_provider,
            q.id AS quoted_by_user_id, q.first_name AS quoted_by_first_name, q.last_name AS quoted_by_last_name,
            q.email AS quoted_by_email, r.approval_required, r.created_by_user_id, r.approved_by_user_id, r.approved_at,
            r.rejected_by_user_id, r.rejected_at, r.rejection_reason
       FROM payroll_requests r
       JOIN customers cu ON cu.id = r.customer_id
       CROSS JOIN LATERAL (
         SELECT ac.id AS source_account_currency_id, ac.account_id AS source_account_id,
                ac.balance::text AS source_balance, ac.available::text AS source_available,
                a.account_provider AS source_account_provider, a.customer_id AS source_account_customer_id,
                c.id AS source_currency_id, c.code AS source_currency_code, c.name AS source_currency_name,
                c.symbol AS source_currency_symbol, c.decimals AS source_currency_decimals
           FROM account_currencies ac
           JOIN accounts a ON a.id = ac.account_id
           JOIN currencies c ON c.code = ac.currency_code
          WHERE ac.id = r.source_account_currency_id
         OFFSET 0) s
       CROSS JOIN LATERAL (
         SELECT ac.id AS payroll_account_currency_id, c.code AS payroll_currency_code, c.name AS payroll_currency_name,
                c.decimals AS payroll_currency_decimals, a.account_provider AS payroll_account_provider
           FROM account_currencies ac
           JOIN accounts a ON a.id = ac.account_id
           JOIN currencies c ON c.code = ac.currency_code
          WHERE ac.id = r.payroll_account_currency_id
         OFFSET 0) p
       LEFT JOIN users q ON q.id = r.quoted_by_user_id
      WHERE r.id = $1`,
    [requestId],
  );
  return rows[0] ?? null;
}

/** A split as the API shows it, but for its timestamp (a Date here). */
export type AmountSplitRow = Omit<Schemas['AmountSplitDetail'], 'createdAt'> & { createdAt: Date };

const SPLIT_COLUMNS = `id, beneficiary_id AS "beneficiaryId", beneficiary_snapshot AS "beneficiarySnapshot",
            amount_currency_type AS "amountCurrencyType", source_currency_amount::text AS "sourceCurrencyAmount", amount::text AS "amount",
            quoted_source_currency_amount::text AS "quotedSourceCurrencyAmount", quoted_amount::text AS "quotedAmount",
            returned_source_currency_amount::text AS "returnedSourceCurrencyAmount", purpose_code AS "purposeCode",
            payout_transfer_id AS "payoutTransferId", created_at AS "createdAt"`;

/** The request id is the parameter: it is set on each row here rather than read back (a column less per row). */
export async function findAmountSplits(tx: Queryable, requestId: string): Promise<AmountSplitRow[]> {
  const rows = await tx.query<AmountSplitRow>(`SELECT ${SPLIT_COLUMNS} FROM amount_splits WHERE payroll_request_id = $1 ORDER BY position`, [requestId]);
  return withRequestId(rows, 'payrollRequestId', requestId);
}

export async function findAmountSplit(tx: Queryable, splitId: string): Promise<AmountSplitRow | null> {
  const rows = await tx.query<AmountSplitRow>(`SELECT payroll_request_id AS "payrollRequestId", ${SPLIT_COLUMNS} FROM amount_splits WHERE id = $1`, [splitId]);
  return rows[0] ?? null;
}

export interface TransferRow {
  id: string;
  payroll_request_id: string;
  transfer_type: TransferType;
  status: TransferStatus;
  external_id: string | null;
  amount: string;
  currency_code: string;
  fee_id: string | null;
  fee_amount: string | null;
  final_internal_fee: string | null;
  amount_split_id: string | null;
  executed_at: Date | null;
  completed_at: Date | null;
  failure_reason: string | null;
  created_at: Date;
}

const TRANSFER_COLUMNS = `id, transfer_type, status, external_id, amount::text, currency_code, fee_id,
            fee_amount::text, final_internal_fee::text, amount_split_id, executed_at, completed_at, failure_reason, created_at`;

export async function findTransfers(tx: Queryable, requestId: string): Promise<TransferRow[]> {
  const rows = await tx.query<TransferRow>(`SELECT ${TRANSFER_COLUMNS} FROM transfers WHERE payroll_request_id = $1 ORDER BY position`, [requestId]);
  return withRequestId(rows, 'payroll_request_id', requestId);
}

export async function findTransfer(tx: Queryable, transferId: string): Promise<TransferRow | null> {
  const rows = await tx.query<TransferRow>(`SELECT payroll_request_id, ${TRANSFER_COLUMNS} FROM transfers WHERE id = $1`, [transferId]);
  return rows[0] ?? null;
}

/** The customer whose request a transfer belongs to, or null: who receives its events. */
export async function findTransferOwner(tx: Queryable, transferId: string): Promise<string | null> {
  const [row] = await tx.query<{ customer_id: string }>(
    'SELECT r.customer_id FROM transfers t JOIN payroll_requests r ON r.id = t.payroll_request_id WHERE t.id = $1',
    [transferId],
  );
  return row?.customer_id ?? null;
}

/** uuid columns read back in lowercase; the id as given may be in either case. */
function withRequestId<K extends string, T extends Record<K, string>>(rows: T[], key: K, requestId: string): T[] {
  const id = requestId.toLowerCase();
  for (const row of rows) (row as Record<K, string>)[key] = id;
  return rows;
}

export interface FxExchangeRow {
  id: string;
  payroll_request_id: string;
  from_currency_code: string;
  to_currency_code: string;
  from_amount: string;
  to_amount: string;
  exchange_rate: string;
  payout_amount: string;
  fx_result_amount: string;
  fee_id: string;
  fee_amount: string;
  final_internal_fee: string;
  recorded_at: Date;
  created_at: Date;
  recorded_by_user_id: string;
  recorded_by_first_name: string;
  recorded_by_last_name: string;
  recorded_by_email: string;
}

export async function findFxExchange(tx: Queryable, requestId: string): Promise<FxExchangeRow | null> {
  const rows = await tx.query<FxExchangeRow>(
    `SELECT f.id, f.payroll_request_id, f.from_currency_code, f.to_currency_code, f.from_amount::text, f.to_amount::text,
            f.exchange_rate::text, f.payout_amount::text, f.fx_result_amount::text, f.fee_id, f.fee_amount::text, f.final_internal_fee::text, f.recorded_at, f.created_at,
            u.id AS recorded_by_user_id, u.first_name AS recorded_by_first_name, u.last_name AS recorded_by_last_name,
            u.email AS recorded_by_email
       FROM fx_exchanges f JOIN users u ON u.id = f.recorded_by_user_id
      WHERE f.payroll_request_id = $1`,
    [requestId],
  );
  return rows[0] ?? null;
}
