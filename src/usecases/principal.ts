import { forbidden } from '../domain/errors.js';

/** The authenticated caller: a user, their role and (for customers) their customer. */
export interface Principal {
  userId: string;
  role: 'customer' | 'admin';
  customerId: string | null;
}

/** Customer operations act for the caller's customer; an admin has none to act for. */
export function requireCustomer(caller: Principal): string {
  if (caller.role !== 'customer' || !caller.customerId) {
    throw forbidden('This operation is for customer users');
  }
  return caller.customerId;
}

export function requireAdmin(caller: Principal): void {
  if (caller.role !== 'admin') throw forbidden('This operation requires the admin role');
}
