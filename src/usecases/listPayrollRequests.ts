import type { components } from '../../generated/api.js';
import { validationError } from '../domain/errors.js';
import { listPayrollRequests as listRows } from '../store/payrollLifecycle.js';
import type { UseCaseDeps } from './deps.js';
import { type Principal, requireAdmin, requireCustomer } from './principal.js';
import { toPayrollRequestSummary } from './views/payrollRequestSummary.js';

type Page = components['schemas']['PayrollRequestPage'];
type Status = components['schemas']['PayrollRequestStatus'];

export interface ListQuery {
  limit?: number | undefined;
  cursor?: string | undefined;
  status?: Status | undefined;
}

/** The caller's requests, newest first, a page at a time. */
export function listCustomerPayrollRequests(deps: UseCaseDeps, caller: Principal, query: ListQuery): Promise<Page> {
  return listPage(deps, requireCustomer(caller), query);
}

/** Admin: every customer's requests, typically filtered by status (the quote queue is PENDING). */
export function listAdminPayrollRequests(deps: UseCaseDeps, caller: Principal, query: ListQuery): Promise<Page> {
  requireAdmin(caller);
  return listPage(deps, null, query);
}

async function listPage(deps: UseCaseDeps, customerId: string | null, query: ListQuery): Promise<Page> {
  const limit = query.limit ?? 20;
  const status = query.status ?? null;
  const after = query.cursor ? decodeCursor(query.cursor, status) : null;
  const rows = await deps.db.transaction((tx) => listRows(tx, { customerId, status, after, limit: limit + 1 }));
  const items = rows.slice(0, limit).map(toPayrollRequestSummary);
  const last = rows.length > limit ? rows[limit - 1] : undefined;
  return { items, nextCursor: last ? encodeCursor(last.created_at, last.id, status) : null };
}

/** Opaque to clients: the keyset of the last row and the filter it belongs to. */
function encodeCursor(createdAt: Date, id: string, status: string | null): string {
  return Buffer.from(JSON.stringify({ c: createdAt.toISOString(), i: id, s: status })).toString('base64url');
}

function decodeCursor(cursor: string, status: string | null): { createdAt: Date; id: string } {
  try {
    const parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as { c: string; i: string; s: string | null };
    const createdAt = new Date(parsed.c);
    if (typeof parsed.i !== 'string' || !/^[0-9a-f-]{36}$/.test(parsed.i) || Number.isNaN(createdAt.getTime())) throw new Error('shape');
    if ((parsed.s ?? null) !== status) throw validationError('query.cursor belongs to another status filter');
    return { createdAt, id: parsed.i };
  } catch (error) {
    if (error instanceof Error && error.name === 'DomainError') throw error;
    throw validationError('query.cursor is not a cursor this service issued');
  }
}
