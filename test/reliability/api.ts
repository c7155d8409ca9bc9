/**
 * A small raw-HTTP driver of the payroll lifecycle for the reliability tests: estimate → create →
 * quote → accept → (worker) → FX record → (worker). Raw fetch, so the tests depend on the wire
 * contract only, and every answer is checked to be the envelope.
 */
import { expect } from 'vitest';
import { loadConfig } from '../../src/config/config.js';
import { signAccessToken } from '../../src/http/access/tokens.js';
import type { Database } from '../../src/store/database/db.js';
import { ids } from '../fixtures/world.js';
import { worldWith } from '../support/builders.js';
import { freshPostgres, testServerUrl } from '../support/database.js';
import type { Listening } from '../support/http.js';
import { type PayrollEntry, type PayrollFeeEstimate, type PayrollRequest, payrollBodies } from '../support/payroll.js';
import { type TestServer, serveApp } from '../support/server.js';
import { drain, workerFor } from '../support/worker.js';
import { type RawResponse, send } from './spec.js';

export interface Api {
  baseUrl: string;
  /** Bearer token per user id. */
  token(userId: string): Promise<string>;
}

/** An Api on `baseUrl` whose tokens `sign` makes, once per user. */
export function apiAt(baseUrl: string, sign: (userId: string) => Promise<string>): Api {
  const tokens = new Map<string, Promise<string>>();
  return {
    baseUrl,
    token(userId) {
      if (!tokens.has(userId)) tokens.set(userId, sign(userId));
      return tokens.get(userId)!;
    },
  };
}

/** The raw-HTTP driver of a test server, with its tokens (valid for an hour). */
export const apiOf = (server: TestServer): Api => apiAt(server.baseUrl, (userId) => server.token(userId));

export type Entry = PayrollEntry;

export async function call(api: Api, method: string, path: string, userId: string, body?: unknown, headers: Record<string, string> = {}): Promise<RawResponse> {
  return send(`${api.baseUrl}${path}`, {
    method,
    headers: { authorization: `Bearer ${await api.token(userId)}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
}

/** The `data` of a 2xx answer (fails the test with the answer otherwise). */
export function dataOf<T = Record<string, unknown>>(response: RawResponse, status = 200): T {
  expect(response.status, response.text.slice(0, 500)).toBe(status);
  return (response.json as { data: T }).data;
}

export interface CreateOptions {
  userId?: string;
  source?: string;
  payroll?: string;
  idempotencyKey?: string;
}

/** Estimate, returning the estimate and the body to create the request with (purpose codes SAL unless given). */
export async function estimate(api: Api, entries: Entry[], options: CreateOptions = {}) {
  const bodies = payrollBodies(entries, {
    ...(options.source && { sourceAccountCurrencyId: options.source }),
    ...(options.payroll && { payrollAccountCurrencyId: options.payroll }),
  });
  const estimated = dataOf<PayrollFeeEstimate>(await call(api, 'POST', '/v1/customers/payroll/estimate', options.userId ?? ids.userA, bodies.estimate));
  return { estimate: estimated, createBody: bodies.create(estimated.feeHash) };
}

export async function createRequest(api: Api, entries: Entry[], options: CreateOptions = {}): Promise<PayrollRequest & { feeHash: string }> {
  const { createBody } = await estimate(api, entries, options);
  const headers: Record<string, string> = options.idempotencyKey ? { 'Idempotency-Key': options.idempotencyKey } : {};
  const created = dataOf<PayrollRequest>(await call(api, 'POST', '/v1/customers/payroll/requests', options.userId ?? ids.userA, createBody, headers), 201);
  return { ...created, feeHash: createBody.feeHash };
}

export function quote(api: Api, requestId: string, now: Date, exchangeRate = '3.6530') {
  return call(api, 'POST', `/v1/admin/payroll/requests/${requestId}/quote`, ids.admin, {
    exchangeRate,
    expiresAt: new Date(now.getTime() + 3600_000).toISOString(),
  });
}
export const accept = (api: Api, requestId: string, userId: string = ids.userA, headers: Record<string, string> = {}) =>
  call(api, 'POST', `/v1/customers/payroll/requests/${requestId}/accept`, userId, undefined, headers);
export const cancel = (api: Api, requestId: string, reason = 'Payroll run postponed', userId: string = ids.userA) =>
  call(api, 'POST', `/v1/customers/payroll/requests/${requestId}/cancel`, userId, { reason });
export const recordFx = (api: Api, requestId: string, exchangeRate = '3.6520') =>
  call(api, 'POST', `/v1/admin/payroll/requests/${requestId}/fx-exchange`, ids.admin, { exchangeRate });

/**
 * A request of three of customer A's beneficiaries (`firstAmount`, +1, +2) driven up to its payouts:
 * quoted, accepted, both source legs settled by the worker, the FX recorded. Returns its id.
 */
export async function requestWithPayouts(server: TestServer, api: Api, firstAmount: number): Promise<string> {
  const beneficiaries = [ids.beneficiaryA1, ids.beneficiaryA2, ids.beneficiaryA4];
  const { id } = await createRequest(
    api,
    beneficiaries.map((beneficiaryId, i) => ({ beneficiaryId, amount: `${firstAmount + i}.00` })),
  );
  dataOf(await quote(api, id, server.clock.now()));
  dataOf(await accept(api, id));
  await drain(workerFor(server));
  dataOf(await recordFx(api, id));
  return id;
}

export const read = async (api: Api, requestId: string, userId: string = ids.userA) =>
  dataOf<PayrollRequest>(await call(api, 'GET', `/v1/customers/payroll/requests/${requestId}`, userId));

/** `n` more active beneficiaries of a customer, for a world file (ids 7e570006-…-0001xxxxxxxx). */
export function extraBeneficiaries(customerId: string, n: number, offset = 0) {
  return Array.from({ length: n }, (_unused, i) => {
    const number = offset + i + 1;
    return {
      id: `7e570006-0000-4000-8000-0001${String(number).padStart(8, '0')}`,
      customerId,
      firstName: `Worker${number}`,
      lastName: 'Extra',
      displayName: `Worker${number} Extra`,
      type: 'INDIVIDUAL' as const,
      nationality: 'AE',
      bankName: 'Emirates NBD',
      iban: `AE07033${String(number).padStart(16, '0')}`,
      reference: `EXTRA-${number}`,
    };
  });
}

/** A fresh database on the suite's server, the API on it in this process (without a worker), and its driver. */
export interface ApiOnDatabase {
  database: { db: Database; drop: () => Promise<void>; url: string };
  http: Listening;
  api: Api;
}

/** The test world with `beneficiaries` added (extraBeneficiaries), every limit at its default. */
export async function apiWithBeneficiaries(beneficiaries: ReturnType<typeof extraBeneficiaries>, validateResponses: boolean): Promise<ApiOnDatabase> {
  const database = await freshPostgres(testServerUrl(), worldWith({ moreBeneficiaries: beneficiaries }));
  const config = loadConfig({ NODE_ENV: 'test', VALIDATE_RESPONSES: String(validateResponses), WORKER_IN_PROCESS: 'false' });
  const http = await serveApp(config, database.db);
  return { database, http, api: apiAt(http.url, (userId) => signAccessToken(config.jwt, userId, 3600)) };
}

export async function count(db: Database, sql: string, params: unknown[] = []): Promise<number> {
  const [row] = await db.query<{ n: number | string }>(sql, params);
  return Number(row!.n);
}
