import type { components } from '../../generated/api.js';
import type { Queryable } from './db.js';

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
 * The event log and the webhook outbox, in the caller's transaction: the event, numbered after
 * the resource's latest (its `sequence`), and one delivery per endpoint subscribed at this moment.
 * Changes of one resource are serialised by the lock its status change holds; should two ever
 * race, the unique (type, resource, sequence) index fails one of them rather than number both
 * alike. The global order (tx_id, position) comes from the columns' defaults.
 */
export async function recordEvent(tx: Queryable, event: NewEvent): Promise<void> {
  await tx.query(
    `INSERT INTO events (id, customer_id, type, resource_id, sequence, occurred_at, payload)
     SELECT $1, $2, $3, $4, COALESCE(max(sequence), 0) + 1, $5, $6::jsonb FROM events WHERE type = $3 AND resource_id = $4`,
    [event.id, event.customerId, event.type, event.resourceId, event.occurredAt, JSON.stringify(event.payload)],
  );
  await insertDeliveries(tx, event);
}

/** One delivery of a recorded event per endpoint of its customer subscribed at this moment. */
export async function insertDeliveries(tx: Queryable, event: Pick<NewEvent, 'id' | 'customerId' | 'type' | 'occurredAt'>): Promise<void> {
  await tx.query(
    `INSERT INTO webhook_deliveries (id, event_id, endpoint_id, status, next_attempt_at, created_at)
     SELECT gen_random_uuid(), $1, e.id, 'PENDING', $3, $3
       FROM webhook_endpoints e
      WHERE e.customer_id = $2 AND e.deleted_at IS NULL AND $4 = ANY(e.event_types)`,
    [event.id, event.customerId, event.occurredAt, event.type],
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
 * A customer's events after `after`, in the global order, `limit` at most. Only events of
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
        AND ev.tx_id < pg_snapshot_xmin(pg_current_snapshot())
        AND ($2::xid8 IS NULL OR (ev.tx_id, ev.position) > ($2::xid8, $3::bigint))
        AND ($4::text[] IS NULL OR ev.type = ANY($4::text[]))
      ORDER BY ev.tx_id, ev.position
      LIMIT $5`,
    [query.customerId, query.after?.txId ?? null, query.after?.position ?? null, query.types, query.limit],
  );
}
