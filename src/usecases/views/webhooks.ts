import type { components } from '../../../generated/api.js';
import type { DeliveryRecord, EndpointRecord } from '../../store/webhooks/webhooks.js';

type Schemas = components['schemas'];

/** An endpoint as the API shows it: never its secret (returned once, at creation). */
export function toEndpoint(endpoint: EndpointRecord): Schemas['WebhookEndpoint'] {
  return {
    id: endpoint.id,
    url: endpoint.url,
    eventTypes: endpoint.eventTypes,
    description: endpoint.description,
    status: endpoint.status,
    createdAt: endpoint.createdAt.toISOString(),
    updatedAt: endpoint.updatedAt.toISOString(),
  };
}

export function toDelivery(delivery: DeliveryRecord): Schemas['WebhookDelivery'] {
  return {
    id: delivery.id,
    endpointId: delivery.endpointId,
    eventId: delivery.eventId,
    eventType: delivery.eventType,
    status: delivery.status,
    attemptCount: delivery.attemptCount,
    nextAttemptAt: delivery.nextAttemptAt?.toISOString() ?? null,
    attempts: delivery.attempts,
    createdAt: delivery.createdAt.toISOString(),
    deliveredAt: delivery.deliveredAt?.toISOString() ?? null,
  };
}
