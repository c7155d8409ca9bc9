import type { components } from '../../../generated/api.js';
import type { Queryable } from '../database/db.js';

type EventType = components['schemas']['WebhookEventType'];

export interface NewEvent {
  id: string;
  customerId: string;
  type: EventType;
  /** The payroll request, transfer or payout the event is about (the payload's id). */
  resourceId: string;
  occurredAt: Date;
  payload: unknown;
}

/**
 * The one writer of the event log and the webhook outbox: CTEs for a statement whose earlier CTE
 * `source` yields the events to record, one row each with columns (id uuid, customer_id uuid,
 * type text, resource_id uuid, at timestamptz, payload jsonb, ord bigint). Every path that records
 * an event (a leg's transfer, a batch's step, a request's status, a payout) goes through it, so
 * one rule numbers and dates them all:
 * - `sequence` follows the resource's latest event (a unique index on (type, resource, sequence)
 *   fails a race rather than number two events alike), several rows of one resource in `ord` order;
 * - `occurred_at` never goes backwards for one resource, and two of its events never share an
 *   instant (the wire shows milliseconds): each is at least a millisecond after the one before, so
 *   ordering one resource's events by `occurredAt` or by `sequence` agrees;
 * - one delivery per endpoint of the event's customer subscribed to its type at this moment, due
 *   at the time of the change; a `ping` (testWebhookEndpoint) is about an endpoint, its resource,
 *   and is delivered to that endpoint alone, whatever it subscribed to.
 * The latest event of each resource is read in a MATERIALIZED CTE that the insert's sort consumes
 * whole before its first row: read while the events are being inserted, a young database's small
 * events table is read by a plan that scans it once per row, over the rows just written.
 * The global order (tx_id, position) comes from the columns' defaults, in `ord` order.
 * The deliveries are made from the same rows as the events (each row is inserted: the insert has
 * no conflict clause), not from the insert's RETURNING joined back to them: the planner counts one
 * row in each CTE and may join the two by a nested loop, n² comparisons for a batch of n events.
 * Their foreign key to the event is checked at the end of the statement, when the events are in.
 */
function eventsWrittenFrom(source: string): string {
  return `event_latest AS MATERIALIZED (
       SELECT s.id, s.customer_id, s.type, s.resource_id, s.at, s.payload, s.ord, l.sequence AS last_sequence, l.occurred_at AS last_at
         FROM ${source} s
         LEFT JOIN LATERAL (
           SELECT e.sequence, e.occurred_at FROM events e
            WHERE e.type = s.type AND e.resource_id = s.resource_id ORDER BY e.sequence DESC LIMIT 1) l ON true
     ), events_written AS (
       INSERT INTO events (id, customer_id, type, resource_id, sequence, occurred_at, payload)
       SELECT s.id, s.customer_id, s.type, s.resource_id, COALESCE(s.last_sequence, 0) + row_number() OVER step,
              GREATEST(s.at, s.last_at + interval '1 millisecond') + (row_number() OVER step - 1) * interval '1 millisecond', s.payload
         FROM event_latest s
       WINDOW step AS (PARTITION BY s.type, s.resource_id ORDER BY s.ord)
        ORDER BY s.ord
     ), deliveries_written AS (
       INSERT INTO webhook_deliveries (id, event_id, endpoint_id, status, next_attempt_at, created_at)
       SELECT gen_random_uuid(), s.id, w.id, 'PENDING', s.at, s.at
         FROM event_latest s JOIN webhook_endpoints w
           ON w.customer_id = s.customer_id AND w.deleted_at IS NULL
          AND (s.type = ANY(w.event_types) OR (s.type = 'ping' AND w.id = s.resource_id))
     )`;
}

/**
 * A `ping` to one endpoint (its resource), through the writer every event takes; returns the id
 * of the one delivery it makes.
 */
export async function recordPing(tx: Queryable, ping: { id: string; customerId: string; endpointId: string; at: Date }): Promise<string> {
  await tx.query(
    `WITH source AS (SELECT $1::uuid AS id, $2::uuid AS customer_id, 'ping'::text AS type, $3::uuid AS resource_id, $4::timestamptz AS at,
                            jsonb_build_object('endpointId', $3::text) AS payload, 1 AS ord),
     ${eventsWrittenFrom('source')}
     SELECT 1`,
    [ping.id, ping.customerId, ping.endpointId, ping.at],
  );
  const rows = await tx.query<{ id: string }>('SELECT id FROM webhook_deliveries WHERE event_id = $1', [ping.id]);
  return rows[0]!.id;
}

/** One event, with its payload given (a payout, an event of the tests). */
export async function recordEvent(tx: Queryable, event: NewEvent): Promise<void> {
  await tx.query(
    `WITH source AS (SELECT $1::uuid AS id, $2::uuid AS customer_id, $3::text AS type, $4::uuid AS resource_id, $5::timestamptz AS at,
                            $6::jsonb AS payload, 1 AS ord),
     ${eventsWrittenFrom('source')}
     SELECT 1`,
    [event.id, event.customerId, event.type, event.resourceId, event.occurredAt, JSON.stringify(event.payload)],
  );
}

/** An event whose payload is JSON text already written (by the resource's writer in usecases/views). */
export type WrittenEvent = Omit<NewEvent, 'payload' | 'occurredAt'> & { payloadJson: string };

/** Events of one moment, in this order, through the one writer (several of one resource numbered in order). */
export async function recordEvents(tx: Queryable, events: readonly WrittenEvent[], at: Date): Promise<void> {
  if (events.length === 0) return;
  await tx.query(
    `WITH source AS (
       SELECT e.id, e.customer_id, e.type, e.resource_id, $1::timestamptz AS at, e.payload::jsonb AS payload, e.ord
         FROM unnest($2::uuid[], $3::uuid[], $4::text[], $5::uuid[], $6::text[]) WITH ORDINALITY AS e(id, customer_id, type, resource_id, payload, ord)
     ), ${eventsWrittenFrom('source')}
     SELECT 1`,
    [
      at,
      events.map((event) => event.id),
      events.map((event) => event.customerId),
      events.map((event) => event.type),
      events.map((event) => event.resourceId),
      events.map((event) => event.payloadJson),
    ],
  );
}

/** A place in the global order of events: after (txId, position). txId is a transaction id as text. */
export interface EventPosition {
  txId: string;
  position: string;
}

export interface EventRow extends EventPosition {
  /** The event as delivered: `{ id, type, occurredAt, sequence, data }`, JSON text. */
  body: string;
}

/** The JSON body of an event, as webhook deliveries send it and listEvents lists it. */
export const EVENT_BODY_SQL = `jsonb_build_object('id', ev.id, 'type', ev.type,
  'occurredAt', to_char(ev.occurred_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
  'sequence', ev.sequence, 'data', ev.payload)::text`;

/**
 * A customer's events after `after`, in the global order, `limit` at most; never a ping, which
 * is a test of an endpoint, not a change. Only events of
 * transactions older than every transaction still running are returned (pg_snapshot_xmin): one
 * still in flight may hold an event that sorts before those, and a reader that moved past it
 * would never see it.
 */
export async function listEvents(
  tx: Queryable,
  query: { customerId: string; after: EventPosition | null; types: EventType[] | null; limit: number },
): Promise<EventRow[]> {
  return tx.query<EventRow>(
    `SELECT ev.tx_id::text AS "txId", ev.position::text AS position, ${EVENT_BODY_SQL} AS body
       FROM events ev
      WHERE ev.customer_id = $1
        AND ev.type <> 'ping'
        AND ev.tx_id < pg_snapshot_xmin(pg_current_snapshot())
        AND ($2::xid8 IS NULL OR (ev.tx_id, ev.position) > ($2::xid8, $3::bigint))
        AND ($4::text[] IS NULL OR ev.type = ANY($4::text[]))
      ORDER BY ev.tx_id, ev.position
      LIMIT $5`,
    [query.customerId, query.after?.txId ?? null, query.after?.position ?? null, query.types, query.limit],
  );
}
