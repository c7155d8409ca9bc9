import type { components } from '../../../generated/api.js';
import { notFound } from '../../domain/errors.js';
import type { Queryable } from '../database/db.js';
import { EVENT_BODY_SQL } from './events.js';

type Schemas = components['schemas'];
type EventType = Schemas['WebhookEventType'];

export interface EndpointRecord {
  id: string;
  customerId: string;
  url: string;
  eventTypes: EventType[];
  description: string | null;
  secret: string;
  status: Schemas['WebhookEndpointStatus'];
  createdAt: Date;
  updatedAt: Date;
}

const ENDPOINT_COLUMNS = `id, customer_id AS "customerId", url, event_types AS "eventTypes", description, secret, status, created_at AS "createdAt",
  updated_at AS "updatedAt"`;

export async function insertEndpoint(tx: Queryable, endpoint: Omit<EndpointRecord, 'status' | 'updatedAt'>): Promise<EndpointRecord> {
  const rows = await tx.query<EndpointRecord>(
    `INSERT INTO webhook_endpoints (id, customer_id, url, event_types, description, secret, status, created_at, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6, 'ENABLED', $7, $7) RETURNING ${ENDPOINT_COLUMNS}`,
    [endpoint.id, endpoint.customerId, endpoint.url, endpoint.eventTypes, endpoint.description, endpoint.secret, endpoint.createdAt],
  );
  return rows[0]!;
}

/** A customer's endpoints, oldest first: every one, or a page of `page.limit` after `page.after` (the last row of the previous page). */
export async function listEndpoints(
  tx: Queryable,
  customerId: string,
  page: { after: { createdAt: Date; id: string } | null; limit: number | null } = { after: null, limit: null },
): Promise<EndpointRecord[]> {
  return tx.query<EndpointRecord>(
    `SELECT ${ENDPOINT_COLUMNS} FROM webhook_endpoints
      WHERE customer_id = $1 AND deleted_at IS NULL AND ($2::timestamptz IS NULL OR (created_at, id) > ($2, $3::uuid))
      ORDER BY created_at, id LIMIT $4`,
    [customerId, page.after?.createdAt ?? null, page.after?.id ?? null, page.limit],
  );
}

export async function findEndpoint(tx: Queryable, endpointId: string): Promise<EndpointRecord | null> {
  const rows = await tx.query<EndpointRecord>(`SELECT ${ENDPOINT_COLUMNS} FROM webhook_endpoints WHERE id = $1 AND deleted_at IS NULL`, [endpointId]);
  return rows[0] ?? null;
}

/** Soft delete (deliveries keep their history); what was still pending is abandoned. */
export async function deleteEndpoint(tx: Queryable, endpointId: string, at: Date): Promise<void> {
  await tx.query('UPDATE webhook_endpoints SET deleted_at = $2, updated_at = $2 WHERE id = $1', [endpointId, at]);
  await tx.query("UPDATE webhook_deliveries SET status = 'ABANDONED', next_attempt_at = NULL WHERE endpoint_id = $1 AND status = 'PENDING'", [endpointId]);
}

export interface DueDelivery {
  id: string;
  endpointId: string;
  url: string;
  secret: string;
  eventId: string;
  body: string;
  attemptCount: number;
  createdAt: Date;
}

/** Claims due deliveries (exclusive claim plus a lease, as for transfers). */
export async function claimDueDeliveries(tx: Queryable, now: Date, leaseUntil: Date, limit: number): Promise<DueDelivery[]> {
  return tx.query<DueDelivery>(
    `WITH due AS (
       SELECT id FROM webhook_deliveries
        WHERE status = 'PENDING' AND next_attempt_at <= $1 AND (locked_until IS NULL OR locked_until < $1)
        ORDER BY next_attempt_at LIMIT $3
        FOR UPDATE SKIP LOCKED)
     UPDATE webhook_deliveries d SET locked_until = $2 FROM due, webhook_endpoints e, events ev
      WHERE d.id = due.id AND e.id = d.endpoint_id AND ev.id = d.event_id
     RETURNING d.id, d.endpoint_id AS "endpointId", e.url, e.secret, d.event_id AS "eventId", d.attempt_count AS "attemptCount", d.created_at AS "createdAt",
               ${EVENT_BODY_SQL} AS body`,
    [now, leaseUntil, limit],
  );
}

export interface AttemptResult {
  attemptedAt: Date;
  statusCode: number | null;
  durationMs: number;
  error: string | null;
  succeeded: boolean;
  /** When to try again; null = give up (ABANDONED). Ignored on success. */
  nextAttemptAt: Date | null;
}

export async function recordAttempt(tx: Queryable, delivery: { id: string; endpointId: string }, result: AttemptResult, failingAfter: number): Promise<void> {
  await tx.query('INSERT INTO webhook_delivery_attempts (delivery_id, attempted_at, status_code, duration_ms, error) VALUES ($1, $2, $3, $4, $5)', [
    delivery.id,
    result.attemptedAt,
    result.statusCode,
    result.durationMs,
    result.error,
  ]);
  if (result.succeeded) {
    await tx.query(
      "UPDATE webhook_deliveries SET status = 'SUCCEEDED', attempt_count = attempt_count + 1, delivered_at = $2, next_attempt_at = NULL, locked_until = NULL WHERE id = $1",
      [delivery.id, result.attemptedAt],
    );
    await tx.query(
      "UPDATE webhook_endpoints SET consecutive_failures = 0, status = 'ENABLED', updated_at = $2 WHERE id = $1 AND (consecutive_failures <> 0 OR status <> 'ENABLED')",
      [delivery.endpointId, result.attemptedAt],
    );
    return;
  }
  await tx.query(
    `UPDATE webhook_deliveries SET attempt_count = attempt_count + 1, next_attempt_at = $2, locked_until = NULL,
            status = CASE WHEN $2::timestamptz IS NULL THEN 'ABANDONED' ELSE 'PENDING' END
      WHERE id = $1`,
    [delivery.id, result.nextAttemptAt],
  );
  await tx.query(
    `UPDATE webhook_endpoints SET consecutive_failures = consecutive_failures + 1, updated_at = $2,
            status = CASE WHEN consecutive_failures + 1 >= $3 THEN 'FAILING' ELSE status END
      WHERE id = $1`,
    [delivery.endpointId, result.attemptedAt, failingAfter],
  );
}

export interface DeliveryRecord {
  id: string;
  endpointId: string;
  eventId: string;
  eventType: Schemas['WebhookDeliveryEventType'];
  status: Schemas['WebhookDeliveryStatus'];
  attemptCount: number;
  nextAttemptAt: Date | null;
  createdAt: Date;
  deliveredAt: Date | null;
  attempts: Schemas['WebhookDeliveryAttempt'][];
}

const DELIVERY_SELECT = `SELECT d.id, d.endpoint_id AS "endpointId", d.event_id AS "eventId", ev.type AS "eventType", d.status,
        d.attempt_count AS "attemptCount", d.next_attempt_at AS "nextAttemptAt", d.created_at AS "createdAt", d.delivered_at AS "deliveredAt",
        COALESCE((SELECT jsonb_agg(jsonb_build_object('attemptedAt', to_char(a.attempted_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
                   'statusCode', a.status_code, 'durationMs', a.duration_ms, 'error', a.error) ORDER BY a.id)
                    FROM webhook_delivery_attempts a WHERE a.delivery_id = d.id), '[]'::jsonb) AS attempts
   FROM webhook_deliveries d JOIN events ev ON ev.id = d.event_id`;

/** One page of an endpoint's deliveries, newest first, after `page.after` (the last row of the previous page). */
export async function listDeliveries(
  tx: Queryable,
  endpointId: string,
  page: { after: { createdAt: Date; id: string } | null; limit: number },
): Promise<DeliveryRecord[]> {
  return tx.query<DeliveryRecord>(
    `${DELIVERY_SELECT} WHERE d.endpoint_id = $1 AND ($2::timestamptz IS NULL OR (d.created_at, d.id) < ($2, $3::uuid))
      ORDER BY d.created_at DESC, d.id DESC LIMIT $4`,
    [endpointId, page.after?.createdAt ?? null, page.after?.id ?? null, page.limit],
  );
}

export async function findDelivery(tx: Queryable, deliveryId: string): Promise<DeliveryRecord | null> {
  const rows = await tx.query<DeliveryRecord>(`${DELIVERY_SELECT} WHERE d.id = $1`, [deliveryId]);
  return rows[0] ?? null;
}

/** The same, for a delivery that must exist (one just requeued): a missing one is NOT_FOUND. */
export async function getDelivery(tx: Queryable, deliveryId: string): Promise<DeliveryRecord> {
  const delivery = await findDelivery(tx, deliveryId);
  if (!delivery) throw notFound(`Delivery ${deliveryId} not found`);
  return delivery;
}

/** Resend now, whatever the delivery's state. */
export async function requeueDelivery(tx: Queryable, deliveryId: string, now: Date): Promise<void> {
  await tx.query("UPDATE webhook_deliveries SET status = 'PENDING', next_attempt_at = $2, locked_until = NULL WHERE id = $1", [deliveryId, now]);
}
