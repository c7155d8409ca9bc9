import { forbidden } from '../errors.js';

/**
 * Four-eyes approval of payroll requests: who may approve, reject or withdraw a request
 * that waits in AWAITING_APPROVAL. Pure rules; the use cases read the facts.
 */

/** The one permission a customer user may hold: approving and rejecting payroll requests. */
const APPROVER = 'approver';

/** The user acting on a request, with the permissions read in the same transaction. */
export interface ApprovalActor {
  userId: string;
  permissions: readonly string[];
}

const isApprover = (actor: ApprovalActor): boolean => actor.permissions.includes(APPROVER);

function assertApprover(actor: ApprovalActor, action: 'Approving' | 'Rejecting'): void {
  if (!isApprover(actor)) {
    throw forbidden(`${action} a payroll request needs the approver permission, which this user does not hold`, 'APPROVER_PERMISSION_REQUIRED');
  }
}

/**
 * Approving moves money, so it needs a second person: an approver who is not the creator. The
 * creator is refused first, with the reason, even when they hold the permission.
 */
export function assertMayApprove(requestId: string, createdByUserId: string | null, actor: ApprovalActor): void {
  if (createdByUserId !== null && createdByUserId === actor.userId) {
    throw forbidden(`Payroll request ${requestId} needs four-eyes approval and you created it: another approver must approve it`, 'SELF_APPROVAL');
  }
  assertApprover(actor, 'Approving');
}

/** Rejecting moves no money: any approver of the customer may, the creator included. */
export function assertMayReject(actor: ApprovalActor): void {
  assertApprover(actor, 'Rejecting');
}

/** A request awaiting approval is withdrawn (cancelled) by its creator; an approver rejects it instead. */
export function assertMayWithdraw(requestId: string, createdByUserId: string | null, userId: string): void {
  if (createdByUserId !== userId) {
    throw forbidden(`Payroll request ${requestId} is AWAITING_APPROVAL: only its creator may cancel it; an approver rejects it with reject`, 'CREATOR_ONLY');
  }
}
