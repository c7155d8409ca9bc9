import { fundAccountCurrency } from '../../usecases/accounts/accounts.js';
import { failBankBatchPayouts, listBankBatches, resendBankBatch } from '../../usecases/bank/bankBatchesAdmin.js';
import { getBankException, listBankExceptions, listBankStatements, resolveBankException } from '../../usecases/bank/bankBooksAdmin.js';
import type { UseCaseDeps } from '../../usecases/deps.js';
import { updateCustomerSettings } from '../../usecases/payroll/customerSettings.js';
import { failPayrollRequest } from '../../usecases/payroll/failPayrollRequest.js';
import { listExchangeRates } from '../../usecases/rates/listExchangeRates.js';
import { listAdminPayrollRequests } from '../../usecases/payroll/listPayrollRequests.js';
import { providePayrollQuote } from '../../usecases/payroll/quoteLifecycle.js';
import { recordFxExchange } from '../../usecases/payroll/recordFxExchange.js';
import { updateExchangeRate } from '../../usecases/rates/updateExchangeRate.js';
import type { Handlers } from '../pipeline/operations.js';
import { decideScreeningHit, listScreeningHits } from '../../usecases/screening/screeningReview.js';

/** The Admin tag: the platform's queue of payroll requests, FX quotes and exchanges, rates, fundings, and the bank's books. */
export function adminHandlers(deps: UseCaseDeps) {
  return {
    listAdminPayrollRequests: async ({ caller, query }) => ({ status: 200, data: await listAdminPayrollRequests(deps, caller, query) }),
    providePayrollQuote: async ({ caller, params, body }) => ({ status: 200, data: await providePayrollQuote(deps, caller, params.requestId, body) }),
    recordFxExchange: async ({ caller, params, body }) => ({ status: 200, data: await recordFxExchange(deps, caller, params.requestId, body) }),
    failPayrollRequest: async ({ caller, params, body }) => ({ status: 200, data: await failPayrollRequest(deps, caller, params.requestId, body) }),
    updateExchangeRate: async ({ caller, params, body }) => {
      const pair = { from: params.fromCurrencyCode, to: params.toCurrencyCode };
      return { status: 200, data: await updateExchangeRate(deps, caller, pair, body) };
    },
    listExchangeRates: async ({ caller, query }) => ({ status: 200, data: await listExchangeRates(deps, caller, query) }),
    fundAccountCurrency: async ({ caller, params, body }) => ({ status: 201, data: await fundAccountCurrency(deps, caller, params.accountCurrencyId, body) }),
    updateCustomerSettings: async ({ caller, params, body }) => ({ status: 200, data: await updateCustomerSettings(deps, caller, params.customerId, body) }),
    listBankStatements: async ({ caller, query }) => ({ status: 200, data: await listBankStatements(deps, caller, query) }),
    listBankExceptions: async ({ caller, query }) => ({ status: 200, data: await listBankExceptions(deps, caller, query) }),
    getBankException: async ({ caller, params }) => ({ status: 200, data: await getBankException(deps, caller, params.exceptionId) }),
    resolveBankException: async ({ caller, params, body }) => ({ status: 200, data: await resolveBankException(deps, caller, params.exceptionId, body) }),
    listBankBatches: async ({ caller, query }) => ({ status: 200, data: await listBankBatches(deps, caller, query) }),
    resendBankBatch: async ({ caller, params }) => ({ status: 200, data: await resendBankBatch(deps, caller, params.batchId) }),
    failBankBatchPayouts: async ({ caller, params, body }) => ({ status: 200, data: await failBankBatchPayouts(deps, caller, params.batchId, body) }),
    listScreeningHits: async ({ caller, query }) => ({ status: 200, data: await listScreeningHits(deps, caller, query) }),
    releaseScreeningHit: async ({ caller, params, body }) => ({ status: 200, data: await decideScreeningHit(deps, caller, params.hitId, 'RELEASED', body) }),
    confirmScreeningHit: async ({ caller, params, body }) => ({ status: 200, data: await decideScreeningHit(deps, caller, params.hitId, 'CONFIRMED', body) }),
  } satisfies Partial<Handlers>;
}
