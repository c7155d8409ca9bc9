import type { UseCaseDeps } from '../../usecases/deps.js';
import { listCustomerEvents } from '../../usecases/webhooks/listEvents.js';
import {
  createWebhookEndpoint,
  deleteWebhookEndpoint,
  listWebhookDeliveries,
  listWebhookEndpoints,
  retryWebhookDelivery,
  testWebhookEndpoint,
} from '../../usecases/webhooks/webhookEndpoints.js';
import type { Handlers } from '../pipeline/operations.js';

/** The Webhooks tag: a customer's event log, its endpoints and the deliveries made to them. */
export function webhookHandlers(deps: UseCaseDeps) {
  return {
    listEvents: async ({ caller, query }) => ({ status: 200, data: await listCustomerEvents(deps, caller, query) }),
    createWebhookEndpoint: async ({ caller, body }) => ({ status: 201, data: await createWebhookEndpoint(deps, caller, body) }),
    listWebhookEndpoints: async ({ caller, query }) => ({ status: 200, data: await listWebhookEndpoints(deps, caller, query) }),
    deleteWebhookEndpoint: async ({ caller, params }) => ({ status: 200, data: await deleteWebhookEndpoint(deps, caller, params.endpointId) }),
    listWebhookDeliveries: async ({ caller, params, query }) => ({ status: 200, data: await listWebhookDeliveries(deps, caller, params.endpointId, query) }),
    testWebhookEndpoint: async ({ caller, params }) => ({ status: 202, data: await testWebhookEndpoint(deps, caller, params.endpointId) }),
    retryWebhookDelivery: async ({ caller, params }) => ({
      status: 200,
      data: await retryWebhookDelivery(deps, caller, params.endpointId, params.deliveryId),
    }),
  } satisfies Partial<Handlers>;
}
