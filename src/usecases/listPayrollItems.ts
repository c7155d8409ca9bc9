import type { components } from '../../generated/api.js';
import { notFound, validationError } from '../domain/errors.js';
import { findPayrollItemsJson } from '../store/payrollRequestJson.js';
import type { UseCaseDeps } from './deps.js';
import { JsonText } from './jsonText.js';
import type { Principal } from './principal.js';

type Schemas = components['schemas'];

export interface PayrollItemsQuery {
  limit?: number | undefined;
  cursor?: string | undefined;
}

/** A request's splits, a page at a time (a 100,000-split request is never read whole). */
export function listPayrollRequestSplits(
  deps: Pick<UseCaseDeps, 'db'>,
  caller: Principal,
  requestId: string,
  query: PayrollItemsQuery,
): Promise<JsonText<Schemas['AmountSplitPage']>> {
  return listPage(deps, caller, requestId, query, 's');
}

/** A request's transfers, a page at a time. */
export function listPayrollRequestTransfers(
  deps: Pick<UseCaseDeps, 'db'>,
  caller: Principal,
  requestId: string,
  query: PayrollItemsQuery,
): Promise<JsonText<Schemas['TransferPage']>> {
  return listPage(deps, caller, requestId, query, 't');
}

type List = 's' | 't';

/** The page as JSON text built from the rows' own JSON; who may read is as for getPayrollRequest. */
async function listPage<T>(deps: Pick<UseCaseDeps, 'db'>, caller: Principal, requestId: string, query: PayrollItemsQuery, list: List): Promise<JsonText<T>> {
  const limit = query.limit ?? 100;
  const afterPosition = query.cursor ? decodeCursor(query.cursor, list) : -1;
  const page = await findPayrollItemsJson(deps.db, {
    table: list === 's' ? 'amount_splits' : 'transfers',
    requestId,
    customerId: caller.role === 'admin' ? null : caller.customerId,
    afterPosition,
    limit,
  });
  if (!page) throw notFound(`Payroll request ${requestId} not found`);
  const nextCursor = page.more && page.lastPosition !== null ? JSON.stringify(encodeCursor(page.lastPosition, list)) : 'null';
  return new JsonText(['{"items":[', page.json, `],"nextCursor":${nextCursor}}`]);
}

/** Opaque to clients: which list, and the position of the last item of the page. */
function encodeCursor(position: number, list: List): string {
  return Buffer.from(JSON.stringify({ l: list, p: position })).toString('base64url');
}

function decodeCursor(cursor: string, list: List): number {
  let parsed: { l?: unknown; p?: unknown };
  try {
    parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as { l?: unknown; p?: unknown };
  } catch {
    throw validationError('query.cursor is not a cursor this service issued');
  }
  if (typeof parsed !== 'object' || parsed === null || !Number.isSafeInteger(parsed.p) || (parsed.p as number) < 0 || (parsed.l !== 's' && parsed.l !== 't')) {
    throw validationError('query.cursor is not a cursor this service issued');
  }
  if (parsed.l !== list) throw validationError(`query.cursor belongs to the request's ${parsed.l === 's' ? 'splits' : 'transfers'}, not to this list`);
  return parsed.p as number;
}
