import { notFound } from '../domain/errors.js';
import type { PayrollRequestStatus } from '../domain/payrollStatus.js';
import type { Queryable } from '../store/db.js';
import { type LockedPayrollRequest, lockPayrollRequest } from '../store/payrollLifecycle.js';
import type { Principal } from './principal.js';

export type LockedRequest = LockedPayrollRequest & { status: PayrollRequestStatus };

/**
 * Locks a request the caller may act on: an admin any request, a customer only its own.
 * Another customer's request is reported exactly as a missing one.
 */
export async function lockRequestFor(tx: Queryable, caller: Principal, requestId: string): Promise<LockedRequest> {
  const request = await lockPayrollRequest(tx, requestId);
  if (!request || (caller.role !== 'admin' && request.customer_id !== caller.customerId)) {
    throw notFound(`Payroll request ${requestId} not found`);
  }
  return request as LockedRequest;
}
