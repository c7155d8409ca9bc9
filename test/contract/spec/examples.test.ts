// Examples that run: every named request example of the spec (and, for an operation without a body,
// its parameter examples) is sent to the real server on a fresh copy of the demo world
// (worlds/demo.json), and must be answered with the status of the response example it pairs with
// (test/support/examples/examples.ts says how they pair); every response example validates against its schema.
// The few setup steps and substitutions an example cannot avoid (a fresh feeHash, a resource the
// demo world does not hold) are listed in SETUP below, each with its reason.
import { randomUUID } from 'node:crypto';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { bankMessageApplier } from '../../../src/usecases/bank/applyBankMessage.js';
import { type RawResponse, send } from '../../reliability/spec.js';
import { type BankWorld, entry, message, report, startBankWorld } from '../../support/bankBooks.js';
import { unansweredBatch } from '../../support/examples/exampleBankBatch.js';
import { waitFor } from '../../support/polling.js';
import { TEST_ENV, type TestServer, startTestServer } from '../../support/server.js';
import { loadConfig } from '../../../src/config/config.js';
import { composeIBAN } from 'ibantools';
import { drain, workerFor } from '../../support/worker.js';
import { DEMO_WORLD, type ExampleCase, type ExampleSpec, loadExampleSpec } from '../../support/examples/examples.js';

const userWith = (role: string, permission?: string) =>
  DEMO_WORLD.users.find((user) => user.role === role && (permission ? user.permissions?.includes(permission) : !user.permissions))!.id;
/** Dana Haddad (Acme, customer), Omar Nasser (admin), Rania Saleh (Acme, approver). */
const CUSTOMER = userWith('customer');
const ADMIN = userWith('admin');
const APPROVER = userWith('customer', 'approver');
/** Huda Al Zarooni (Falcon Facilities Management LLC, the demo world's WPS employer). */
const FALCON = '7b1e0003-0000-4000-8000-000000000005';

interface Replay {
  server: TestServer;
  /** The world on the ISO 20022 rail the example runs on, for a Setup `atTheBank`. */
  world?: BankWorld;
  /** Replays another example (with its own setup) on the same world and returns the answer. */
  replay(operationId: string, name?: string): Promise<RawResponse>;
}

interface Substitutions {
  path?: Record<string, string>;
  query?: Record<string, string>;
  body?: Record<string, unknown>;
}

interface Setup {
  reason: string;
  /** Run on the demo world with the ISO 20022 bank rail (test/support/bankBooks.ts), not the simulated one. */
  atTheBank?: true;
  /** Run with screening against the shipped extract of the sanctions lists (docs/screening.md). */
  screening?: true;
  /** Who sends the example when not the role's user (Dana for customer operations, Omar for Admin ones). */
  user?: string;
  prepare?: (replay: Replay) => Promise<Substitutions | void>;
}

const dataOf = (response: RawResponse) => (response.json as { data: Record<string, unknown> }).data;
const feeHashOf = async (replay: Replay, operationId: string, name?: string) => dataOf(await replay.replay(operationId, name)).feeHash as string;
const createdEndpoint = async (replay: Replay) => dataOf(await replay.replay('createWebhookEndpoint', 'CreateWebhookEndpointRequest')).id as string;

/** A new endpoint (the create example), pinged as the test example pings it: its id and the ping's delivery. */
async function pingedEndpoint(replay: Replay): Promise<{ endpointId: string; deliveryId: string }> {
  const endpointId = await createdEndpoint(replay);
  const pinged = await replay.server.as(CUSTOMER).POST('/v1/customers/webhook-endpoints/{endpointId}/test', { params: { path: { endpointId } } });
  expect(pinged.response.status).toBe(202);
  return { endpointId, deliveryId: pinged.data!.data.id };
}

/** Waits (up to 60 s) until the customer's event log lists `count` events. */
async function eventsListed(server: TestServer, count: number): Promise<void> {
  const listed = async () => (await server.as(CUSTOMER).GET('/v1/customers/events', { params: { query: { limit: 100 } } })).data?.data.items.length ?? 0;
  await waitFor(`${count} events listed`, listed, (n) => n >= count, { deadlineMs: 60_000, everyMs: 100 });
}

/** Keyed by operationId, or by the request example's name where one operation's examples differ. */
const SETUP: Record<string, Setup> = {
  CreatePayrollRequestRequest: {
    reason: 'a feeHash is valid for 15 minutes: the one of replaying the estimate example it names',
    prepare: async (replay) => ({ body: { feeHash: await feeHashOf(replay, 'estimatePayrollFee', 'EstimatePayrollFeeRequest') } }),
  },
  EstimatePayrollFeeWpsRequest: { reason: "the WPS employer's payroll: its own user, Huda Al Zarooni of Falcon", user: FALCON },
  CreatePayrollRequestWpsRequest: {
    reason: "the WPS employer's user and the feeHash of replaying the WPS estimate example",
    user: FALCON,
    prepare: async (replay) => ({ body: { feeHash: await feeHashOf(replay, 'estimatePayrollFee', 'EstimatePayrollFeeWpsRequest') } }),
  },
  CreatePayrollRequestCsvRequest: {
    reason: 'the query parameter feeHash (no example: it expires) of replaying the CSV estimate example',
    prepare: async (replay) => ({ query: { feeHash: await feeHashOf(replay, 'estimatePayrollFee', 'EstimatePayrollFeeCsvRequest') } }),
  },
  createPayout: {
    reason: 'the feeHash of replaying the payout estimate example',
    prepare: async (replay) => ({ body: { feeHash: await feeHashOf(replay, 'estimatePayoutFees') } }),
  },
  getPayout: {
    reason: 'the demo world holds no payout: the one of replaying createPayout, settled by the worker',
    prepare: async (replay) => {
      const payoutId = dataOf(await replay.replay('createPayout', 'CreatePayoutRequest')).id as string;
      await drain(workerFor(replay.server));
      return { path: { payoutId } };
    },
  },
  approvePayrollRequest: awaitingApproval(),
  rejectPayrollRequest: awaitingApproval(),
  acceptPayrollQuote: {
    reason: 'the example request is PENDING in the demo world: quote it first (the quote example)',
    prepare: async (replay) => {
      expect((await replay.replay('providePayrollQuote', 'ProvidePayrollQuoteRequest')).status).toBe(200);
    },
  },
  recordFxExchange: {
    reason: 'the FX is recorded once the quote is accepted and the funds reached the bank: quote and accept the example request, run the worker',
    prepare: async (replay) => {
      expect((await replay.replay('acceptPayrollQuote')).status).toBe(200);
      await drain(workerFor(replay.server));
    },
  },
  failPayrollRequest: {
    reason: 'an operator fails a request while it is EXECUTING: quote and accept the example request, run the worker',
    prepare: async (replay) => {
      expect((await replay.replay('acceptPayrollQuote')).status).toBe(200);
      await drain(workerFor(replay.server));
    },
  },
  deleteWebhookEndpoint: {
    reason: 'the demo world holds no webhook endpoint: the one of replaying createWebhookEndpoint',
    prepare: async (replay) => ({ path: { endpointId: await createdEndpoint(replay) } }),
  },
  listWebhookEndpoints: {
    reason: 'the demo world holds no webhook endpoint: replay createWebhookEndpoint first',
    prepare: async (replay) => {
      await createdEndpoint(replay);
    },
  },
  listWebhookDeliveries: {
    reason: 'the demo world holds no webhook endpoint nor event: create the endpoint, ping it (the test example: one delivery)',
    prepare: async (replay) => ({ path: { endpointId: (await pingedEndpoint(replay)).endpointId } }),
  },
  listEvents: {
    reason:
      'the demo world holds no event: replay createPayout and run the worker, which settles the payout; then wait until its 4 events are listed (an event shows once every older transaction on the shared test server has ended)',
    prepare: async (replay) => {
      expect((await replay.replay('createPayout', 'CreatePayoutRequest')).status).toBe(201);
      await drain(workerFor(replay.server));
      await eventsListed(replay.server, 4);
    },
  },
  resolveBankException: openBankException(),
  releaseScreeningHit: openScreeningHit(),
  confirmScreeningHit: openScreeningHit(),
  getBankException: openBankException(),
  testWebhookEndpoint: {
    reason: 'the demo world holds no webhook endpoint: the one of replaying createWebhookEndpoint',
    prepare: async (replay) => ({ path: { endpointId: await createdEndpoint(replay) } }),
  },
  updatePayrollTemplate: {
    reason: 'the demo world holds no payroll template: the one of replaying createPayrollTemplate',
    prepare: async (replay) => ({ path: { templateId: dataOf(await replay.replay('createPayrollTemplate', 'CreatePayrollTemplateRequest')).id as string } }),
  },
  revokeApiKey: {
    reason: 'the demo world holds no API key: the one of replaying createApiKey',
    prepare: async (replay) => ({ path: { apiKeyId: dataOf(await replay.replay('createApiKey', 'CreateApiKeyRequest')).id as string } }),
  },
  resendBankBatch: {
    reason: 'a payment file the bank never answered: a payroll taken to the bank on the ISO 20022 rail, no report dropped',
    atTheBank: true,
    prepare: async (replay) => ({ path: { batchId: (await unansweredBatch(replay.world!)).batchId } }),
  },
  failBankBatchPayouts: {
    reason: 'two payouts of a payment file the bank never answered: a payroll taken to the bank on the ISO 20022 rail, no report dropped',
    atTheBank: true,
    prepare: async (replay) => {
      const { batchId, payoutIds } = await unansweredBatch(replay.world!);
      return { path: { batchId }, body: { transferIds: payoutIds.slice(0, 2) } };
    },
  },
  retryWebhookDelivery: {
    reason: 'a delivery needs an endpoint and an event: create the endpoint, ping it (the test example), retry the ping’s delivery',
    prepare: async (replay) => ({ path: await pingedEndpoint(replay) }),
  },
};

/** The state both exception operations need (the reason says what it is). */
function openBankException(): Setup {
  return {
    reason: 'an open bank exception, which only the bank’s books create: a camt.054 booking naming no payout of ours, applied by the bank-books use case',
    prepare: async (replay) => {
      const { db, clock } = replay.server;
      const unknown = message('camt.054', [report([entry('DBIT', '125.00', { endToEndId: 'NOTOURS0000000000000000000000001', reference: 'B-EXAMPLE' })])]);
      await bankMessageApplier({ db, clock: clock.now, bookingGraceDays: 3 })(unknown, {
        fileName: 'example.xml',
        sha256: 'e'.repeat(64),
        receivedAt: clock.now(),
      });
      const listed = await send(`${replay.server.baseUrl}/v1/admin/bank/exceptions?status=OPEN`, {
        headers: { authorization: `Bearer ${await replay.server.token(ADMIN)}` },
      });
      const [open] = dataOf(listed).items as Array<{ id: string }>;
      return { path: { exceptionId: open!.id } };
    },
  };
}

function openScreeningHit(): Setup {
  return {
    reason: 'an open screening hit, which only a screening raises: Dana adds a beneficiary the UN list names, with screening against the shipped extract',
    screening: true,
    prepare: async (replay) => {
      const iban = composeIBAN({ countryCode: 'AE', bban: '0339900000000000777' })!;
      const created = await replay.server.as(CUSTOMER).POST('/v1/customers/beneficiaries', {
        body: { type: 'INDIVIDUAL', firstName: 'Francois', lastName: 'Bozize Yangouvonda', nationality: 'CF', bankName: 'Mashreq', iban },
      });
      return { path: { hitId: created.data!.data.screening!.hits[0]!.hitId } };
    },
  };
}

function awaitingApproval(): Setup {
  return {
    reason:
      'the demo world holds no request AWAITING_APPROVAL: require approval for Acme (the settings example), create the request example as Dana; Rania (approver) sends the example',
    user: APPROVER,
    prepare: async (replay) => {
      expect((await replay.replay('updateCustomerSettings', 'UpdateCustomerSettingsRequest')).status).toBe(200);
      const created = await replay.replay('createPayrollRequest', 'CreatePayrollRequestRequest');
      expect(dataOf(created).status).toBe('AWAITING_APPROVAL');
      return { path: { requestId: dataOf(created).id as string } };
    },
  };
}

let spec: ExampleSpec;
const servers: Array<{ close(): Promise<void> }> = [];

beforeAll(async () => {
  spec = await loadExampleSpec();
});

afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

function findCase(operationId: string, name = operationId): ExampleCase {
  const found = spec.cases.find((candidate) => candidate.operationId === operationId && candidate.name === name);
  if (!found) throw new Error(`no example ${name} of ${operationId} in the spec`);
  return found;
}

async function replayCase(server: TestServer, example: ExampleCase, world?: BankWorld): Promise<RawResponse> {
  const setup = SETUP[example.name] ?? SETUP[example.operationId];
  const replay: Replay = { server, ...(world && { world }), replay: (operationId, name) => replayCase(server, findCase(operationId, name), world) };
  const substitutions = (await setup?.prepare?.(replay)) ?? {};
  const pathValues = { ...example.path_, ...substitutions.path };
  const url = new URL(server.baseUrl + example.path.replace(/\{([^}]+)\}/g, (_m, name: string) => encodeURIComponent(pathValues[name] ?? '')));
  for (const [name, value] of Object.entries({ ...example.query, ...substitutions.query })) {
    for (const item of Array.isArray(value) ? value : [value]) url.searchParams.append(name, item);
  }
  const user = setup?.user ?? (example.role === 'admin' ? ADMIN : CUSTOMER);
  const headers: Record<string, string> = { accept: example.accept };
  if (example.role !== 'public') headers.authorization = `Bearer ${await server.token(user)}`;
  if (example.idempotent) headers['idempotency-key'] = randomUUID();
  let body: string | undefined;
  if (example.body) {
    headers['content-type'] = example.body.contentType;
    const value = substitutions.body ? { ...(example.body.value as object), ...substitutions.body } : example.body.value;
    body = typeof value === 'string' ? value : JSON.stringify(value);
  }
  return send(url.toString(), { method: example.method.toUpperCase(), headers, ...(body === undefined ? {} : { body }) });
}

describe('the spec’s examples', () => {
  it('every request body has a named example, every example pairs with a response example, every required parameter has an example', () => {
    expect(spec.bodiesWithoutExamples, 'request bodies without a named example').toEqual([]);
    expect(
      spec.cases.filter((example) => !example.expected).map((example) => `${example.operationId} ${example.name}`),
      'examples with no response example to pair with',
    ).toEqual([]);
    const unsupplied = spec.cases.filter((example) => example.missing.length > 0 && !(SETUP[example.name] ?? SETUP[example.operationId])?.prepare);
    expect(
      unsupplied.map((example) => `${example.operationId}: ${example.missing.join(', ')}`),
      'required parameters without an example',
    ).toEqual([]);
  });

  it('every setup step is for an example the spec has', () => {
    const names = new Set(spec.cases.flatMap((example) => [example.name, example.operationId]));
    expect(Object.keys(SETUP).filter((key) => !names.has(key))).toEqual([]);
  });

  it('every response example validates against its response schema', () => {
    const ajv = new Ajv2020({ strict: false, allErrors: true });
    addFormats.default(ajv);
    const invalid = spec.responseExamples.flatMap((example) => {
      if (!example.schema) return [];
      const validate = ajv.compile(example.schema as object);
      return validate(example.value) ? [] : [`${example.operationId} ${example.status} ${example.name}: ${ajv.errorsText(validate.errors)}`];
    });
    expect(invalid).toEqual([]);
  });
});

describe('each request example replayed on the demo world answers the status of its response example', async () => {
  const { cases } = await loadExampleSpec();
  it.each(cases.map((example) => [`${example.operationId} ${example.name}`, example] as const))('%s', async (_title, example) => {
    const setup = SETUP[example.name] ?? SETUP[example.operationId];
    const world = setup?.atTheBank ? await startBankWorld() : undefined;
    const config = setup?.screening ? loadConfig({ ...TEST_ENV, SANCTIONS_SHIPPED_EXTRACT: 'true' }) : undefined;
    const server = world?.server ?? (await startTestServer({ world: DEMO_WORLD, ...(config && { config }) }));
    servers.push(world ?? server);
    const response = await replayCase(server, example, world);
    if (process.env.EXAMPLES_DUMP) dump(example, response);
    expect(response.status, `${example.operationId} ${example.name} → ${response.text.slice(0, 600)}`).toBe(example.expected?.status);
    if (FIGURES_CHECKED.has(example.name)) {
      expect(figuresOf(response.json), `the figures of ${example.expected?.name} are not what the demo world answers`).toEqual(
        figuresOf(example.expected?.value),
      );
    }
  });
});

/**
 * Examples whose response example must show the figures the demo world answers, so that the docs
 * cannot drift from the server: amounts, balances, fees, rates, statuses, currencies and ids of the
 * demo world (not the generated ids, timestamps or feeHashes, which differ on every run).
 */
const FIGURES_CHECKED = new Set([
  'EstimatePayrollFeeRequest',
  'EstimatePayrollFeeSourceOnlyRequest',
  'EstimatePayrollFeeCsvRequest',
  'CreatePayrollRequestRequest',
  'approvePayrollRequest',
  'RejectPayrollRequestRequest',
  'ProvidePayrollQuoteRequest',
  'acceptPayrollQuote',
  'RecordFxExchangeRequest',
  'getPayrollRequest',
  'CancelPayrollRequestRequest',
  'listPayrollRequests',
  'listAdminPayrollRequests',
  'CreatePayoutRequest',
  'getPayout',
  'listAccounts',
  'listAccountTransactions',
  'FundAccountCurrencyRequest',
  'UpdateCustomerSettingsRequest',
  'getBeneficiary',
  'listBeneficiaries',
  'listEvents',
]);

const FIGURE_KEY = /amount|balance|available|fee|rate|status|currency|beneficiaryId|kind|decimals|required|approvers|reason|count/i;
const GENERATED = /^(feeHash|expiresAt|estimatedDate|nextCursor|secret)$|At$|AsOf$/;
/** A uuid the server generates (the demo world's ids all start with 7b1e). */
const GENERATED_ID = /^(?!7b1e)[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** "path = value" for every stable figure of a JSON value, e.g. "data.lines.0.amount = 3654.13". */
function figuresOf(value: unknown, path = '', figures: string[] = []): string[] {
  if (Array.isArray(value)) value.forEach((item, index) => figuresOf(item, `${path}.${index}`, figures));
  else if (value !== null && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) {
      if (GENERATED.test(key)) continue;
      if (item !== null && typeof item === 'object') figuresOf(item, `${path}.${key}`, figures);
      else if (typeof item === 'string' && GENERATED_ID.test(item)) continue;
      else if (FIGURE_KEY.test(key) || FIGURE_KEY.test(path)) figures.push(`${path}.${key} = ${String(item)}`);
    }
  }
  return figures.sort();
}

function dump(example: ExampleCase, response: RawResponse): void {
  // EXAMPLES_DUMP=1: print each answer, to recompute the response examples from what the server says.
  console.log(`### ${example.operationId} ${example.name} ${response.status}\n${response.json ? JSON.stringify(response.json, null, 2) : response.text}`);
}
