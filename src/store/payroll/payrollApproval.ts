import type { components } from '../../../generated/api.js';
import type { Queryable } from '../database/db.js';

/** Four-eyes approval: the customer's setting, users' permissions, approvers, and a request's approval or rejection. */

type UserSummary = components['schemas']['UserSummary'];

/**
 * Whether the customer's new payroll requests need an approval; read in the creating transaction
 * with a share lock, so that an admin's change of the setting waits for creations under way (and
 * a creation after the change sees it): every request follows the rule in force when it committed.
 * Creations share the lock and do not wait for one another.
 */
export async function customerRequiresApproval(tx: Queryable, customerId: string): Promise<boolean> {
  const [row] = await tx.query<{ required: boolean }>('SELECT requires_payroll_approval AS required FROM customers WHERE id = $1 FOR SHARE', [customerId]);
  return row?.required === true;
}

/** The user's permissions as they are now (an empty list for an unknown user). */
export async function findUserPermissions(tx: Queryable, userId: string): Promise<string[]> {
  const [row] = await tx.query<{ permissions: string[] }>('SELECT permissions FROM users WHERE id = $1', [userId]);
  return row?.permissions ?? [];
}

/**
 * The customer's users holding the approver permission, but `exceptUserId` (a request's creator),
 * in a stable order (the request's `approval.approvers`).
 */
export async function findApprovers(tx: Queryable, customerId: string, exceptUserId: string | null): Promise<UserSummary[]> {
  return tx.query<UserSummary>(
    `SELECT id, first_name AS "firstName", last_name AS "lastName", email FROM users
      WHERE customer_id = $1 AND 'approver' = ANY(permissions) AND id IS DISTINCT FROM $2::uuid
      ORDER BY last_name, first_name, id`,
    [customerId, exceptUserId],
  );
}

export async function setApproved(tx: Queryable, requestId: string, userId: string, at: Date): Promise<void> {
  await tx.query('UPDATE payroll_requests SET approved_by_user_id = $2, approved_at = $3 WHERE id = $1', [requestId, userId, at]);
}

/** A rejection is a cancellation with its reason, recorded as both. */
export async function setRejected(tx: Queryable, requestId: string, userId: string, at: Date, reason: string): Promise<void> {
  await tx.query('UPDATE payroll_requests SET rejected_by_user_id = $2, rejected_at = $3, rejection_reason = $4, cancellation_reason = $4 WHERE id = $1', [
    requestId,
    userId,
    at,
    reason,
  ]);
}

/** Changes the settings given (null: unchanged) and returns them as stored; null when there is no such customer. */
export async function updateCustomerSettings(
  tx: Queryable,
  customerId: string,
  settings: { requiresPayrollApproval: boolean | null },
): Promise<{ customerId: string; requiresPayrollApproval: boolean } | null> {
  const [row] = await tx.query<{ customerId: string; requiresPayrollApproval: boolean }>(
    `UPDATE customers SET requires_payroll_approval = COALESCE($2, requires_payroll_approval) WHERE id = $1
     RETURNING id AS "customerId", requires_payroll_approval AS "requiresPayrollApproval"`,
    [customerId, settings.requiresPayrollApproval],
  );
  return row ?? null;
}
