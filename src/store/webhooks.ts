import type { components } from '../../generated/api.js';
import type { Queryable } from './db.js';
import { EVENT_BODY_SQL } from './events.js';

type Schemas = components['schemas'];
type EventType = Schemas['WebhookEventType'];

export interface EndpointRow {
  id: string;
  customer_id: string;
  url: string;
  event_types: EventType[];
  description: string | null;
  secret: string;
  status: Schemas['WebhookEndpointStatus'];
  created_at: Date;
  updated_at: Date;
}

const ENDPOINT_COLUMNS = 'id, customer_id, url, event_types, description, secret, status, created_at, updated_at';

export async function insertEndpoint(tx: Queryable, endpoint: Omit<EndpointRow, 'status' | 'updated_at'>): Promise<EndpointRow> {
  const rows = await tx.query<EndpointRow>(
    `INSERT INTO webhook_endpoints (id, customer_id, url, event_types, description, secret, status, created_at, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6, 'ENABLED', $7, $7) RETURNING ${ENDPOINT_COLUMNS}`,
    [endpoint.id, endpoint.customer_id, endpoint.url, endpoint.event_types, endpoint.description, endpoint.secret, endpoint.created_at],
  );
  return rows[0]!;
}

export async function listEndpoints(tx: Queryable, customerId: string): Promise<EndpointRow[]> {
  return tx.query<EndpointRow>(`SELECT ${ENDPOINT_COLUMNS} FROM webhook_endpoints WHERE customer_id = $1 AND deleted_at IS NULL ORDER BY created_at, id`, [
    customerId,
  ]);
}

export async function findEndpoint(tx: Queryable, endpointId: string): Promise<EndpointRow | null> {
  const rows = await tx.query<EndpointRow>(`SELECT ${ENDPOINT_COLUMNS} FROM webhook_endpoints WHERE id = $1 AND deleted_at IS NULL`, [endpointId]);
  return rows[0] ?? null;
}

/** Soft delete (deliveries keep their history); what was still pending is abandoned. */
export async function deleteEndpoint(tx: Queryable, endpointId: string, at: Date): Promise<void> {
  await tx.query('UPDATE webhook_endpoints SET deleted_at = $2, updated_at = $2 WHERE id = $1', [endpointId, at]);
  await tx.query("UPDATE webhook_deliveries SET status = 'ABANDONED', next_attempt_at = NULL WHERE endpoint_id = $1 AND status = 'PENDING'", [endpointId]);
}

export interface DueDelivery {
  id: string;
  endpoint_id: string;
  url: string;
  secret: string;
  event_id: string;
  body: string;
  attempt_count: number;
  created_at: Date;
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
     RETURNING d.id, d.endpoint_id, e.url, e.secret, d.event_id, d.attempt_count, d.created_at,
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

export async function recordAttempt(tx: Queryable, delivery: { id: string; endpoint_id: string }, result: AttemptResult, failingAfter: number): Promise<void> {
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
      [delivery.endpoint_id, result.attemptedAt],
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
    [delivery.endpoint_id, result.attemptedAt, failingAfter],
  );
}

export interface DeliveryRow {
  id: string;
  endpoint_id: string;
  event_id: string;
  event_type: EventType;
  status: Schemas['WebhookDeliveryStatus'];
  attempt_count: number;
  next_attempt_at: Date | null;
  created_at: Date;
  delivered_at: Date | null;
  attempts: Schemas['WebhookDeliveryAttempt'][];
}

const DELIVERY_SELECT = `SELECT d.id, d.endpoint_id, d.event_id, ev.type AS event_type, d.status, d.attempt_count, d.next_attempt_at, d.created_at, d.delivered_at,
        COALESCE((SELECT jsonb_agg(jsonb_build_object('attemptedAt', to_char(a.attempted_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
                   'statusCode', a.status_code, 'durationMs', a.duration_ms, 'error', a.error) ORDER BY a.id)
                    FROM webhook_delivery_attempts a WHERE a.delivery_id = d.id), '[]'::jsonb) AS attempts
   FROM webhook_deliveries d JOIN events ev ON ev.id = d.event_id`;

export async function listDeliveries(tx: Queryable, endpointId: string, limit = 100): Promise<DeliveryRow[]> {
  return tx.query<DeliveryRow>(`${DELIVERY_SELECT} WHERE d.endpoint_id = $1 ORDER BY d.created_at DESC, d.id DESC LIMIT $2`, [endpointId, limit]);
}

export async function findDelivery(tx: Queryable, deliveryId: string): Promise<DeliveryRow | null> {
  const rows = await tx.query<DeliveryRow>(`${DELIVERY_SELECT} WHERE d.id = $1`, [deliveryId]);
  return rows[0] ?? null;
}

/** Resend now, whatever the delivery's state. */
export async function requeueDelivery(tx: Queryable, deliveryId: string, now: Date): Promise<void> {
  await tx.query("UPDATE webhook_deliveries SET status = 'PENDING', next_attempt_at = $2, locked_until = NULL WHERE id = $1", [deliveryId, now]);
}
