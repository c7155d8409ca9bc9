import type { components } from '../../generated/api.js';
import { notFound } from '../domain/errors.js';
import { returnedAmountOf } from '../domain/returnedAmount.js';
import type { Database, Queryable } from '../store/db.js';
import {
  type PayrollItemsJson,
  type PayrollItemsQuery,
  type PayrollRequestJson,
  findPayrollRequestHead,
  findPayrollRequestJson,
  findPayrollSplitsJson,
  findPayrollTransfersJson,
  payrollItemsBytes,
} from '../store/payrollRequestJson.js';
import { type PayrollRequestTopLevel, payrollRequestTopLevel } from '../store/payrollRequestTopLevel.js';
import type { UseCaseDeps } from './deps.js';
import { type JsonSink, JsonStream } from './jsonStream.js';
import { JsonText } from './jsonText.js';
import type { Principal } from './principal.js';

type PayrollRequest = components['schemas']['PayrollRequest'];

/**
 * When a request's answer is streamed: above `aboveSplits` splits it is read `pageItems` splits
 * (then transfers) at a time; at or below, in the one statement, which is the quicker for a small
 * request (a page's statement costs about as much as the whole of a 1,000-split request).
 */
interface Streaming {
  aboveSplits: number;
  pageItems: number;
}

const STREAMING: Streaming = { aboveSplits: 1000, pageItems: 1000 };

/**
 * Read one payroll request as it is now, in one statement that builds its JSON in PostgreSQL (the
 * same content as the TypeScript oracle of the tests: a test compares them). A customer
 * sees only their own; another customer's request is reported exactly as a missing one. Admins
 * see every request. The whole text, whatever its size: the route answers with answerPayrollRequest.
 */
export async function getPayrollRequestJson(deps: Pick<UseCaseDeps, 'db'>, caller: Principal, requestId: string): Promise<JsonText<PayrollRequest>> {
  const found = await findPayrollRequestJson(deps.db, requestId, customerOf(caller));
  if (!found) throw notFound(`Payroll request ${requestId} not found`);
  return payrollRequestJsonText(found);
}

/**
 * The same answer, byte for byte, as the route sends it: a big request (above
 * `streaming.aboveSplits` splits) as a JsonStream read page by page inside one snapshot, so that it
 * is never whole in the process; a small one as the one statement's text.
 */
export async function answerPayrollRequest(
  deps: Pick<UseCaseDeps, 'db'>,
  caller: Principal,
  requestId: string,
  streaming: Streaming = STREAMING,
): Promise<JsonText<PayrollRequest> | JsonStream<PayrollRequest>> {
  const found = await findPayrollRequestJson(deps.db, requestId, customerOf(caller), streaming.aboveSplits);
  if (!found) throw notFound(`Payroll request ${requestId} not found`);
  if (!found.itemsOmitted) return payrollRequestJsonText(found);
  const key = { requestId, customerId: customerOf(caller) };
  return new JsonStream((sink) => inSnapshot(deps.db, (tx) => sendInPages(tx, key, streaming.pageItems, sink)));
}

const customerOf = (caller: Principal): string | null => (caller.role === 'admin' ? null : caller.customerId);

/** A read-only transaction that sees one snapshot from its first statement to its last. */
function inSnapshot(db: Database, read: (tx: Queryable) => Promise<void>): Promise<void> {
  return db.transaction(async (tx) => {
    await tx.query('SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY');
    await read(tx);
  });
}

type RequestKey = Pick<PayrollItemsQuery, 'requestId' | 'customerId'>;

/** The request's top level and its length first, then its items a page at a time, as the sink takes them. */
async function sendInPages(tx: Queryable, key: RequestKey, pageItems: number, sink: JsonSink): Promise<void> {
  const found = await findPayrollRequestHead(tx, key.requestId, key.customerId);
  if (!found) throw notFound(`Payroll request ${key.requestId} not found`);
  const top = payrollRequestTopLevel(returnedAmountOf(found.returnedAmounts, found.sourceDecimals), found.head);
  const frame = Buffer.byteLength(top.opening) + Buffer.byteLength(top.between) + Buffer.byteLength(top.closing);
  await sink(frame + (await payrollItemsBytes(tx, key.requestId)), requestParts(tx, key, top, pageItems));
}

async function* requestParts(tx: Queryable, key: RequestKey, top: PayrollRequestTopLevel, pageItems: number): AsyncGenerator<string, void, undefined> {
  yield top.opening;
  yield* itemPages((afterPosition) => findPayrollSplitsJson(tx, { ...key, afterPosition, limit: pageItems }));
  yield top.between;
  yield* itemPages((afterPosition) => findPayrollTransfersJson(tx, { ...key, afterPosition, limit: pageItems }));
  yield top.closing;
}

/** Pages of items after one another (keyset on position), a comma between two pages. */
async function* itemPages(pageAfter: (afterPosition: number) => Promise<PayrollItemsJson | null>): AsyncGenerator<string, void, undefined> {
  for (let afterPosition = -1, first = true; ; first = false) {
    const page = await pageAfter(afterPosition);
    if (!page) throw new Error('a payroll request vanished from its own snapshot');
    if (page.json) yield first ? page.json : `,${page.json}`;
    if (!page.more || page.lastPosition === null) return;
    afterPosition = page.lastPosition;
  }
}

/** The request's JSON parts as the answer's text: its top level around its items' parts (never joined: JsonText says why). */
function payrollRequestJsonText(found: PayrollRequestJson): JsonText<PayrollRequest> {
  const top = payrollRequestTopLevel(returnedAmountOf(found.returnedAmounts, found.sourceDecimals), found.head);
  return new JsonText([top.opening, ...found.splitsParts, top.between, ...found.transfersParts, top.closing]);
}

/** The same request as a value (for callers inside the process). */
export async function getPayrollRequest(deps: UseCaseDeps, caller: Principal, requestId: string): Promise<PayrollRequest> {
  return (await getPayrollRequestJson(deps, caller, requestId)).parse();
}
