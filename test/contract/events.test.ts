/**
 * The event log: every status change of a payroll request, a transfer and a
 * payout writes an event whether or not an endpoint subscribes, numbered per resource, and
 * GET /v1/customers/events lists them oldest first with a cursor and type filters; webhook
 * deliveries carry these same events.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { components } from '../../generated/api.js';
import { recordEvent } from '../../src/store/webhooks/events.js';
import type { ExecutionDeps } from '../../src/usecases/payroll/execution.js';
import { ids } from '../fixtures/world.js';
import { type Listening, listen } from '../support/http.js';
import { waitFor } from '../support/polling.js';
import { accept, estimateAndCreate, quote, recordFx } from '../support/payroll.js';
import type { TestServer } from '../support/server.js';
import { drain, startServerWithWorker } from '../support/worker.js';

type Event = components['schemas']['WebhookEvent'];
type EventType = components['schemas']['WebhookEventType'];

let server: TestServer;
let worker: ExecutionDeps;
beforeAll(async () => ({ server, worker } = await startServerWithWorker()));
afterAll(() => server.close());

const customer = () => server.as(ids.userA);

async function page(query: { cursor?: string; limit?: number; type?: EventType[] } = {}) {
  const { data, error, response } = await customer().GET('/v1/customers/events', { params: { query } });
  expect(response.status, JSON.stringify(error)).toBe(200);
  return data!.data;
}

/** Every event after `cursor`, page by page (`limit` a page); the cursor to resume from. */
async function readAll(cursor?: string, limit = 3, type?: EventType[]): Promise<{ events: Event[]; cursor: string }> {
  const events: Event[] = [];
  for (;;) {
    const next = await page({ limit, ...(cursor && { cursor }), ...(type && { type }) });
    events.push(...next.items);
    cursor = next.nextCursor;
    if (!next.hasMore) return { events, cursor };
  }
}

/**
 * The events after `cursor` once `ready` holds. An event is listed once every transaction that
 * started before it has finished, in the whole cluster (other test files share the server): a
 * just-written event may show up a moment later, never out of order.
 */
async function eventsOnce(cursor: string | undefined, ready: (events: Event[]) => boolean): Promise<Event[]> {
  return waitFor('the events listed', async () => (await readAll(cursor, 100)).events, ready, { deadlineMs: 60_000, everyMs: 50 });
}

async function runPayroll(entries = [{ beneficiaryId: ids.beneficiaryA1, amount: '100' }]): Promise<string> {
  const { created } = await estimateAndCreate(customer(), entries);
  const id = created.data!.data.id;
  expect((await quote(server, id)).response.status).toBe(200);
  expect((await accept(server, id)).response.status).toBe(200);
  await drain(worker);
  expect((await recordFx(server, id)).response.status).toBe(200);
  await drain(worker);
  return id;
}

const resourceOf = (event: Event) => event.data.id;

describe('GET /v1/customers/events', () => {
  let start = '';

  it('lists every change of a lifecycle without any webhook endpoint, numbered per resource', async () => {
    start = (await readAll()).cursor; // whatever the world held
    const id = await runPayroll();
    const events = await eventsOnce(start, (list) => list.filter((e) => resourceOf(e) === id || e.type === 'transfer.status_changed').length >= 6 + 9);
    const requestEvents = events.filter((event) => event.type === 'payroll_request.status_changed' && resourceOf(event) === id);
    expect(requestEvents.map((event) => [event.sequence, (event.data as { status: string }).status])).toEqual([
      [1, 'PENDING'],
      [2, 'QUOTE_PROVIDED'],
      [3, 'QUOTE_ACCEPTED'],
      [4, 'EXECUTING'],
      [5, 'PAYOUT_INITIATED'],
      [6, 'COMPLETED'],
    ]);
    const transfers = new Map<string, Event[]>();
    for (const event of events.filter((e) => e.type === 'transfer.status_changed'))
      transfers.set(resourceOf(event), [...(transfers.get(resourceOf(event)) ?? []), event]);
    expect(transfers.size).toBe(3); // the debit, the move to the bank, one payout
    for (const list of transfers.values()) {
      expect(list.map((event) => [event.sequence, (event.data as { status: string }).status])).toEqual([
        [1, 'INITIATED'],
        [2, 'PROCESSING'],
        [3, 'COMPLETED'],
      ]);
      // The batch records its payout INITIATED and PROCESSING in one statement: ordering one
      // resource's events by occurredAt gives the same order as by sequence, with no ties.
      const byTime = [...list].sort((a, b) => Date.parse(a.occurredAt) - Date.parse(b.occurredAt));
      expect(byTime.map((event) => event.sequence)).toEqual([1, 2, 3]);
      expect(new Set(list.map((event) => event.occurredAt)).size).toBe(3);
    }
    for (const [a, b] of requestEvents.slice(1).map((event, i) => [requestEvents[i]!, event] as const))
      expect(Date.parse(b.occurredAt)).toBeGreaterThan(Date.parse(a.occurredAt));
    // The listing order never contradicts a resource's sequence.
    expect(new Set(events.map((event) => event.id)).size).toBe(events.length);
    const final = await customer().GET('/v1/customers/payroll/requests/{requestId}', { params: { path: { requestId: id } } });
    expect(requestEvents.at(-1)!.data).toEqual(final.data!.data);
  });

  it('pages with a cursor that also resumes later, and filters by type', async () => {
    const everything = await readAll(start, 100);
    const paged = await readAll(start, 2);
    expect(paged.events.map((event) => event.id)).toEqual(everything.events.map((event) => event.id));
    const payoutsAndRequests = await readAll(start, 2, ['payroll_request.status_changed']);
    expect(payoutsAndRequests.events.map((event) => event.id)).toEqual(
      everything.events.filter((event) => event.type === 'payroll_request.status_changed').map((event) => event.id),
    );
    // At the end: an empty page keeps the cursor; a new change shows up after it, and only it.
    const atEnd = await page({ cursor: everything.cursor });
    expect(atEnd).toEqual({ items: [], nextCursor: everything.cursor, hasMore: false });
    const { created } = await estimateAndCreate(customer(), [{ beneficiaryId: ids.beneficiaryA2, amount: '5' }]);
    const later = { events: await eventsOnce(everything.cursor, (list) => list.length > 0) };
    expect(later.events.map((event) => [event.type, resourceOf(event), event.sequence])).toEqual([
      ['payroll_request.status_changed', created.data!.data.id, 1],
    ]);
  });

  it("lists only the caller's own events", async () => {
    const { items } = (await server.as(ids.userB).GET('/v1/customers/events', { params: { query: { limit: 100 } } })).data!.data;
    const mine = new Set((await readAll(undefined, 100)).events.map((event) => event.id));
    expect(items.some((event) => mine.has(event.id))).toBe(false);
  });

  it('refuses a malformed cursor, an unknown type and a limit out of range with 400', async () => {
    for (const query of [
      { cursor: 'not-a-cursor' },
      { cursor: Buffer.from('{"t":"99999999999999999999","p":"1"}').toString('base64url') },
      { limit: 0 },
      { limit: 101 },
    ]) {
      const { response, error } = await customer().GET('/v1/customers/events', { params: { query } });
      expect(response.status, JSON.stringify(query)).toBe(400);
      expect(error!.error.code).toBe('VALIDATION_ERROR');
    }
    const unknownType = await fetch(`${server.baseUrl}/v1/customers/events?type=payout.created`, {
      headers: { Authorization: `Bearer ${await server.token(ids.userA)}` },
    });
    expect(unknownType.status).toBe(400);
  });

  it('webhook deliveries carry the listed events', async () => {
    const received: string[] = [];
    const receiver: Listening = await listen((req, res) => {
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk.toString()));
      req.on('end', () => {
        received.push(body);
        res.writeHead(204).end();
      });
    });
    try {
      const before = (await readAll(start, 100)).cursor;
      const endpoint = await customer().POST('/v1/customers/webhook-endpoints', {
        body: { url: `${receiver.url}/hooks`, eventTypes: ['payroll_request.status_changed'] },
      });
      expect(endpoint.response.status).toBe(201);
      await estimateAndCreate(customer(), [{ beneficiaryId: ids.beneficiaryA3, amount: '7' }]);
      await drain(worker);
      const listed = await eventsOnce(before, (list) => list.length > 0);
      expect(received.map((body) => JSON.parse(body) as unknown)).toEqual(listed);
      const deliveries = await customer().GET('/v1/customers/webhook-endpoints/{endpointId}/deliveries', {
        params: { path: { endpointId: endpoint.data!.data.id } },
      });
      expect(deliveries.data!.data.items.map((delivery) => delivery.eventId)).toEqual(listed.map((event) => event.id));
    } finally {
      await receiver.close();
    }
  });
});

/**
 * A transaction that writes an event and commits late must not be skipped by a reader that moved
 * on: its event sorts before events committed meanwhile, so those are not listed until it ends.
 */
describe('an event that commits late is not skipped', () => {
  it('holds back the events written after it until it commits', async () => {
    const before = (await readAll(undefined, 100)).cursor;
    let commit!: () => void;
    const committed = new Promise<void>((resolve) => (commit = resolve));
    let written!: () => void;
    const wasWritten = new Promise<void>((resolve) => (written = resolve));
    // An event of A's completed request (its data as GET returns it), written by a transaction left open.
    const payload = (await customer().GET('/v1/customers/payroll/requests/{requestId}', { params: { path: { requestId: ids.requestACompleted } } })).data!.data;
    const late = server.db.transaction(async (tx) => {
      await recordEvent(tx, {
        id: '7e570098-0000-4000-8000-000000000001',
        customerId: ids.customerA,
        type: 'payroll_request.status_changed',
        resourceId: payload.id,
        occurredAt: server.clock.now(),
        payload,
      });
      written();
      await committed;
    });
    await wasWritten;
    const { created } = await estimateAndCreate(customer(), [{ beneficiaryId: ids.beneficiaryA4, amount: '9' }]);
    expect(created.response.status).toBe(201);
    expect((await readAll(before)).events).toEqual([]);
    commit();
    await late;
    const after = await eventsOnce(before, (list) => list.length >= 2);
    expect(after.map((event) => event.id)).toEqual(['7e570098-0000-4000-8000-000000000001', expect.any(String)]);
    expect(resourceOf(after[1]!)).toBe(created.data!.data.id);
  });
});
