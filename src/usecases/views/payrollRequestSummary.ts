import type { components } from '../../../generated/api.js';
import type { PayrollRequestSummaryRow } from '../../store/payrollLifecycle.js';

/** One row of a list page: the request without its splits, transfers and FX record. */
export function toPayrollRequestSummary(row: PayrollRequestSummaryRow): components['schemas']['PayrollRequestSummary'] {
  return {
    id: row.id,
    status: row.status,
    customerId: row.customer_id,
    sourceAccountCurrencyId: row.source_account_currency_id,
    sourceCurrencyCode: row.source_currency_code,
    payrollAccountCurrencyId: row.payroll_account_currency_id,
    payrollCurrencyCode: row.payroll_currency_code,
    totalAmount: row.total_amount,
    estimatedFxRate: row.estimated_fx_rate,
    estimatedReceivedAmount: row.estimated_received_amount,
    beneficiaryCount: row.beneficiary_count,
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
  };
}
