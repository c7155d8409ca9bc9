import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { constructEvent } from '../../packages/client/src/webhooks.js';
import type { ExecutionDeps } from '../../src/usecases/payroll/execution.js';
import { ids } from '../fixtures/world.js';
import { type Listening, listen } from '../support/http.js';
import type { TestServer } from '../support/server.js';
import { drain, startServerWithWorker } from '../support/worker.js';

interface Received {
  path: string;
  signature: string;
  eventId: string;
  body: string;
}

let server: TestServer;
let worker: ExecutionDeps;
let receiver: Listening;
const received: Received[] = [];

beforeAll(async () => {
  ({ server, worker } = await startServerWithWorker());
  receiver = await listen((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      received.push({ path: req.url ?? '', signature: String(req.headers['payroll-signature']), eventId: String(req.headers['payroll-event-id']), body });
      res.writeHead(204).end();
    });
  });
});
afterAll(async () => {
  await receiver.close();
  await server.close();
});

const customer = () => server.as(ids.userA);

async function register(path: string) {
  const created = await customer().POST('/v1/customers/webhook-endpoints', { body: { url: `${receiver.url}${path}`, eventTypes: ['payout.status_changed'] } });
  expect(created.response.status).toBe(201);
  return created.data!.data;
}

describe('POST /v1/customers/webhook-endpoints/{endpointId}/test', () => {
  it('sends a signed ping to that endpoint alone, through the deliveries it lists, and not into the event log', async () => {
    const tested = await register('/tested');
    await register('/other');
    const answer = await customer().POST('/v1/customers/webhook-endpoints/{endpointId}/test', { params: { path: { endpointId: tested.id } } });
    expect(answer.response.status).toBe(202);
    const delivery = answer.data!.data;
    expect(delivery).toMatchObject({ endpointId: tested.id, eventType: 'ping', status: 'PENDING', attemptCount: 0, attempts: [] });

    await drain(worker);
    expect(received.map((request) => request.path)).toEqual(['/tested']);
    const event = await constructEvent(received[0]!.body, received[0]!.signature, tested.secret, { now: server.clock.now() });
    expect(event).toEqual({ id: delivery.eventId, type: 'ping', occurredAt: server.clock.now().toISOString(), sequence: 1, data: { endpointId: tested.id } });
    expect(received[0]!.eventId).toBe(delivery.eventId);

    const deliveries = await customer().GET('/v1/customers/webhook-endpoints/{endpointId}/deliveries', { params: { path: { endpointId: tested.id } } });
    expect(deliveries.data!.data.items).toEqual([expect.objectContaining({ id: delivery.id, eventType: 'ping', status: 'SUCCEEDED', attemptCount: 1 })]);
    const events = await customer().GET('/v1/customers/events', {});
    expect(events.data!.data.items.map((item) => item.id)).not.toContain(delivery.eventId);

    // A second ping is the endpoint's second.
    server.clock.advance(1);
    await customer().POST('/v1/customers/webhook-endpoints/{endpointId}/test', { params: { path: { endpointId: tested.id } } });
    await drain(worker);
    expect((JSON.parse(received[1]!.body) as { sequence: number }).sequence).toBe(2);
  });

  it("refuses another customer's endpoint (404) and an admin (403)", async () => {
    const endpoint = await register('/mine');
    const path = { params: { path: { endpointId: endpoint.id } } };
    expect((await server.as(ids.userB).POST('/v1/customers/webhook-endpoints/{endpointId}/test', path)).response.status).toBe(404);
    expect((await server.as(ids.admin).POST('/v1/customers/webhook-endpoints/{endpointId}/test', path)).response.status).toBe(403);
  });
});
