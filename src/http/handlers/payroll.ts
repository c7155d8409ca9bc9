import { createPayrollRequest } from '../../usecases/payroll/createPayrollRequest.js';
import type { UseCaseDeps } from '../../usecases/deps.js';
import { estimatePayrollFee } from '../../usecases/fees/estimatePayrollFee.js';
import { answerPayrollRequest } from '../../usecases/payroll/getPayrollRequest.js';
import { listPayrollRequestSplits, listPayrollRequestTransfers } from '../../usecases/payroll/listPayrollItems.js';
import { listCustomerPayrollRequests } from '../../usecases/payroll/listPayrollRequests.js';
import { createPayrollRequestFromCsv, estimatePayrollFeeFromCsv, payrollCsvTemplate, refuseCsvQueryWithJson } from '../../usecases/payroll/payrollCsv.js';
import { approvePayrollRequest, rejectPayrollRequest } from '../../usecases/payroll/payrollApproval.js';
import { acceptPayrollQuote, cancelPayrollRequest } from '../../usecases/payroll/quoteLifecycle.js';
import { createPayrollTemplate, listPayrollTemplates, updatePayrollTemplate } from '../../usecases/payroll/payrollTemplates.js';
import type { Handlers } from '../pipeline/operations.js';

/** The Payroll tag: a customer's distributions, from the fee estimate to the accepted quote. */
export function payrollHandlers(deps: UseCaseDeps) {
  return {
    getPayrollCsvTemplate: async ({ caller }) => ({ status: 200, ...(await payrollCsvTemplate(deps, caller)) }),
    estimatePayrollFee: async ({ caller, body, query }) => {
      if (typeof body === 'string') return { status: 200, data: await estimatePayrollFeeFromCsv(deps, caller, body, query) };
      refuseCsvQueryWithJson(query);
      return { status: 200, data: await estimatePayrollFee(deps, caller, body) };
    },
    listPayrollRequests: async ({ caller, query }) => ({ status: 200, data: await listCustomerPayrollRequests(deps, caller, query) }),
    createPayrollRequest: async ({ caller, body, query }) => {
      if (typeof body === 'string') return { status: 201, data: await createPayrollRequestFromCsv(deps, caller, body, query) };
      refuseCsvQueryWithJson(query);
      return { status: 201, data: await createPayrollRequest(deps, caller, body) };
    },
    createPayrollTemplate: async ({ caller, body }) => ({ status: 201, data: await createPayrollTemplate(deps, caller, body) }),
    listPayrollTemplates: async ({ caller, query }) => ({ status: 200, data: await listPayrollTemplates(deps, caller, query) }),
    updatePayrollTemplate: async ({ caller, params, body }) => ({ status: 200, data: await updatePayrollTemplate(deps, caller, params.templateId, body) }),
    getPayrollRequest: async ({ caller, params }) => ({ status: 200, data: await answerPayrollRequest(deps, caller, params.requestId) }),
    listPayrollRequestSplits: async ({ caller, params, query }) => ({
      status: 200,
      data: await listPayrollRequestSplits(deps, caller, params.requestId, query),
    }),
    listPayrollRequestTransfers: async ({ caller, params, query }) => ({
      status: 200,
      data: await listPayrollRequestTransfers(deps, caller, params.requestId, query),
    }),
    acceptPayrollQuote: async ({ caller, params }) => ({ status: 200, data: await acceptPayrollQuote(deps, caller, params.requestId) }),
    cancelPayrollRequest: async ({ caller, params, body }) => ({ status: 200, data: await cancelPayrollRequest(deps, caller, params.requestId, body) }),
    approvePayrollRequest: async ({ caller, params }) => ({ status: 200, data: await approvePayrollRequest(deps, caller, params.requestId) }),
    rejectPayrollRequest: async ({ caller, params, body }) => ({ status: 200, data: await rejectPayrollRequest(deps, caller, params.requestId, body) }),
  } satisfies Partial<Handlers>;
}
