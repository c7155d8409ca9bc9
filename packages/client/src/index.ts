/**
 * The typed client of the Payroll Fee Estimation API: `openapi-fetch` driven by the types generated
 * from the spec, so every operation of the spec — path, method, parameters, body and every response —
 * is typed end to end, and a new operation is covered as soon as `generated/api.d.ts` has it.
 *
 * ```ts
 * const api = createPayrollClient({ baseUrl: 'http://localhost:3000', token: process.env.TOKEN });
 * const estimate = unwrap(await api.POST('/v1/customers/payroll/estimate', { body }));
 * ```
 *
 * The main export of the `payroll-fee-service` package (packages/client, built into its `dist/`); the project's own contract
 * tests drive the server through it, so a spec change that breaks a client breaks the build.
 */
import createClient, { type Client, type ClientPathsWithMethod, type FetchResponse, type MaybeOptionalInit, type Middleware } from 'openapi-fetch';
import type { components, operations, paths } from 'payroll-fee-service/types';

export type { components, operations, paths };
export type { Middleware };
export { PayrollApiError, unwrap, type ErrorCode, type ErrorDetail, type ErrorEnvelope, type ErrorFacts, type ErrorReason } from './envelope.js';
export {
  constructEvent,
  constructEventAsync,
  verifyWebhookAsync,
  WebhookSignatureError,
  type ConstructEventOptions,
  type WebhookEvent,
  type WebhookSignatureFailure,
} from './webhooks.js';
export { createWithRetry, paginate, type CallResult, type CursorPage, type RetryOptions } from './paging.js';

/** A bearer token, or a function returning one (called before every request: refresh it there). */
export type TokenSource = string | (() => string | Promise<string>);

export interface PayrollClientOptions {
  /** Scheme, host and port of the service, without a trailing slash, e.g. `http://localhost:3000`. */
  baseUrl: string;
  /** Sent as `Authorization: Bearer <token>` unless a call sets its own `Authorization` header. */
  token?: TokenSource;
  /** A custom fetch (tests, proxies, retries); defaults to `globalThis.fetch`. */
  fetch?: (input: Request) => Promise<Response>;
  /** Headers sent with every request. */
  headers?: Record<string, string>;
}

/** Options every call takes on top of openapi-fetch's own (`params`, `body`, `headers`, …). */
export interface CallOptions {
  /**
   * Sent as the `Idempotency-Key` header: a retry of a call with the same key is answered with the
   * first answer instead of acting twice. Use one fresh key (e.g. `crypto.randomUUID()`) per intent.
   */
  idempotencyKey?: string;
}

type HttpMethod = 'get' | 'put' | 'post' | 'delete' | 'options' | 'head' | 'patch' | 'trace';
// The options argument is optional exactly when openapi-fetch's MaybeOptionalInit admits `undefined` (nothing
// in it is required); the call options are added after inference, as openapi-fetch adds its own extras.
type InitParam<Init> = undefined extends Init ? [(Init & CallOptions)?] : [Init & CallOptions];

/**
 * One HTTP method of the client: openapi-fetch's own method type (its exported `ClientPathsWithMethod`,
 * `MaybeOptionalInit` and `FetchResponse`), whose options also take {@link CallOptions}.
 */
export type PayrollClientMethod<Method extends HttpMethod> = <
  Path extends ClientPathsWithMethod<Client<paths>, Method>,
  Init extends MaybeOptionalInit<paths[Path], Method>,
>(
  url: Path,
  ...init: InitParam<Init>
) => Promise<FetchResponse<paths[Path][Method] & Record<string, unknown>, Init, `${string}/${string}`>>;

/** The client: openapi-fetch's call style (`api.GET(path, { params, body, headers })`) for every operation. */
export interface PayrollClient {
  GET: PayrollClientMethod<'get'>;
  PUT: PayrollClientMethod<'put'>;
  POST: PayrollClientMethod<'post'>;
  DELETE: PayrollClientMethod<'delete'>;
  PATCH: PayrollClientMethod<'patch'>;
  HEAD: PayrollClientMethod<'head'>;
  OPTIONS: PayrollClientMethod<'options'>;
  TRACE: PayrollClientMethod<'trace'>;
  /** Add openapi-fetch middleware (logging, retries, …). */
  use(...middleware: Middleware[]): void;
  /** Remove middleware added with `use`. */
  eject(...middleware: Middleware[]): void;
}

const METHODS = ['GET', 'PUT', 'POST', 'DELETE', 'PATCH', 'HEAD', 'OPTIONS', 'TRACE'] as const;

/** Creates a client for one service and one caller. */
export function createPayrollClient(options: PayrollClientOptions): PayrollClient {
  const { baseUrl, token, fetch, headers } = options;
  const inner = createClient<paths>({ baseUrl, ...(fetch ? { fetch } : {}), ...(headers ? { headers } : {}) });
  if (token !== undefined) {
    inner.use({
      async onRequest({ request }) {
        if (request.headers.has('Authorization')) return undefined;
        const value = typeof token === 'function' ? await token() : token;
        request.headers.set('Authorization', `Bearer ${value}`);
        return request;
      },
    });
  }
  type Untyped = (url: string, init?: Record<string, unknown>) => Promise<unknown>;
  const call =
    (method: Untyped): Untyped =>
    (url, init) => {
      if (!init || !('idempotencyKey' in init)) return method(url, init);
      const { idempotencyKey, ...rest } = init;
      if (idempotencyKey === undefined) return method(url, rest);
      if (typeof idempotencyKey !== 'string' || idempotencyKey === '') throw new TypeError('idempotencyKey must be a non-empty string');
      const merged = new Headers(rest.headers as HeadersInit | undefined);
      merged.set('Idempotency-Key', idempotencyKey);
      return method(url, { ...rest, headers: merged });
    };
  const client: Record<string, unknown> = { use: inner.use.bind(inner), eject: inner.eject.bind(inner) };
  for (const name of METHODS) client[name] = call(inner[name] as unknown as Untyped);
  return client as unknown as PayrollClient;
}

export type PayrollRequestStatus = components['schemas']['PayrollRequestStatus'];

/** Statuses after which a payroll request never changes again. */
export const FINAL_PAYROLL_STATUSES: readonly PayrollRequestStatus[] = ['COMPLETED', 'PARTIALLY_COMPLETED', 'FAILED', 'CANCELLED'];

/** Whether a payroll request in this status will not change any more (stop polling). */
export function isFinalPayrollStatus(status: PayrollRequestStatus): boolean {
  return FINAL_PAYROLL_STATUSES.includes(status);
}

/** The documented polling interval: 30 s while EXECUTING or PAYOUT_INITIATED. */
export const PAYROLL_POLL_INTERVAL_MS = 30_000;
