import type { components } from '../../generated/api.js';
import { notFound } from '../domain/errors.js';
import type { UseCaseDeps } from './deps.js';
import type { Principal } from './principal.js';
import { loadPayrollRequest } from './views/payrollRequest.js';

/**
 * Read one payroll request as it is now. A customer sees only their own; another customer's
 * request is reported exactly as a missing one. Admins see every request.
 */
export async function getPayrollRequest(deps: UseCaseDeps, caller: Principal, requestId: string): Promise<components['schemas']['PayrollRequest']> {
  return deps.db.transaction(async (tx) => {
    const request = await loadPayrollRequest(tx, requestId);
    if (!request || (caller.role !== 'admin' && request.customer.id !== caller.customerId)) {
      throw notFound(`Payroll request ${requestId} not found`);
    }
    return request;
  });
}
