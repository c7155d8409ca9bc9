/**
 * Who is signed in: the access token lives in this module's memory only — never in localStorage,
 * sessionStorage or a cookie — so a script injected later finds nothing stored, and a reload asks
 * to sign in again (the address is kept, so the same page opens after).
 */
import { createPayrollClient, type PayrollClient } from 'payroll-fee-service';

export interface SignedIn {
  userId: string;
  name: string;
  role: 'customer' | 'admin';
  permissions: string[];
  company: string | null;
  token: string;
}

let current: SignedIn | null = null;
const listeners = new Set<() => void>();

export function session(): SignedIn | null {
  return current;
}

export function signIn(user: SignedIn): void {
  current = user;
  listeners.forEach((listener) => listener());
}

export function signOut(): void {
  current = null;
  listeners.forEach((listener) => listener());
}

export function onSessionChange(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** The typed client on this origin, sending the signed-in user's token with every call. */
export const api: PayrollClient = createPayrollClient({
  baseUrl: window.location.origin,
  token: () => current?.token ?? '',
});
