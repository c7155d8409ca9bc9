import type { components } from '../../../generated/api.js';
import { type ApprovalActor, assertMayApprove, assertMayReject } from '../../domain/payroll/payrollApproval.js';
import { Money } from '../../domain/money/money.js';
import { assertTransition } from '../../domain/payroll/payrollStatus.js';
import type { Queryable } from '../../store/database/db.js';
import { findUserPermissions, setApproved, setRejected } from '../../store/payroll/payrollApproval.js';
import type { UseCaseDeps } from '../deps.js';
import { type PayrollRequestAnswer, recordStatusChangeAnswered } from '../webhooks/events.js';
import { lockRequestFor } from './payrollAccess.js';
import { debitPayrollTotal } from './payrollDebit.js';
import { payrollLedgerOf } from './payrollSettlement.js';
import { type Principal, requireCustomer } from '../access/principal.js';

/**
 * Four-eyes approval. A request of a customer who requires approval waits in
 * AWAITING_APPROVAL with nothing debited. The request's row lock serialises approvers: of two
 * who approve at once, the second finds it PENDING and gets 409 INVALID_STATE, so it is debited once.
 */

/**
 * Another approver of the customer approves: the total is debited by the creation's own debit
 * path (400 INSUFFICIENT_FUNDS leaves the request AWAITING_APPROVAL), at the figures the feeHash
 * locked even after it expired, and the request moves to PENDING.
 */
export async function approvePayrollRequest(deps: UseCaseDeps, caller: Principal, requestId: string): Promise<PayrollRequestAnswer> {
  requireCustomer(caller);
  return deps.db.transaction(async (tx) => {
    const now = deps.clock();
    const request = await lockRequestFor(tx, caller, requestId);
    assertTransition(requestId, request.status, 'approve');
    assertMayApprove(requestId, request.createdByUserId, await actorOf(tx, caller));
    await debitPayrollTotal(tx, payrollLedgerOf(request), new Money(request.totalAmount), request.id, now);
    await setApproved(tx, request.id, caller.userId, now);
    return recordStatusChangeAnswered(tx, request, 'PENDING', now);
  });
}

/** An approver of the customer rejects: → CANCELLED with the reason; nothing was debited, nothing moves. */
export async function rejectPayrollRequest(
  deps: UseCaseDeps,
  caller: Principal,
  requestId: string,
  body: components['schemas']['RejectPayrollRequestRequest'],
): Promise<PayrollRequestAnswer> {
  requireCustomer(caller);
  return deps.db.transaction(async (tx) => {
    const now = deps.clock();
    const request = await lockRequestFor(tx, caller, requestId);
    assertTransition(requestId, request.status, 'reject');
    assertMayReject(await actorOf(tx, caller));
    await setRejected(tx, request.id, caller.userId, now, body.reason);
    return recordStatusChangeAnswered(tx, request, 'CANCELLED', now);
  });
}

/** The caller's permissions as they are now, read in the deciding transaction. */
async function actorOf(tx: Queryable, caller: Principal): Promise<ApprovalActor> {
  return { userId: caller.userId, permissions: await findUserPermissions(tx, caller.userId) };
}
