import type { Queryable } from '../../store/database/db.js';
import { findApprovers } from '../../store/payroll/payrollApproval.js';
import { type ItemsPage, findAmountSplitsPage, findTransfersPage, itemsVersionOf } from '../../store/payroll/payrollItems.js';
import { findFxExchange, findPayrollRequestRow, findReturnedAmounts } from '../../store/payroll/payrollRequests.js';
import type { ItemsTextCache } from '../answers/itemsTextCache.js';
import { type PayrollRequestTop, payrollItemsText, payrollRequestText, toPayrollRequestTop } from '../views/payrollRequest.js';

/**
 * Items read at a time, at every size: a page is one statement through the request's index
 * (keyset on position), and the process holds one page of a request of any size.
 */
const PAGE_ITEMS = 1000;

/** A request being read in one transaction: its top level, read, and its text, read page by page as it is taken. */
export interface PayrollRequestReading {
  top: PayrollRequestTop;
  text(): AsyncGenerator<string, void, undefined>;
  /**
   * The same text, its items taken from `cache` when a read of this snapshot's version of them
   * kept them (and kept for the next read when not): for a read-only snapshot, whose version is
   * one every later reader of unchanged items sees again.
   */
  textThrough(cache: ItemsTextCache): AsyncGenerator<string | Buffer, void, undefined>;
}

/**
 * The request as every answer and event shows it (views/payrollRequest.ts), or null when there is
 * none with this id (with `customerId`, none of that customer's). Its items are read when its text
 * is, on `tx`, so a caller that wants one state reads it inside one snapshot or its own transaction.
 */
export async function readPayrollRequest(
  tx: Queryable,
  requestId: string,
  customerId: string | null,
  pageItems = PAGE_ITEMS,
): Promise<PayrollRequestReading | null> {
  const request = await findPayrollRequestRow(tx, requestId, customerId);
  if (!request) return null;
  const approvers = request.approvalRequired ? await findApprovers(tx, request.customerId, request.createdByUserId) : [];
  const fx = await findFxExchange(tx, request.id);
  const returnedAmounts = await findReturnedAmounts(tx, request.id);
  const top = toPayrollRequestTop({ request, approvers, fx, returnedAmounts });
  const items = () =>
    payrollItemsText(request.id, {
      splitPages: pagesOf((page) => findAmountSplitsPage(tx, page), request.id, pageItems),
      transferPages: pagesOf((page) => findTransfersPage(tx, page), request.id, pageItems),
    });
  return {
    top,
    text: () => payrollRequestText(top, items()),
    textThrough: async function* (cache) {
      const version = await itemsVersionOf(tx, request.id);
      const kept = cache.get(request.id, version);
      yield* payrollRequestText(top, kept ? [kept] : cache.keeping(request.id, version, items()));
    },
  };
}

/**
 * The pages of one of the request's lists after one another. Each read asks for one item more than
 * the page, which says whether another page follows (the last page needs no empty read after it).
 */
async function* pagesOf<T extends { position: number }>(
  read: (page: ItemsPage) => Promise<T[]>,
  requestId: string,
  limit: number,
): AsyncGenerator<T[], void, undefined> {
  for (let afterPosition = -1; ;) {
    const rows = await read({ requestId, afterPosition, limit: limit + 1 });
    const page = rows.length > limit ? rows.slice(0, limit) : rows;
    yield page;
    const last = page.at(-1);
    if (rows.length <= limit || !last) return;
    afterPosition = last.position;
  }
}
