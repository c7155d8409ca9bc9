/**
 * Webhook SSRF at connect time. Spellings of loopback and private addresses a naive check lets
 * through: `https://[::ffff:127.0.0.1]:4450/hook`, `https://[::]:4450/…` and a public-looking name
 * that resolves to 127.0.0.1 (each would be delivered to loopback); `localhost.`,
 * `[::ffff:169.254.169.254]`, `[::ffff:10.0.0.1]`, `100.64.0.1`, `[64:ff9b::7f00:1]` and
 * `metadata.google.internal` (each would be registered). Here the
 * service runs as in production (loopback not allowed): registration refuses every literal form,
 * and delivery — with an injected resolver, so a name can resolve to 127.0.0.1 — refuses every
 * address that is not public unicast, records why on the attempt, and never opens a connection to
 * it. A loopback receiver counts the connections that get through.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { HttpWebhookSender, type ResolvedAddress, type Resolver } from '../../src/adapters/webhooks/webhookSender.js';
import { loadConfig } from '../../src/config/config.js';
import { deliverDueWebhooks } from '../../src/usecases/webhooks/webhookDispatch.js';
import { ids } from '../fixtures/world.js';
import { deleteEveryWebhookEndpoint, registerWebhookEndpoint } from '../support/builders.js';
import { earlierRelease } from '../support/earlierReleases.js';
import { type Listening, listen } from '../support/http.js';
import { estimateAndCreate } from '../support/payroll.js';
import { REVIEWED_WEBHOOK_URLS } from '../support/webhookUrls.js';
import { type TestServer, startTestServer } from '../support/server.js';
import { workerFor } from '../support/worker.js';

let server: TestServer;
let receiver: Listening;
const hits: Array<{ host: string | undefined; body: string }> = [];
let port = 0;

beforeAll(async () => {
  receiver = await listen((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      hits.push({ host: req.headers.host, body });
      res.writeHead(200).end('ok');
    });
  });
  port = Number(new URL(receiver.url).port);
  // The receiver's port allowed beside 443, so that delivery is what refuses the names below.
  const config = loadConfig({ NODE_ENV: 'test', VALIDATE_RESPONSES: 'true', WEBHOOK_ALLOW_LOOPBACK: 'false', WEBHOOK_ALLOWED_PORTS: `443,${port}` });
  server = await startTestServer({ config });
});
afterAll(async () => {
  await receiver?.close();
  await server?.close();
});

beforeEach(async () => {
  hits.length = 0;
  // Each test starts with no endpoint: earlier ones neither get nor spend this test's deliveries (deleting abandons them).
  await deleteEveryWebhookEndpoint(customer());
});

const customer = () => server.as(ids.userA);

/** A resolver from a table, counting its calls per name. */
function resolverOf(table: Record<string, string[] | ((call: number) => string[])>) {
  const calls = new Map<string, number>();
  const resolve: Resolver = async (hostname) => {
    const call = (calls.get(hostname) ?? 0) + 1;
    calls.set(hostname, call);
    const entry = table[hostname];
    const addresses = typeof entry === 'function' ? entry(call) : entry;
    if (!addresses) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
    return addresses.map((address): ResolvedAddress => ({ address, family: address.includes(':') ? 6 : 4 }));
  };
  return { resolve, calls };
}

/** An endpoint stored as is (as one registered before the URL rules tightened would be): today's registration refuses its URL. */
const storedEndpoint = (url: string) => earlierRelease.webhookEndpointBeforeUrlRules(server.db, { customerId: ids.customerA, url, at: server.clock.now() });

/** A change of A's (a new payroll request), then one delivery pass with `sender`; each endpoint's latest attempt. */
async function deliverWith(sender: HttpWebhookSender, endpointIds: string[]) {
  const { created } = await estimateAndCreate(customer(), [{ beneficiaryId: ids.beneficiaryA1, amount: '12.00' }]);
  expect(created.response.status).toBe(201);
  await deliverDueWebhooks({ ...workerFor(server), webhooks: sender });
  const attempts = [];
  for (const endpointId of endpointIds) {
    const { data } = await customer().GET('/v1/customers/webhook-endpoints/{endpointId}/deliveries', { params: { path: { endpointId } } });
    const [delivery] = data!.data.items;
    attempts.push({ status: delivery!.status, attempt: delivery!.attempts.at(-1)! });
  }
  return attempts;
}

describe('registration refuses addresses that are not public unicast, in every form', () => {
  it.each([...REVIEWED_WEBHOOK_URLS, 'http://127.0.0.1:4450/hook'])('%s: 400 VALIDATION_ERROR, nothing registered', async (url) => {
    const { response, error } = await customer().POST('/v1/customers/webhook-endpoints', { body: { url, eventTypes: ['payroll_request.status_changed'] } });
    expect(response.status).toBe(400);
    expect(error!.error).toMatchObject({ code: 'VALIDATION_ERROR', reason: 'WEBHOOK_URL_NOT_ALLOWED', field: '/url' });
    expect((await customer().GET('/v1/customers/webhook-endpoints', {})).data!.data.items).toEqual([]);
  });
});

describe('registration allows only the ports HTTPS endpoints use', () => {
  it('a public host on port 22 (or any port not in WEBHOOK_ALLOWED_PORTS) is refused; 443 explicit or implied is taken', async () => {
    for (const url of ['https://hooks.example.com:22/hook', 'https://hooks.example.com:8443/hook', 'https://93.184.216.34:25/hook']) {
      const { error, response } = await customer().POST('/v1/customers/webhook-endpoints', { body: { url, eventTypes: ['payroll_request.status_changed'] } });
      expect(response.status, url).toBe(400);
      expect(error!.error).toMatchObject({ code: 'VALIDATION_ERROR', reason: 'WEBHOOK_URL_NOT_ALLOWED', field: '/url' });
    }
    for (const url of ['https://hooks.example.com/hook', 'https://hooks.example.com:443/hook']) {
      const { response } = await customer().POST('/v1/customers/webhook-endpoints', { body: { url, eventTypes: ['payroll_request.status_changed'] } });
      expect(response.status, url).toBe(201);
    }
  });
});

describe('delivery resolves the host, checks every address and connects only to a checked one', () => {
  it('a public-looking name that resolves to 127.0.0.1 is never connected to; the attempt says why', async () => {
    const name = 'hooks.acme-payroll.com';
    const registered = await customer().POST('/v1/customers/webhook-endpoints', {
      body: { url: `https://${name}:${port}/hook`, eventTypes: ['payroll_request.status_changed'] },
    });
    expect(registered.response.status).toBe(201);
    const { resolve } = resolverOf({ [name]: ['127.0.0.1'] });
    const [result] = await deliverWith(new HttpWebhookSender({ allowLoopback: false, resolve }), [registered.data!.data.id]);
    expect(hits).toEqual([]);
    expect(result!.status).toBe('PENDING'); // retried like any failure: the name may be fixed
    expect(result!.attempt).toMatchObject({
      statusCode: null,
      error: expect.stringContaining(`refused: ${name} resolves to 127.0.0.1, which is not public (127.0.0.1 is in the loopback range)`),
    });
  });

  it('every address is checked: one private address among public ones refuses the delivery', async () => {
    const name = 'hooks.mixed-answers.com';
    const endpointId = await registerWebhookEndpoint(customer(), `https://${name}:${port}/hook`);
    const { resolve } = resolverOf({ [name]: ['93.184.216.34', '2606:4700:4700::1111', '10.0.0.7'] });
    const [result] = await deliverWith(new HttpWebhookSender({ allowLoopback: false, resolve }), [endpointId]);
    expect(result!.attempt.error).toContain('resolves to 10.0.0.7, which is not public (10.0.0.7 is in the private range)');
    expect(hits).toEqual([]);
  });

  it('endpoints stored before the rules tightened are refused at delivery, whatever the spelling', async () => {
    const { resolve } = resolverOf({ 'localhost.': ['127.0.0.1', '::1'], 'metadata.google.internal': ['169.254.169.254'] });
    const urls = {
      [`https://[::ffff:127.0.0.1]:${port}/hook`]: 'reaches 127.0.0.1 (loopback)',
      [`https://[::]:${port}/hook`]: ':: is in the unspecified range',
      [`https://[64:ff9b::7f00:1]:${port}/hook`]: 'reaches 127.0.0.1 (loopback)',
      [`https://localhost.:${port}/hook`]: '127.0.0.1 is in the loopback range',
      [`https://metadata.google.internal:${port}/computeMetadata/v1/`]: '169.254.169.254 is in the linkLocal range',
      [`https://100.64.0.1:${port}/hook`]: '100.64.0.1 is in the carrierGradeNat range',
      [`https://[::ffff:10.0.0.1]:${port}/hook`]: 'reaches 10.0.0.1 (private)',
    };
    const endpointIds = [];
    for (const url of Object.keys(urls)) endpointIds.push(await storedEndpoint(url));
    const results = await deliverWith(new HttpWebhookSender({ allowLoopback: false, resolve }), endpointIds);
    Object.values(urls).forEach((reason, i) => expect(results[i]!.attempt.error, Object.keys(urls)[i]).toContain(reason));
    expect(hits).toEqual([]);
  });

  it('the connection goes to the address that was checked: one lookup, no rebinding', async () => {
    // The name resolves to the (allowed, in development) loopback receiver once, then to the
    // metadata service: a second lookup at connect time would reach it. There is none.
    const name = 'hooks.rebinding-attacker.com';
    const endpointId = await storedEndpoint(`http://${name}:${port}/hook`);
    const { resolve, calls } = resolverOf({ [name]: (call) => (call === 1 ? ['127.0.0.1'] : ['169.254.169.254']) });
    const [result] = await deliverWith(new HttpWebhookSender({ allowLoopback: true, resolve }), [endpointId]);
    expect(result).toMatchObject({ status: 'SUCCEEDED', attempt: { statusCode: 200, error: null } });
    expect(calls.get(name)).toBe(1);
    expect(hits).toHaveLength(1);
    expect(hits[0]!.host).toBe(`${name}:${port}`); // the name is still the Host (and, over https, the TLS server name)
  });

  it('a name that does not resolve is a failed attempt, retried', async () => {
    const endpointId = await registerWebhookEndpoint(customer(), `https://hooks.nowhere-at-all.com:${port}/hook`);
    const { resolve } = resolverOf({});
    const [result] = await deliverWith(new HttpWebhookSender({ allowLoopback: false, resolve }), [endpointId]);
    expect(result).toMatchObject({ status: 'PENDING', attempt: { statusCode: null, error: 'could not resolve hooks.nowhere-at-all.com' } });
  });
});
