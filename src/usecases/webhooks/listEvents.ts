import type { components } from '../../../generated/api.js';
import { type EventPosition, listEvents as listRows } from '../../store/webhooks/events.js';
import { cursorCodec } from '../answers/cursor.js';
import type { UseCaseDeps } from '../deps.js';
import { type Principal, requireCustomer } from '../access/principal.js';

type Schemas = components['schemas'];

export interface EventQuery {
  limit?: number | undefined;
  cursor?: string | undefined;
  type?: Schemas['WebhookEventType'][] | undefined;
}

/** The largest value of the database's bigint (transaction ids and positions stay below it). */
const BIGINT_MAX = 2n ** 63n - 1n;

/** The start of the log: before every event. */
const START: EventPosition = { txId: '0', position: '0' };

/** A place in the log, valid with any type filter. */
const eventCursor = cursorCodec<EventPosition>({
  write: ({ txId, position }) => ({ t: txId, p: position }),
  read: ({ t, p }) => (isCounter(t) && isCounter(p) ? { txId: t, position: p } : null),
});

/**
 * The caller's event log, oldest first, a page at a time, so that a client that missed webhooks
 * (or uses none) catches up. The cursor is a place in the log, valid with any type filter; it is
 * returned even on the last page, to resume from later.
 */
export async function listCustomerEvents(deps: UseCaseDeps, caller: Principal, query: EventQuery): Promise<Schemas['EventPage']> {
  const customerId = requireCustomer(caller);
  const limit = query.limit ?? 20;
  const after = query.cursor === undefined ? null : eventCursor.decode(query.cursor);
  const types = query.type && query.type.length > 0 ? query.type : null;
  const rows = await deps.db.transaction((tx) => listRows(tx, { customerId, after, types, limit: limit + 1 }));
  const page = rows.slice(0, limit);
  const last = page[page.length - 1] ?? after ?? START;
  return {
    // The body is the event exactly as a webhook delivery carries it.
    items: page.map((row) => JSON.parse(row.body) as Schemas['WebhookEvent']),
    nextCursor: eventCursor.encode(last),
    hasMore: rows.length > limit,
  };
}

/** A non-negative integer the database's bigint (and xid8) can hold, as decimal text. */
function isCounter(value: unknown): value is string {
  return typeof value === 'string' && /^\d{1,19}$/.test(value) && BigInt(value) <= BIGINT_MAX;
}
