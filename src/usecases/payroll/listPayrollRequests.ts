import type { components } from '../../../generated/api.js';
import { listPayrollRequests as listRows } from '../../store/payroll/payrollLifecycle.js';
import { type CreatedPosition, createdPosition, cursorCodec } from '../answers/cursor.js';
import type { UseCaseDeps } from '../deps.js';
import { type Principal, requireAdmin, requireCustomer } from '../access/principal.js';
import { toPayrollRequestSummary } from '../views/payrollRequestSummary.js';

type Page = components['schemas']['PayrollRequestPage'];
type Status = components['schemas']['PayrollRequestStatus'];

export interface ListQuery {
  limit?: number | undefined;
  cursor?: string | undefined;
  status?: Status | undefined;
}

/** A page continues only under the status filter it began with. */
const requestCursor = cursorCodec<CreatedPosition, Status | null>({
  ...createdPosition,
  filters: { write: (status) => ({ s: status }), mismatch: 'query.cursor belongs to another status filter' },
});

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
  const after = query.cursor ? requestCursor.decode(query.cursor, status) : null;
  const rows = await deps.db.transaction((tx) => listRows(tx, { customerId, status, after, limit: limit + 1 }));
  const items = rows.slice(0, limit).map(toPayrollRequestSummary);
  const last = rows.length > limit ? rows[limit - 1] : undefined;
  return { items, nextCursor: last ? requestCursor.encode({ createdAt: last.createdAt, id: last.id }, status) : null };
}
