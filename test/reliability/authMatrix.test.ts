/**
 * The auth matrix: every operation of the bundled spec (read from the spec, so a new one cannot
 * escape) × every kind of caller, checking the documented 401 UNAUTHORIZED / 403 FORBIDDEN /
 * 404 NOT_FOUND, and that every status the server answered is one the spec lists for the
 * operation: the spec must say what the server does. A smaller JWKS matrix (wrong issuer,
 * wrong audience, foreign key, HS256 development token) runs over every operation too.
 */
import { SignJWT, generateKeyPair } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ids } from '../fixtures/world.js';
import { type TestServer, startTestServer, testConfig } from '../support/server.js';
import { type JwksProvider, hs256Token, startJwksProvider, unsignedToken } from '../support/tokens.js';
import { type Api, apiOf, call, createRequest, dataOf, estimate } from './api.js';
import { type Operation, type RawResponse, type Spec, expectDocumented, expectEnvelope, fillPath, loadSpec, send } from './spec.js';

let spec: Spec;
let server: TestServer;
let api: Api;

/** Real resources of customer A, so that B's token meets something that exists. */
const resources: Record<string, string> = {};
const bodies: Record<string, unknown> = {};
const figures = { cases: 0, rows: new Map<string, number>() };

beforeAll(async () => {
  spec = await loadSpec();
  server = await startTestServer();
  api = apiOf(server);

  const pending = await createRequest(api, [{ beneficiaryId: ids.beneficiaryA1, amount: '10.00' }]);
  resources.requestId = pending.id;
  const { createBody } = await estimate(api, [{ beneficiaryId: ids.beneficiaryA2, amount: '20.00' }]);
  bodies.createPayrollRequest = createBody;
  bodies.estimatePayrollFee = {
    sourceAccountCurrencyId: ids.acAUsd,
    payrollAccountCurrencyId: ids.acPartnerAed,
    amountSplitDetails: [{ beneficiaryId: ids.beneficiaryA1, amount: '10.00' }],
  };
  resources.accountId = ids.accountAUsd;
  resources.accountCurrencyId = ids.acAUsd;
  const payoutQuery = `amount=25.00&currency=USD&beneficiaryId=${ids.beneficiaryA3}`;
  const payoutEstimate = dataOf<{ feeHash: string }>(await call(api, 'GET', `/v1/accounts/${ids.accountAUsd}/payouts/estimate?${payoutQuery}`, ids.userA));
  bodies.createPayout = { feeHash: payoutEstimate.feeHash, beneficiaryId: ids.beneficiaryA3, amount: '25.00', currency: 'USD' };
  const secondEstimate = dataOf<{ feeHash: string }>(await call(api, 'GET', `/v1/accounts/${ids.accountAUsd}/payouts/estimate?${payoutQuery}`, ids.userA));
  const payout = dataOf<{ id: string }>(
    await call(api, 'POST', `/v1/accounts/${ids.accountAUsd}/payouts`, ids.userA, { ...(bodies.createPayout as object), feeHash: secondEstimate.feeHash }),
    201,
  );
  resources.payoutId = payout.id;
  // A payroll template of A's on this world's accounts (the spec's example names the demo world's).
  const template = {
    name: 'Monthly salaries',
    sourceAccountCurrencyId: ids.acAUsd,
    payrollAccountCurrencyId: ids.acPartnerAed,
    amountSplitDetails: [{ beneficiaryId: ids.beneficiaryA1, amount: '10.00', purposeCode: 'SAL' }],
    payDateRule: { kind: 'LAST_BUSINESS_DAY' },
  };
  bodies.createPayrollTemplate = template;
  resources.templateId = dataOf<{ id: string }>(await call(api, 'POST', '/v1/customers/payroll/templates', ids.userA, template), 201).id;
  // Operations added later (webhook endpoints…) find A's resources through the collection they
  // belong to: the first POST on the collection creates one from the spec's example.
  for (const op of spec.operations) {
    const created = op.method === 'post' && op.role === 'customer' && !op.path.includes('{') && !['createPayrollRequest'].includes(op.operationId);
    const param = spec.operations.flatMap((other) =>
      [...other.path.matchAll(/\{([^}]+)\}/g)].filter((m) => other.path.slice(0, m.index - 1) === op.path).map((m) => m[1]!),
    )[0];
    if (created && param && !resources[param] && op.bodyExamples[0]) {
      resources[param] = dataOf<{ id: string }>(await call(api, 'POST', op.path, ids.userA, op.bodyExamples[0]), 201).id;
    }
  }
  query.estimatePayoutFees = payoutQuery;
});
afterAll(async () => {
  const rows = [...figures.rows].map(([row, n]) => `${row}: ${n}`).join(', ');
  console.log(`[auth matrix] ${spec?.operations.length} operations, ${figures.cases} cases (${rows})`);
  await server?.close();
});

const query: Record<string, string> = {};

/** A request to `op` that passes the contract, aimed at customer A's resources. */
function requestFor(op: Operation): { path: string; query: string; body: unknown } {
  const path = fillPath(
    op.path,
    Object.fromEntries(op.parameters.filter((p) => p.in === 'path').map((p) => [p.name, resources[p.name] ?? fallbackPathValue(p.name)])),
  );
  const required = op.parameters.filter((p) => p.in === 'query' && p.required);
  const q = query[op.operationId] ?? new URLSearchParams(required.map((p) => [p.name, String(p.example ?? '')])).toString();
  const body = bodies[op.operationId] ?? op.bodyExamples[0] ?? (op.bodySchema ? {} : undefined);
  return { path, query: q, body };
}
function fallbackPathValue(name: string): string {
  if (name === 'fromCurrencyCode') return 'USD';
  if (name === 'toCurrencyCode') return 'AED';
  return '7e570000-0000-4000-8000-0000000000ff'; // an id that exists nowhere
}

async function sendAs(op: Operation, authorization: string | undefined, target = server, request = requestFor(op)): Promise<RawResponse> {
  const headers: Record<string, string> = {};
  if (authorization !== undefined) headers.authorization = authorization;
  if (request.body !== undefined) headers['content-type'] = 'application/json';
  return send(`${target.baseUrl}${request.path}${request.query ? `?${request.query}` : ''}`, {
    method: op.method.toUpperCase(),
    headers,
    ...(request.body === undefined ? {} : { body: JSON.stringify(request.body) }),
  });
}

function expectAnswer(op: Operation, row: string, response: RawResponse, expected: { status: number | number[]; code?: string }): void {
  const where = `${op.operationId} × ${row}`;
  figures.cases += 1;
  figures.rows.set(row, (figures.rows.get(row) ?? 0) + 1);
  expectEnvelope(spec, response, where);
  expectDocumented(op, response.status, where);
  const statuses = Array.isArray(expected.status) ? expected.status : [expected.status];
  expect(statuses, `${where}: ${response.status} ${response.text.slice(0, 200)}`).toContain(response.status);
  if (expected.code) expect((response.json as { error?: { code: string } }).error?.code, where).toBe(expected.code);
}

const now = () => Math.floor(Date.now() / 1000);

/** Customer operations acting on one of A's resources: B gets 404, exactly as for a missing one. */
const SCOPED_TO_A = new Set([
  'getPayrollRequest',
  'listPayrollRequestSplits',
  'listPayrollRequestTransfers',
  'acceptPayrollQuote',
  'cancelPayrollRequest',
  'approvePayrollRequest',
  'rejectPayrollRequest',
  'estimatePayrollFee',
  'createPayrollRequest',
  'estimatePayoutFees',
  'createPayout',
  'getPayout',
  'deleteWebhookEndpoint',
  'listWebhookDeliveries',
  'retryWebhookDelivery',
  'testWebhookEndpoint',
  'revokeApiKey',
  'getBeneficiary',
  'updateBeneficiary',
  'deactivateBeneficiary',
  'listAccountTransactions',
  'exportAccountTransactions',
  'createPayrollTemplate',
  'updatePayrollTemplate',
]);
/** Customer operations on the caller's own collection: B gets its own (2xx), never A's. */
const OWN_COLLECTION = new Set([
  'listPayrollRequests',
  'createWebhookEndpoint',
  'listWebhookEndpoints',
  'createApiKey',
  'listApiKeys',
  'listEvents',
  'createBeneficiary',
  'listBeneficiaries',
  'getPayrollCsvTemplate',
  'listAccounts',
  'listPayrollTemplates',
]);
/** Customer operations an admin may call (operations support): no 403 for an admin. */
const ADMIN_MAY_READ = new Set(['getPayrollRequest', 'listPayrollRequestSplits', 'listPayrollRequestTransfers']);

describe('auth matrix: every operation × every kind of caller', () => {
  it('classifies every customer operation of the spec (a new one must be added here)', () => {
    const unclassified = spec.operations.filter((op) => op.role === 'customer' && !SCOPED_TO_A.has(op.operationId) && !OWN_COLLECTION.has(op.operationId));
    expect(
      unclassified.map((op) => op.operationId),
      'add these operations to SCOPED_TO_A or OWN_COLLECTION',
    ).toEqual([]);
    for (const op of spec.operations.filter((o) => o.role !== 'public')) {
      expect(op.statuses.has(401), `${op.operationId} must document 401`).toBe(true);
    }
  });

  it('no token, a malformed header, a wrong signature, an expired token, alg none, an unknown user, no exp, a future iat, too long a lifetime: 401 UNAUTHORIZED; public operations: 200', async () => {
    const unsigned = unsignedToken();
    const withoutExp = await new SignJWT({})
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setSubject(ids.userA)
      .setIssuedAt(now())
      .sign(new TextEncoder().encode(testConfig.jwt.secret));
    const rows: Array<[string, string | undefined]> = [
      ['no token', undefined],
      ['not a bearer scheme', 'Basic dXNlcjpwYXNz'],
      ['malformed token', 'Bearer not.a.jwt'],
      ['empty bearer', 'Bearer '],
      ['garbage bearer', `Bearer ${'x'.repeat(300)}`],
      ['wrong signature', `Bearer ${await hs256Token({}, new TextEncoder().encode('another-secret-of-sufficient-length-0123456789'))}`],
      ['expired', `Bearer ${await hs256Token({ iat: now() - 7200, exp: now() - 3600 })}`],
      ['alg none', `Bearer ${unsigned}`],
      ['unknown user', `Bearer ${await hs256Token({ sub: '7e570003-0000-4000-8000-00000000dead' })}`],
      ['no exp', `Bearer ${withoutExp}`],
      ['iat in the future', `Bearer ${await hs256Token({ iat: now() + 600, exp: now() + 1200 })}`],
      ['lifetime over the maximum', `Bearer ${await hs256Token({ iat: now(), exp: now() + 25 * 3600 })}`],
    ];
    for (const op of spec.operations) {
      for (const [row, authorization] of rows) {
        const response = await sendAs(op, authorization);
        if (op.role === 'public') expectAnswer(op, row, response, { status: 200 });
        else expectAnswer(op, row, response, { status: 401, code: 'UNAUTHORIZED' });
      }
    }
  });

  it('a customer token on an admin operation: 403 FORBIDDEN', async () => {
    for (const op of spec.operations.filter((o) => o.role === 'admin')) {
      for (const [row, user] of [
        ['customer A on admin op', ids.userA],
        ['customer B on admin op', ids.userB],
      ] as const) {
        expectAnswer(op, row, await sendAs(op, `Bearer ${await api.token(user)}`), { status: 403, code: 'FORBIDDEN' });
      }
    }
  });

  it('roles before validation: a customer token on an admin operation with an invalid body or query is 403, never 400', async () => {
    for (const op of spec.operations.filter((o) => o.role === 'admin')) {
      const request = requestFor(op);
      const invalid = { ...request, query: 'limit=not-a-number', ...(request.body !== undefined && { body: { unexpected: ['not', 'this', 'operation'] } }) };
      expectAnswer(op, 'customer A, invalid input, on admin op', await sendAs(op, `Bearer ${await api.token(ids.userA)}`, server, invalid), {
        status: 403,
        code: 'FORBIDDEN',
      });
    }
  });

  it('an admin token on a customer-only operation: 403 FORBIDDEN where the spec lists it (getPayrollRequest: admins read any request)', async () => {
    for (const op of spec.operations.filter((o) => o.role === 'customer')) {
      const response = await sendAs(op, `Bearer ${await api.token(ids.admin)}`);
      if (ADMIN_MAY_READ.has(op.operationId)) {
        expect(op.statuses.has(403), `${op.operationId} lists 403 although admins may call it`).toBe(false);
        expectAnswer(op, 'admin on customer op', response, { status: 200 });
      } else {
        expect(op.statuses.has(403), `${op.operationId} refuses admins: it must document 403`).toBe(true);
        expectAnswer(op, 'admin on customer op', response, { status: 403, code: 'FORBIDDEN' });
      }
    }
  });

  it("another customer's token on A's resources: 404 NOT_FOUND, exactly as a missing one; on its own collections: its own data only", async () => {
    const aIds = [ids.customerA, ids.acAUsd, ids.requestACompleted, ...Object.values(resources)];
    for (const op of spec.operations.filter((o) => o.role === 'customer')) {
      const response = await sendAs(op, `Bearer ${await api.token(ids.userB)}`);
      if (SCOPED_TO_A.has(op.operationId)) {
        expectAnswer(op, "customer B on A's resource", response, { status: 404, code: 'NOT_FOUND' });
        expect(response.text, `${op.operationId}: the 404 must not reveal A's resource`).not.toMatch(/Alpha Trading|7e570002-0000-4000-8000-000000000001/);
      } else {
        expectAnswer(op, 'customer B on own collection', response, { status: [200, 201] });
        for (const id of aIds) expect(response.text, `${op.operationId} leaked ${id} to B`).not.toContain(id);
      }
    }
  });

  it('the rightful caller gets through (no 401, no 403), with a documented status', async () => {
    for (const op of spec.operations) {
      const user = op.role === 'admin' ? ids.admin : ids.userA;
      const response = await sendAs(op, op.role === 'public' ? undefined : `Bearer ${await api.token(user)}`);
      expectAnswer(op, 'rightful caller', response, { status: [...op.statuses].filter((s) => s < 500 && s !== 401 && s !== 403) });
    }
  });

  it('the scheme is case-insensitive (RFC 7235): `bearer` and `BEARER` get the rightful caller through too', async () => {
    for (const op of spec.operations.filter((o) => o.role !== 'public' && o.method === 'get')) {
      const user = op.role === 'admin' ? ids.admin : ids.userA;
      for (const scheme of ['bearer', 'BEARER']) {
        const response = await sendAs(op, `${scheme} ${await api.token(user)}`);
        expectAnswer(op, `rightful caller, scheme ${scheme}`, response, { status: [...op.statuses].filter((s) => s < 500 && s !== 401 && s !== 403) });
      }
    }
  });
});

describe('auth matrix under JWKS (issuer and audience required)', () => {
  let provider: JwksProvider;
  let jwksServer: TestServer;
  let strangerKey: CryptoKey;

  beforeAll(async () => {
    provider = await startJwksProvider();
    strangerKey = (await generateKeyPair('RS256')).privateKey;
    jwksServer = await startTestServer({ config: provider.config });
  });
  afterAll(async () => {
    await jwksServer?.close();
    await provider?.close();
  });

  it('wrong issuer, wrong audience, a key not in the JWKS, expired, an HS256 development token: 401 on every secured operation', async () => {
    const rows: Array<[string, string]> = [
      ['JWKS wrong issuer', await provider.sign({ iss: 'https://evil.example/' })],
      ['JWKS wrong audience', await provider.sign({ aud: 'someone-else' })],
      ['JWKS foreign key', await provider.sign({}, strangerKey)],
      ['JWKS expired', await provider.sign({ exp: now() - 10 })],
      ['JWKS HS256 dev token', await hs256Token({})],
    ];
    const valid = await provider.sign({});
    for (const op of spec.operations) {
      for (const [row, token] of rows) {
        const response = await sendAs(op, `Bearer ${token}`, jwksServer, { ...requestFor(op) });
        if (op.role === 'public') expectAnswer(op, row, response, { status: 200 });
        else expectAnswer(op, row, response, { status: 401, code: 'UNAUTHORIZED' });
      }
      // The same request with a good token is not refused for its token.
      const response = await sendAs(op, `Bearer ${valid}`, jwksServer);
      expect(response.status, `${op.operationId} with a valid JWKS token`).not.toBe(401);
      expectAnswer(op, 'JWKS valid token', response, { status: [...op.statuses].filter((s) => s < 500 && s !== 401) });
    }
  });
});
