import { randomUUID } from 'node:crypto';
import type { components } from '../../../generated/api.js';
import { notFound, validationError } from '../../domain/errors.js';
import { newWebhookSecret, webhookUrlProblem } from '../../domain/webhooks/webhooks.js';
import type { Queryable } from '../../store/database/db.js';
import { recordPing } from '../../store/webhooks/events.js';
import {
  type EndpointRecord,
  deleteEndpoint,
  findDelivery,
  findEndpoint,
  getDelivery,
  insertEndpoint,
  listDeliveries,
  listEndpoints,
  requeueDelivery,
} from '../../store/webhooks/webhooks.js';
import { type CreatedPosition, createdPosition, cursorCodec, ownListCursor } from '../answers/cursor.js';
import type { UseCaseDeps } from '../deps.js';
import { type Principal, requireCustomer } from '../access/principal.js';
import { toDelivery, toEndpoint } from '../views/webhooks.js';

type Schemas = components['schemas'];

/** The most endpoints one customer may register. */
const MAX_ENDPOINTS_PER_CUSTOMER = 10;
/** A page of endpoints when the caller names no `limit` (more than a customer may register: every one). */
const DEFAULT_ENDPOINT_PAGE = 100;
const endpointCursor = cursorCodec<CreatedPosition>(ownListCursor('listWebhookEndpoints', createdPosition));
const deliveryCursor = cursorCodec<CreatedPosition>(createdPosition);

/** Register an endpoint; its secret is returned this once. */
export async function createWebhookEndpoint(
  deps: UseCaseDeps,
  caller: Principal,
  body: Schemas['CreateWebhookEndpointRequest'],
): Promise<Schemas['WebhookEndpointWithSecret']> {
  const customerId = requireCustomer(caller);
  const problem = webhookUrlProblem(body.url, deps.config.webhookAllowLoopback, deps.config.webhookAllowedPorts);
  if (problem) throw validationError(problem, { reason: 'WEBHOOK_URL_NOT_ALLOWED', field: '/url' });
  return deps.db.transaction(async (tx) => {
    if ((await listEndpoints(tx, customerId)).length >= MAX_ENDPOINTS_PER_CUSTOMER) {
      throw validationError(`A customer may register at most ${MAX_ENDPOINTS_PER_CUSTOMER} webhook endpoints`, { reason: 'WEBHOOK_ENDPOINT_LIMIT' });
    }
    const endpoint = await insertEndpoint(tx, {
      id: randomUUID(),
      customerId,
      url: body.url,
      eventTypes: [...new Set(body.eventTypes)],
      description: body.description ?? null,
      secret: newWebhookSecret(),
      createdAt: deps.clock(),
    });
    return { ...toEndpoint(endpoint), secret: endpoint.secret };
  });
}

/** A page of the customer's endpoints, oldest first, continued with `cursor` like every list. */
export async function listWebhookEndpoints(
  deps: UseCaseDeps,
  caller: Principal,
  query: { limit?: number; cursor?: string } = {},
): Promise<{ items: Schemas['WebhookEndpoint'][]; nextCursor: string | null }> {
  const customerId = requireCustomer(caller);
  const limit = query.limit ?? DEFAULT_ENDPOINT_PAGE;
  const after = query.cursor ? endpointCursor.decode(query.cursor, undefined) : null;
  const rows = await deps.db.transaction((tx) => listEndpoints(tx, customerId, { after, limit: limit + 1 }));
  const last = rows.length > limit ? rows[limit - 1] : undefined;
  return { items: rows.slice(0, limit).map(toEndpoint), nextCursor: last ? endpointCursor.encode(last, undefined) : null };
}

export async function deleteWebhookEndpoint(deps: UseCaseDeps, caller: Principal, endpointId: string): Promise<Schemas['WebhookEndpoint']> {
  const customerId = requireCustomer(caller);
  return deps.db.transaction(async (tx) => {
    const endpoint = await ownEndpoint(tx, customerId, endpointId);
    await deleteEndpoint(tx, endpoint.id, deps.clock());
    return toEndpoint(endpoint);
  });
}

/** A page of an endpoint's deliveries, newest first, continued with `cursor` like every list. */
export async function listWebhookDeliveries(
  deps: UseCaseDeps,
  caller: Principal,
  endpointId: string,
  query: { limit?: number; cursor?: string } = {},
): Promise<{ items: Schemas['WebhookDelivery'][]; nextCursor: string | null }> {
  const customerId = requireCustomer(caller);
  const limit = query.limit ?? 100;
  const after = query.cursor ? deliveryCursor.decode(query.cursor, undefined) : null;
  return deps.db.transaction(async (tx) => {
    await ownEndpoint(tx, customerId, endpointId);
    const rows = await listDeliveries(tx, endpointId, { after, limit: limit + 1 });
    const last = rows.length > limit ? rows[limit - 1] : undefined;
    return { items: rows.slice(0, limit).map(toDelivery), nextCursor: last ? deliveryCursor.encode(last, undefined) : null };
  });
}

/** Resend a delivery at once (the worker picks it up on its next pass). */
export async function retryWebhookDelivery(deps: UseCaseDeps, caller: Principal, endpointId: string, deliveryId: string): Promise<Schemas['WebhookDelivery']> {
  const customerId = requireCustomer(caller);
  return deps.db.transaction(async (tx) => {
    await ownEndpoint(tx, customerId, endpointId);
    const delivery = await findDelivery(tx, deliveryId);
    if (!delivery || delivery.endpointId !== endpointId.toLowerCase()) throw notFound(`Delivery ${deliveryId} not found`);
    await requeueDelivery(tx, deliveryId, deps.clock());
    return toDelivery(await getDelivery(tx, deliveryId));
  });
}

/** Sends a signed `ping` to the endpoint through the outbox, as every event goes; answers its delivery. */
export async function testWebhookEndpoint(deps: UseCaseDeps, caller: Principal, endpointId: string): Promise<Schemas['WebhookDelivery']> {
  const customerId = requireCustomer(caller);
  return deps.db.transaction(async (tx) => {
    const endpoint = await ownEndpoint(tx, customerId, endpointId);
    const deliveryId = await recordPing(tx, { id: randomUUID(), customerId, endpointId: endpoint.id, at: deps.clock() });
    return toDelivery(await getDelivery(tx, deliveryId));
  });
}

async function ownEndpoint(tx: Queryable, customerId: string, endpointId: string): Promise<EndpointRecord> {
  const endpoint = await findEndpoint(tx, endpointId);
  if (!endpoint || endpoint.customerId !== customerId) throw notFound(`Webhook endpoint ${endpointId} not found`);
  return endpoint;
}
