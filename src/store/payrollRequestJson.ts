import type { Queryable } from './db.js';

/**
 * One payroll request as the API's JSON, built by PostgreSQL in one statement (the read at the
 * ceiling, issue 13 item 3): the route sends the text as it is. It must say exactly what the
 * TypeScript view (usecases/views/payrollRequest.ts) says, which a test checks for every request
 * of the test and demo worlds:
 * - amounts are `numeric::text`, as the view's reads cast them: the stored scale, as is;
 * - timestamps are written as Date#toISOString writes them: UTC, milliseconds truncated;
 * - a transfer's optional fields are absent, not null, until they apply (json_strip_nulls: none
 *   of its fields that must stay may be null); its payout instruction's snapshot fields are read
 *   as text (->>), cheaper than jsonb and the same JSON for the snapshot's string fields;
 * - returnedAmount (a sum at the source scale: a money rule) is not here: the caller adds it, in
 *   TypeScript, from `returnedAmounts`.
 */
const iso = (column: string): string => `to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

const SOURCE_ACCOUNT_CURRENCY = `json_build_object('id', ac.id, 'accountId', ac.account_id,
    'currency', json_build_object('id', c.id, 'currencyCode', c.code, 'currencyName', c.name, 'currencySymbol', c.symbol, 'decimals', c.decimals),
    'balance', ac.balance::text, 'available', ac.available::text,
    'account', json_build_object('id', ac.account_id, 'accountProvider', a.account_provider, 'customerId', a.customer_id))`;

const PAYROLL_ACCOUNT_CURRENCY = `json_build_object('id', ac.id,
    'currency', json_build_object('currencyCode', c.code, 'currencyName', c.name, 'decimals', c.decimals),
    'account', json_build_object('accountProvider', a.account_provider))`;

const QUOTE = `CASE WHEN r.quote_rate IS NULL OR r.quote_source_amount_for_exchange IS NULL OR r.quote_total_amount IS NULL
         OR r.quote_received_amount IS NULL OR r.quote_adjustment_amount IS NULL THEN NULL
    ELSE json_build_object('exchangeRate', r.quote_rate::text, 'sourceAmountForExchange', r.quote_source_amount_for_exchange::text,
      'feeAmount', r.metadata->'feeBreakdown'->'totalFee', 'totalAmount', r.quote_total_amount::text,
      'receivedAmount', r.quote_received_amount::text, 'debitedAmount', COALESCE(r.debited_amount, r.total_amount)::text,
      'adjustmentAmount', r.quote_adjustment_amount::text) END`;

/**
 * The splits in one pass: their JSON, and the returned source amounts of those that have one (the
 * caller sums them, a money rule in TypeScript), so amount_splits is read once for both.
 */
const SPLITS = `(SELECT json_agg(json_build_object('id', sp.id, 'beneficiaryId', sp.beneficiary_id, 'beneficiarySnapshot', sp.beneficiary_snapshot,
      'amountCurrencyType', sp.amount_currency_type, 'sourceCurrencyAmount', sp.source_currency_amount::text, 'amount', sp.amount::text,
      'quotedSourceCurrencyAmount', sp.quoted_source_currency_amount::text, 'quotedAmount', sp.quoted_amount::text,
      'returnedSourceCurrencyAmount', sp.returned_source_currency_amount::text, 'purposeCode', sp.purpose_code,
      'payoutTransferId', sp.payout_transfer_id, 'createdAt', ${iso('sp.created_at')}, 'payrollRequestId', sp.payroll_request_id) ORDER BY sp.position) AS json,
      array_agg(sp.returned_source_currency_amount::text) FILTER (WHERE sp.returned_source_currency_amount IS NOT NULL) AS returned
    FROM amount_splits sp WHERE sp.payroll_request_id = r.id)`;

const TRANSFERS = `(SELECT json_agg(json_strip_nulls(json_build_object('id', t.id, 'payrollRequestId', t.payroll_request_id,
      'transferType', t.transfer_type, 'status', t.status, 'externalId', t.external_id, 'amount', t.amount::text, 'currencyCode', t.currency_code,
      'feeDetails', CASE WHEN t.fee_id IS NOT NULL
        THEN json_build_object('id', t.fee_id, 'amount', t.fee_amount::text, 'finalInternalFee', t.final_internal_fee::text) END,
      'payoutInstruction', CASE WHEN sp.id IS NOT NULL THEN json_build_object('id', sp.id, 'beneficiaryId', sp.beneficiary_id,
        'beneficiarySnapshot', json_build_object('id', sp.beneficiary_snapshot->>'id', 'firstName', sp.beneficiary_snapshot->>'firstName',
          'lastName', sp.beneficiary_snapshot->>'lastName', 'displayName', sp.beneficiary_snapshot->>'displayName'),
        'sourceCurrencyAmount', sp.source_currency_amount::text, 'amount', t.amount::text) END,
      'executedAt', ${iso('t.executed_at')}, 'completedAt', ${iso('t.completed_at')}, 'failureReason', t.failure_reason,
      'createdAt', ${iso('t.created_at')})) ORDER BY t.position)
    FROM transfers t LEFT JOIN amount_splits sp ON sp.id = t.amount_split_id AND sp.payroll_request_id = r.id
   WHERE t.payroll_request_id = r.id)`;

const FX_EXCHANGE = `(SELECT json_build_object('id', f.id, 'payrollRequestId', f.payroll_request_id, 'fromCurrencyCode', f.from_currency_code,
      'toCurrencyCode', f.to_currency_code, 'fromAmount', f.from_amount::text, 'toAmount', f.to_amount::text, 'exchangeRate', f.exchange_rate::text,
      'payoutAmount', f.payout_amount::text, 'fxResultAmount', f.fx_result_amount::text,
      'feeDetails', json_build_object('id', f.fee_id, 'amount', f.fee_amount::text, 'finalInternalFee', f.final_internal_fee::text),
      'recordedByUserId', u.id, 'recordedByUser', json_build_object('id', u.id, 'firstName', u.first_name, 'lastName', u.last_name, 'email', u.email),
      'recordedAt', ${iso('f.recorded_at')}, 'createdAt', ${iso('f.created_at')})
    FROM fx_exchanges f JOIN users u ON u.id = f.recorded_by_user_id WHERE f.payroll_request_id = r.id LIMIT 1)`;

/** Four-eyes approval; the approvers as store/payrollApproval.ts findApprovers lists them. */
const APPROVAL = `json_build_object('required', r.approval_required,
    'approvers', CASE WHEN r.approval_required THEN COALESCE((SELECT json_agg(json_build_object('id', au.id, 'firstName', au.first_name,
        'lastName', au.last_name, 'email', au.email) ORDER BY au.last_name, au.first_name, au.id)
      FROM users au WHERE au.customer_id = r.customer_id AND 'approver' = ANY(au.permissions) AND au.id IS DISTINCT FROM r.created_by_user_id),
      '[]'::json) ELSE '[]'::json END,
    'createdByUserId', CASE WHEN r.approval_required THEN r.created_by_user_id END,
    'approvedByUserId', r.approved_by_user_id, 'approvedAt', ${iso('r.approved_at')},
    'rejectedByUserId', r.rejected_by_user_id, 'rejectedAt', ${iso('r.rejected_at')}, 'rejectionReason', r.rejection_reason)`;

const REQUEST = `json_build_object('id', r.id,
    'sourceAccountCurrencyId', r.source_account_currency_id, 'sourceAccountCurrency', s.json,
    'payrollAccountCurrencyId', r.payroll_account_currency_id, 'payrollAccountCurrency', p.json,
    'totalAmount', r.total_amount::text, 'status', r.status, 'estimatedFxRate', r.estimated_fx_rate::text,
    'estimatedReceivedAmount', r.estimated_received_amount::text, 'sourceAmountForExchange', r.source_amount_for_exchange::text,
    'quotedFxRate', r.quote_rate::text, 'quoteExpiresAt', ${iso('r.quote_expires_at')}, 'quotedByUserId', q.id,
    'quotedByUser', CASE WHEN q.id IS NOT NULL THEN json_build_object('id', q.id, 'firstName', q.first_name, 'lastName', q.last_name, 'email', q.email) END,
    'quotedAt', ${iso('r.quoted_at')}, 'quote', ${QUOTE}, 'acceptedByCustomerAt', ${iso('r.accepted_by_customer_at')},
    'cancellationReason', r.cancellation_reason, 'failureReason', r.failure_reason, 'approval', ${APPROVAL}, 'metadata', r.metadata,
    'amountSplitDetails', COALESCE(sx.json, '[]'::json), 'transfers', COALESCE(${TRANSFERS}, '[]'::json), 'fxExchange', ${FX_EXCHANGE},
    'customer', json_build_object('id', r.customer_id, 'firstName', cu.first_name, 'lastName', cu.last_name,
      'company', json_build_object('legalName', cu.company_legal_name)),
    'createdAt', ${iso('r.created_at')}, 'updatedAt', ${iso('r.updated_at')})`;

/** Each account currency behind OFFSET 0, as in findPayrollRequestRow: it keeps the planner's join search small. */
const ACCOUNT_CURRENCY_OF = (column: string, json: string): string => `CROSS JOIN LATERAL (
    SELECT ${json} AS json, c.decimals FROM account_currencies ac JOIN accounts a ON a.id = ac.account_id JOIN currencies c ON c.code = ac.currency_code
     WHERE ac.id = ${column} OFFSET 0)`;

export interface PayrollRequestJson {
  /** The request as JSON text, without returnedAmount. */
  json: string;
  /** The splits' returned source amounts (exact strings), those that have one. */
  returnedAmounts: string[];
  sourceDecimals: number;
}

/** The request, or null when there is none with this id (or, with `customerId`, none of that customer's). */
export async function findPayrollRequestJson(tx: Queryable, requestId: string, customerId: string | null): Promise<PayrollRequestJson | null> {
  const rows = await tx.query<PayrollRequestJson>(
    `SELECT ${REQUEST}::text AS json, s.decimals AS "sourceDecimals",
            COALESCE(sx.returned, '{}') AS "returnedAmounts"
       FROM payroll_requests r
       JOIN customers cu ON cu.id = r.customer_id
       ${ACCOUNT_CURRENCY_OF('r.source_account_currency_id', SOURCE_ACCOUNT_CURRENCY)} s
       ${ACCOUNT_CURRENCY_OF('r.payroll_account_currency_id', PAYROLL_ACCOUNT_CURRENCY)} p
       LEFT JOIN users q ON q.id = r.quoted_by_user_id
       CROSS JOIN LATERAL ${SPLITS} sx
      WHERE r.id = $1 AND ($2::uuid IS NULL OR r.customer_id = $2::uuid)`,
    [requestId, customerId],
  );
  return rows[0] ?? null;
}
