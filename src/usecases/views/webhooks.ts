import type { components } from '../../../generated/api.js';
import type { DeliveryRow, EndpointRow } from '../../store/webhooks.js';

type Schemas = components['schemas'];

/** An endpoint as the API shows it: never its secret (returned once, at creation). */
export function toEndpoint(row: EndpointRow): Schemas['WebhookEndpoint'] {
  return {
    id: row.id,
    url: row.url,
    eventTypes: row.event_types,
    description: row.description,
    status: row.status,
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
  };
}

export function toDelivery(row: DeliveryRow): Schemas['WebhookDelivery'] {
  return {
    id: row.id,
    endpointId: row.endpoint_id,
    eventId: row.event_id,
    eventType: row.event_type,
    status: row.status,
    attemptCount: row.attempt_count,
    nextAttemptAt: row.next_attempt_at?.toISOString() ?? null,
    attempts: row.attempts,
    createdAt: row.created_at.toISOString(),
    deliveredAt: row.delivered_at?.toISOString() ?? null,
  };
}
