import { notFound } from '../../domain/errors.js';
import type { Queryable } from '../../store/database/db.js';
import { type LockedPayrollRequest, lockPayrollRequest } from '../../store/payroll/payrollRequestUpdates.js';
import type { Principal } from '../access/principal.js';

/**
 * Locks a request the caller may act on: an admin any request, a customer only its own.
 * Another customer's request is reported exactly as a missing one.
 */
export async function lockRequestFor(tx: Queryable, caller: Principal, requestId: string): Promise<LockedPayrollRequest> {
  const request = await lockPayrollRequest(tx, requestId);
  if (!request || (caller.role !== 'admin' && request.customerId !== caller.customerId)) {
    throw notFound(`Payroll request ${requestId} not found`);
  }
  return request;
}
