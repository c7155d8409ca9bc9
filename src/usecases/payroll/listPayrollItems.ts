import type { components } from '../../../generated/api.js';
import { notFound } from '../../domain/errors.js';
import type { Queryable } from '../../store/database/db.js';
import { type ItemsPage, findAmountSplitsPage, findTransfersPage } from '../../store/payroll/payrollItems.js';
import { findPayrollRequestId } from '../../store/payroll/payrollRequests.js';
import { cursorCodec } from '../answers/cursor.js';
import type { UseCaseDeps } from '../deps.js';
import { JsonText } from '../answers/jsonText.js';
import { amountSplitText } from '../views/amountSplit.js';
import { transferText } from '../views/transfer.js';
import type { Principal } from '../access/principal.js';

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
  return listPage(deps, caller, { requestId, query, list: 's' }, findAmountSplitsPage, amountSplitText);
}

/** A request's transfers, a page at a time. */
export function listPayrollRequestTransfers(
  deps: Pick<UseCaseDeps, 'db'>,
  caller: Principal,
  requestId: string,
  query: PayrollItemsQuery,
): Promise<JsonText<Schemas['TransferPage']>> {
  return listPage(deps, caller, { requestId, query, list: 't' }, findTransfersPage, (row) => transferText(row));
}

type List = 's' | 't';

/** The position of the page's last item in the request (`p`), and the list it belongs to (`l`). */
const itemCursor = cursorCodec<number, List>({
  write: (position) => ({ p: position }),
  read: ({ p }) => (Number.isSafeInteger(p) && (p as number) >= 0 ? (p as number) : null),
  filters: { write: (list) => ({ l: list }), mismatch: "query.cursor belongs to the request's other list (splits or transfers)" },
});

/** The page, each item written by its object's writer; who may read is as for getPayrollRequest. */
async function listPage<R extends { position: number }, T>(
  deps: Pick<UseCaseDeps, 'db'>,
  caller: Principal,
  asked: { requestId: string; query: PayrollItemsQuery; list: List },
  read: (tx: Queryable, page: ItemsPage) => Promise<R[]>,
  write: (row: R, requestId: string) => string,
): Promise<JsonText<T>> {
  const { requestId, query, list } = asked;
  const limit = query.limit ?? 100;
  const afterPosition = query.cursor ? itemCursor.decode(query.cursor, list) : -1;
  return deps.db.transaction(async (tx) => {
    const id = await findPayrollRequestId(tx, requestId, caller.role === 'admin' ? null : caller.customerId);
    if (!id) throw notFound(`Payroll request ${requestId} not found`);
    // One item more than the page says whether another page follows.
    const rows = await read(tx, { requestId: id, afterPosition, limit: limit + 1 });
    const shown = rows.slice(0, limit);
    const last = shown.at(-1);
    const nextCursor = rows.length > limit && last ? JSON.stringify(itemCursor.encode(last.position, list)) : 'null';
    return new JsonText<T>(['{"items":[', shown.map((row) => write(row, id)).join(','), `],"nextCursor":${nextCursor}}`]);
  });
}
