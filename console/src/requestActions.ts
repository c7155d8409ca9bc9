/**
 * What a signed-in user may do to a payroll request now: the one place the console decides which
 * actions a status allows. The table follows the domain's transition table (PayrollRequestStatus
 * in the spec; src/domain/payroll/payrollStatus.ts, which a unit test holds this one to); who may act is
 * read from what the request itself says (its approvers, its creator) rather than decided again.
 */
// The generated types by the path both type checks map (the console's and the tests'), so that the unit tests may import this file.
import type { components } from 'payroll-fee-service/types';

type PayrollRequest = components['schemas']['PayrollRequest'];
type Status = PayrollRequest['status'];

export type RequestAction = 'approve' | 'reject' | 'accept' | 'cancel' | 'quote' | 'recordFxExchange' | 'fail';

/** The person acting, as the session names them. */
export interface Actor {
  userId: string;
  role: 'customer' | 'admin';
}

const CUSTOMER_ACTIONS: readonly RequestAction[] = ['approve', 'reject', 'accept', 'cancel'];

/**
 * The actions of people each status allows. The worker's own moves (starting the execution,
 * finishing the payouts) are not offered. A re-quote is offered on QUOTE_PROVIDED: the service
 * takes it once the quote has expired and says so before. Failing is offered while EXECUTING only:
 * the operator's fail is the way out of a conversion that cannot be recorded, and the service
 * refuses it once the payouts have started.
 */
export const ACTIONS_FROM: Record<Status, readonly RequestAction[]> = {
  AWAITING_APPROVAL: ['approve', 'reject', 'cancel'],
  PENDING: ['quote', 'cancel'],
  QUOTE_PROVIDED: ['quote', 'accept', 'cancel'],
  QUOTE_ACCEPTED: [],
  EXECUTING: ['recordFxExchange', 'fail'],
  PAYOUT_INITIATED: [],
  COMPLETED: [],
  PARTIALLY_COMPLETED: [],
  FAILED: [],
  CANCELLED: [],
};

/** Whether this actor is the one the request lets do `action` (the status aside). */
function mayAct(request: Pick<PayrollRequest, 'status' | 'approval'>, actor: Actor, action: RequestAction): boolean {
  if (CUSTOMER_ACTIONS.includes(action) !== (actor.role === 'customer')) return false;
  // The request names who may approve or reject it: the customer's approvers but its creator.
  if (action === 'approve' || action === 'reject') return request.approval.approvers.some((approver) => approver.id === actor.userId);
  // Awaiting approval, only its creator withdraws it.
  if (action === 'cancel' && request.status === 'AWAITING_APPROVAL') return request.approval.createdByUserId === actor.userId;
  return true;
}

/** The actions this actor may take on the request in its present status, in the table's order. */
export function actionsFor(request: Pick<PayrollRequest, 'status' | 'approval'>, actor: Actor): readonly RequestAction[] {
  return ACTIONS_FROM[request.status].filter((action) => mayAct(request, actor, action));
}

/** The actions that end a request for good: drawn apart, in the danger style, and confirmed. */
export const DESTRUCTIVE: readonly RequestAction[] = ['reject', 'cancel', 'fail'];
