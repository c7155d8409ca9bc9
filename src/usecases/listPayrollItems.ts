import type { components } from '../../generated/api.js';
import { notFound } from '../domain/errors.js';
import { findPayrollSplitsJson, findPayrollTransfersJson } from '../store/payrollRequestJson.js';
import { cursorCodec } from './cursor.js';
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

/** The position of the page's last item in the request (`p`), and the list it belongs to (`l`). */
const itemCursor = cursorCodec<number, List>({
  write: (position) => ({ p: position }),
  read: ({ p }) => (Number.isSafeInteger(p) && (p as number) >= 0 ? (p as number) : null),
  filters: { write: (list) => ({ l: list }), mismatch: "query.cursor belongs to the request's other list (splits or transfers)" },
});

/** The page as JSON text built from the rows' own JSON; who may read is as for getPayrollRequest. */
async function listPage<T>(deps: Pick<UseCaseDeps, 'db'>, caller: Principal, requestId: string, query: PayrollItemsQuery, list: List): Promise<JsonText<T>> {
  const limit = query.limit ?? 100;
  const afterPosition = query.cursor ? itemCursor.decode(query.cursor, list) : -1;
  const find = list === 's' ? findPayrollSplitsJson : findPayrollTransfersJson;
  const page = await find(deps.db, {
    requestId,
    customerId: caller.role === 'admin' ? null : caller.customerId,
    afterPosition,
    limit,
  });
  if (!page) throw notFound(`Payroll request ${requestId} not found`);
  const nextCursor = page.more && page.lastPosition !== null ? JSON.stringify(itemCursor.encode(page.lastPosition, list)) : 'null';
  return new JsonText(['{"items":[', page.json, `],"nextCursor":${nextCursor}}`]);
}
