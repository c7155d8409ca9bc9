import { forbidden } from '../../domain/errors.js';
import { findUser } from '../../store/reference/referenceData.js';
import type { UseCaseDeps } from '../deps.js';

/** The authenticated caller: a user, their role and (for customers) their customer. */
export interface Principal {
  userId: string;
  role: 'customer' | 'admin';
  customerId: string | null;
  /** Set when the request authenticated with an API key (its id, never its secret) rather than a user's token. */
  apiKeyId?: string;
}

/**
 * The caller a verified token names, read from the database on every (uncached) check, so a token
 * never outlives its user or keeps a role the user lost; null when no such user exists.
 */
export async function findPrincipal(deps: Pick<UseCaseDeps, 'db'>, userId: string): Promise<Principal | null> {
  const user = await findUser(deps.db, userId);
  return user && Object.freeze({ userId: user.id, role: user.role, customerId: user.customerId });
}

/** Customer operations act for the caller's customer; an admin has none to act for. */
export function requireCustomer(caller: Principal): string {
  if (caller.role !== 'customer' || !caller.customerId) {
    throw forbidden('This operation is for customer users', 'ROLE_NOT_ALLOWED');
  }
  return caller.customerId;
}

export function requireAdmin(caller: Principal): void {
  if (caller.role !== 'admin') throw forbidden('This operation requires the admin role', 'ROLE_NOT_ALLOWED');
}
