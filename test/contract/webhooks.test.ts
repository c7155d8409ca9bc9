import type { IncomingHttpHeaders } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyWebhook } from '../../packages/client/src/node.js';
import type { components } from '../../generated/api.js';
import { claimDueDeliveries } from '../../src/store/webhooks/webhooks.js';
import type { ExecutionDeps } from '../../src/usecases/payroll/execution.js';
import { ids } from '../fixtures/world.js';
import { type Listening, listen } from '../support/http.js';
import { accept, cancel, estimateAndCreate, quote, recordFx } from '../support/payroll.js';
import type { TestServer } from '../support/server.js';
import { drain, startServerWithWorker, workerFor } from '../support/worker.js';

interface Received {
  headers: IncomingHttpHeaders;
  body: string;
}

/** A real HTTP receiver on loopback that can be told to fail its next answers. */
class Receiver {
  readonly received: Received[] = [];
  failNext = 0;
  answer = 200;
  private listening!: Listening;
  url = '';

  async start(): Promise<void> {
    this.listening = await listen((req, res) => {
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk.toString()));
      req.on('end', () => {
        if (this.failNext > 0) {
          this.failNext -= 1;
          res.writeHead(500).end('down');
          return;
        }
        this.received.push({ headers: req.headers, body });
        res.writeHead(this.answer, this.answer === 302 ? { Location: 'http://127.0.0.1:9/elsewhere' } : {}).end('ok');
      });
    });
    this.url = `${this.listening.url}/hooks`;
  }

  stop(): Promise<void> {
    return this.listening.close();
  }

  /** Events after dedupe by id, in occurredAt order — what the docs tell receivers to do. */
  events(): Array<{ id: string; type: string; occurredAt: string; data: Record<string, unknown> }> {
    const byId = new Map(
      this.received.map((delivery) => {
        const event = JSON.parse(delivery.body) as { id: string; type: string; occurredAt: string; data: Record<string, unknown> };
        return [event.id, event] as const;
      }),
    );
    return [...byId.values()].sort((a, b) => a.occurredAt.localeCompare(b.occurredAt));
  }
}

let server: TestServer;
let worker: ExecutionDeps;
let receiver: Receiver;
beforeAll(async () => {
  ({ server, worker } = await startServerWithWorker());
  receiver = new Receiver();
  await receiver.start();
});
afterAll(async () => {
  await receiver.stop();
  await server.close();
});

const customer = () => server.as(ids.userA);

async function register(
  url = receiver.url,
  eventTypes: components['schemas']['WebhookEventType'][] = ['payroll_request.status_changed', 'transfer.status_changed', 'payout.status_changed'],
) {
  return customer().POST('/v1/customers/webhook-endpoints', { body: { url, eventTypes, description: 'payroll ops' } });
}

async function runPayroll(): Promise<string> {
  const { created } = await estimateAndCreate(customer(), [
    { beneficiaryId: ids.beneficiaryA1, amount: '100' },
    { beneficiaryId: ids.beneficiaryA2, amount: '200' },
  ]);
  const id = created.data!.data.id;
  // Each step a second later, so that occurredAt orders the events (the test clock stands still otherwise).
  server.clock.advance(1);
  await quote(server, id, '3.65');
  server.clock.advance(1);
  await accept(server, id);
  server.clock.advance(1);
  await drain(worker);
  server.clock.advance(1);
  await recordFx(server, id, '3.649');
  server.clock.advance(1);
  await drain(worker);
  return id;
}

describe('webhooks', () => {
  let secret = '';
  let endpointId = '';

  it('registers an endpoint and shows its secret once', async () => {
    const { data, response } = await register();
    expect(response.status).toBe(201);
    expect(data!.data).toMatchObject({ url: receiver.url, status: 'ENABLED', secret: expect.stringMatching(/^whsec_[A-Za-z0-9_-]{43}$/) });
    secret = data!.data.secret;
    endpointId = data!.data.id;
    const listed = await customer().GET('/v1/customers/webhook-endpoints', {});
    expect(listed.data!.data.items.map((endpoint) => endpoint.id)).toEqual([endpointId]);
    expect(listed.data!.data.items[0]).not.toHaveProperty('secret');
  });

  it('a full lifecycle produces each expected event once, signed, carrying the resource as GET returns it', async () => {
    const id = await runPayroll();
    await drain(worker);
    for (const delivery of receiver.received) {
      expect(verifyWebhook(delivery.body, String(delivery.headers['payroll-signature']), secret, 300, server.clock.now())).toBe(true);
      expect(delivery.headers['payroll-event-id']).toBe((JSON.parse(delivery.body) as { id: string }).id);
    }
    const events = receiver.events();
    const requestEvents = events.filter((event) => event.type === 'payroll_request.status_changed' && event.data.id === id);
    expect(requestEvents.map((event) => event.data.status)).toEqual([
      'PENDING',
      'QUOTE_PROVIDED',
      'QUOTE_ACCEPTED',
      'EXECUTING',
      'PAYOUT_INITIATED',
      'COMPLETED',
    ]);
    const transferEvents = events.filter((event) => event.type === 'transfer.status_changed' && event.data.payrollRequestId === id);
    expect(transferEvents).toHaveLength(4 * 3); // debit, bank move and two payouts: INITIATED, PROCESSING, COMPLETED each
    const final = await customer().GET('/v1/customers/payroll/requests/{requestId}', { params: { path: { requestId: id } } });
    expect(requestEvents.at(-1)!.data).toEqual(final.data!.data);
    const deliveries = await customer().GET('/v1/customers/webhook-endpoints/{endpointId}/deliveries', { params: { path: { endpointId } } });
    expect(deliveries.data!.data.items.every((delivery) => delivery.status === 'SUCCEEDED' && delivery.attempts[0]!.statusCode === 200)).toBe(true);
    // Pages of `limit`, continued with `cursor` as every list is, read the same deliveries in the same order.
    const paged: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await customer().GET('/v1/customers/webhook-endpoints/{endpointId}/deliveries', {
        params: { path: { endpointId }, query: { limit: 7, cursor } },
      });
      expect(page.data!.data.items.length).toBeLessThanOrEqual(7);
      paged.push(...page.data!.data.items.map((delivery) => delivery.id));
      cursor = page.data!.data.nextCursor ?? undefined;
    } while (cursor);
    expect(paged).toEqual(deliveries.data!.data.items.map((delivery) => delivery.id));
    const notOurs = await customer().GET('/v1/customers/webhook-endpoints/{endpointId}/deliveries', {
      params: { path: { endpointId }, query: { cursor: 'bm90LWEtY3Vyc29y' } },
    });
    expect(notOurs.response.status).toBe(400);
  });

  it('a receiver that fails and then recovers receives everything, with the attempts recorded', async () => {
    receiver.received.length = 0;
    receiver.failNext = 1_000;
    const id = await runPayroll();
    await drain(worker);
    expect(receiver.received).toHaveLength(0);
    const pending = await customer().GET('/v1/customers/webhook-endpoints/{endpointId}/deliveries', { params: { path: { endpointId } } });
    const failing = pending.data!.data.items.filter((delivery) => delivery.status === 'PENDING');
    expect(failing.length).toBeGreaterThan(10);
    expect(failing[0]!.attempts[0]).toMatchObject({ statusCode: 500, error: 'HTTP 500', durationMs: expect.any(Number) });
    // Ten consecutive failures mark the endpoint FAILING; it is still retried.
    expect((await customer().GET('/v1/customers/webhook-endpoints', {})).data!.data.items[0]!.status).toBe('FAILING');
    receiver.failNext = 0;
    for (let hour = 0; hour < 3; hour++) {
      server.clock.advance(3600);
      await drain(worker);
    }
    const statuses = receiver
      .events()
      .filter((event) => event.type === 'payroll_request.status_changed' && event.data.id === id)
      .map((event) => event.data.status);
    expect(statuses).toEqual(['PENDING', 'QUOTE_PROVIDED', 'QUOTE_ACCEPTED', 'EXECUTING', 'PAYOUT_INITIATED', 'COMPLETED']);
    expect((await customer().GET('/v1/customers/webhook-endpoints', {})).data!.data.items[0]!.status).toBe('ENABLED');
  });

  it('a worker that dies mid-delivery loses nothing: the lease runs out and another delivers', async () => {
    receiver.received.length = 0;
    await cancel(server, (await createPending()).id, 'test');
    // The "dead" worker claims the deliveries and never records an attempt.
    const now = server.clock.now();
    const claimed = await server.db.transaction((tx) => claimDueDeliveries(tx, now, new Date(now.getTime() + 30_000), 100));
    expect(claimed.length).toBe(2); // PENDING and CANCELLED
    await drain(workerFor(server));
    expect(receiver.received).toHaveLength(0); // still leased
    server.clock.advance(31);
    await drain(workerFor(server));
    expect(receiver.events().map((event) => event.data.status)).toEqual(['PENDING', 'CANCELLED']);
  });

  it('redirects are not followed, and a manual retry resends', async () => {
    receiver.received.length = 0;
    receiver.answer = 302;
    await createPending();
    await drain(worker);
    const list = await customer().GET('/v1/customers/webhook-endpoints/{endpointId}/deliveries', { params: { path: { endpointId } } });
    const redirected = list.data!.data.items[0]!;
    expect(redirected).toMatchObject({ status: 'PENDING', attempts: [expect.objectContaining({ statusCode: 302 })] });
    receiver.answer = 200;
    const retried = await customer().POST('/v1/customers/webhook-endpoints/{endpointId}/deliveries/{deliveryId}/retry', {
      params: { path: { endpointId, deliveryId: redirected.id } },
    });
    expect(retried.data!.data).toMatchObject({ status: 'PENDING', nextAttemptAt: server.clock.now().toISOString() });
    await drain(worker);
    const after = await customer().GET('/v1/customers/webhook-endpoints/{endpointId}/deliveries', { params: { path: { endpointId } } });
    expect(after.data!.data.items.find((delivery) => delivery.id === redirected.id)).toMatchObject({ status: 'SUCCEEDED', attemptCount: 2 });
  });

  it('validates endpoint URLs and scopes endpoints to their customer', async () => {
    for (const url of ['http://payroll.example/hooks', 'ftp://payroll.example/x', 'https://10.1.2.3/hooks', 'https://user:pw@payroll.example/']) {
      const { response, error } = await register(url);
      expect(response.status).toBe(400);
      expect(error!.error.code).toBe('VALIDATION_ERROR');
    }
    expect((await register('https://hooks.payroll.example/in')).response.status).toBe(201);
    const foreign = await server.as(ids.userB).GET('/v1/customers/webhook-endpoints/{endpointId}/deliveries', { params: { path: { endpointId } } });
    expect(foreign.response.status).toBe(404);
    const deleted = await customer().DELETE('/v1/customers/webhook-endpoints/{endpointId}', { params: { path: { endpointId } } });
    expect(deleted.data!.data.id).toBe(endpointId);
    expect((await customer().GET('/v1/customers/webhook-endpoints', {})).data!.data.items.map((endpoint) => endpoint.id)).not.toContain(endpointId);
  });
});

async function createPending() {
  const { created } = await estimateAndCreate(customer(), [{ beneficiaryId: ids.beneficiaryA3, amount: '5' }]);
  server.clock.advance(1);
  return created.data!.data;
}
