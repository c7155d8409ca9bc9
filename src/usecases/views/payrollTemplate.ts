import type { components } from '../../../generated/api.js';
import type { PayrollTemplateRecord } from '../../store/payroll/payrollTemplates.js';

type PayrollTemplate = components['schemas']['PayrollTemplate'];

/** The one writer of a payroll template on the wire. */
export function toPayrollTemplate(t: PayrollTemplateRecord): PayrollTemplate {
  return {
    id: t.id,
    name: t.name,
    sourceAccountCurrencyId: t.sourceAccountCurrencyId,
    payrollAccountCurrencyId: t.payrollAccountCurrencyId,
    amountSplitDetails: t.entries as PayrollTemplate['amountSplitDetails'],
    payDateRule: t.payDateRule,
    draftLeadDays: t.draftLeadDays,
    nextRun: {
      payDate: t.nextRun.payDate,
      draftAt: t.nextRun.draftAt.toISOString(),
      approveBy: t.nextRun.approveBy.toISOString(),
      payrollRequestId: null,
      ...(t.nextRunProblem ? { problem: t.nextRunProblem } : {}),
    },
    lastRun: t.lastRun && {
      payDate: t.lastRun.payDate,
      draftAt: t.lastRun.draftAt.toISOString(),
      approveBy: t.lastRun.approveBy.toISOString(),
      payrollRequestId: t.lastRun.payrollRequestId,
    },
    createdByUserId: t.createdByUserId,
    createdAt: t.createdAt.toISOString(),
    updatedAt: t.updatedAt.toISOString(),
  };
}
