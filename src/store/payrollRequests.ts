import type { Queryable } from './db.js';

/**
 * The read model of one payroll request: four queries whatever the number of splits,
 * numerics cast to text so they keep their exact stored scale.
 */
export interface PayrollRequestRow {
  id: string;
  customer_id: string;
  status: string;
  total_amount: string;
  estimated_fx_rate: string;
  estimated_received_amount: string;
  source_amount_for_exchange: string;
  quote_rate: string | null;
  quote_expires_at: Date | null;
  quoted_at: Date | null;
  accepted_by_customer_at: Date | null;
  cancellation_reason: string | null;
  failure_reason: string | null;
  metadata: { feeBreakdown: Record<string, string> };
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
  payroll_account_currency_id: string;
  payroll_currency_code: string;
  payroll_currency_name: string;
  payroll_account_provider: string;
  quoted_by_user_id: string | null;
  quoted_by_first_name: string | null;
  quoted_by_last_name: string | null;
  quoted_by_email: string | null;
}

export async function findPayrollRequestRow(tx: Queryable, requestId: string): Promise<PayrollRequestRow | null> {
  const rows = await tx.query<PayrollRequestRow>(
    `SELECT r.id, r.customer_id, r.status, r.total_amount::text, r.estimated_fx_rate::text,
            r.estimated_received_amount::text, r.source_amount_for_exchange::text, r.quote_rate::text, r.quote_expires_at, r.quoted_at,
            r.accepted_by_customer_at, r.cancellation_reason, r.failure_reason, r.metadata, r.created_at, r.updated_at,
            cu.first_name AS customer_first_name, cu.last_name AS customer_last_name, cu.company_legal_name,
            sac.id AS source_account_currency_id, sac.account_id AS source_account_id,
            sac.balance::text AS source_balance, sac.available::text AS source_available,
            sa.account_provider AS source_account_provider, sa.customer_id AS source_account_customer_id,
            sc.id AS source_currency_id, sc.code AS source_currency_code, sc.name AS source_currency_name,
            sc.symbol AS source_currency_symbol,
            pac.id AS payroll_account_currency_id, pc.code AS payroll_currency_code, pc.name AS payroll_currency_name,
            pa.account_provider AS payroll_account_provider,
            q.id AS quoted_by_user_id, q.first_name AS quoted_by_first_name, q.last_name AS quoted_by_last_name,
            q.email AS quoted_by_email
       FROM payroll_requests r
       JOIN customers cu ON cu.id = r.customer_id
       JOIN account_currencies sac ON sac.id = r.source_account_currency_id
       JOIN accounts sa ON sa.id = sac.account_id
       JOIN currencies sc ON sc.code = sac.currency_code
       JOIN account_currencies pac ON pac.id = r.payroll_account_currency_id
       JOIN accounts pa ON pa.id = pac.account_id
       JOIN currencies pc ON pc.code = pac.currency_code
       LEFT JOIN users q ON q.id = r.quoted_by_user_id
      WHERE r.id = $1`,
    [requestId],
  );
  return rows[0] ?? null;
}

export interface AmountSplitRow {
  id: string;
  payroll_request_id: string;
  beneficiary_id: string;
  beneficiary_snapshot: Record<string, string>;
  source_currency_amount: string;
  amount: string;
  purpose_code: string;
  payout_transfer_id: string | null;
  created_at: Date;
}

export async function findAmountSplits(tx: Queryable, requestId: string): Promise<AmountSplitRow[]> {
  return tx.query<AmountSplitRow>(
    `SELECT id, payroll_request_id, beneficiary_id, beneficiary_snapshot, source_currency_amount::text, amount::text,
            purpose_code, payout_transfer_id, created_at
       FROM amount_splits WHERE payroll_request_id = $1 ORDER BY position`,
    [requestId],
  );
}

export interface TransferRow {
  id: string;
  payroll_request_id: string;
  transfer_type: string;
  status: string;
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

export async function findTransfers(tx: Queryable, requestId: string): Promise<TransferRow[]> {
  return tx.query<TransferRow>(
    `SELECT id, payroll_request_id, transfer_type, status, external_id, amount::text, currency_code, fee_id,
            fee_amount::text, final_internal_fee::text, amount_split_id, executed_at, completed_at, failure_reason, created_at
       FROM transfers WHERE payroll_request_id = $1 ORDER BY position`,
    [requestId],
  );
}

export interface FxExchangeRow {
  id: string;
  payroll_request_id: string;
  from_currency_code: string;
  to_currency_code: string;
  from_amount: string;
  to_amount: string;
  exchange_rate: string;
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
            f.exchange_rate::text, f.fee_id, f.fee_amount::text, f.final_internal_fee::text, f.recorded_at, f.created_at,
            u.id AS recorded_by_user_id, u.first_name AS recorded_by_first_name, u.last_name AS recorded_by_last_name,
            u.email AS recorded_by_email
       FROM fx_exchanges f JOIN users u ON u.id = f.recorded_by_user_id
      WHERE f.payroll_request_id = $1`,
    [requestId],
  );
  return rows[0] ?? null;
}
