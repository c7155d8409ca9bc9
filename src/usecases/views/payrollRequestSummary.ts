import type { components } from '../../../generated/api.js';
import type { PayrollRequestSummaryRecord } from '../../store/payroll/payrollLifecycle.js';

/** One row of a list page: the request without its splits, transfers and FX record. */
export function toPayrollRequestSummary(request: PayrollRequestSummaryRecord): components['schemas']['PayrollRequestSummary'] {
  return {
    id: request.id,
    status: request.status,
    customerId: request.customerId,
    customerName: request.customerName,
    quoteExpiresAt: request.quoteExpiresAt?.toISOString() ?? null,
    ...(request.payDate === null ? {} : { payDate: request.payDate }),
    sourceAccountCurrencyId: request.sourceAccountCurrencyId,
    sourceCurrencyCode: request.sourceCurrencyCode,
    payrollAccountCurrencyId: request.payrollAccountCurrencyId,
    payrollCurrencyCode: request.payrollCurrencyCode,
    totalAmount: request.totalAmount,
    estimatedFxRate: request.estimatedFxRate,
    estimatedReceivedAmount: request.estimatedReceivedAmount,
    beneficiaryCount: request.beneficiaryCount,
    createdAt: request.createdAt.toISOString(),
    updatedAt: request.updatedAt.toISOString(),
  };
}
