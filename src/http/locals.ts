import type { Principal } from '../usecases/principal.js';

/**
 * What the pipeline leaves on `res.locals` for the steps after it, as Express's `LocalsObj`: a
 * handler typed with it reads `res.locals.principal` as a Principal, not as Express's `any`.
 */
export interface Locals {
  /** The authenticated caller, set by the bearerAuth security handler on the operations that require one. */
  principal?: Principal;
  /** The request's id (X-Request-Id), set first for every request: its log lines carry it. */
  requestId?: string;
  /** The request's trace, when tracing is on: its log lines carry it too. */
  traceId?: string;
  /** The spec operation the request was routed to: the metrics' label and the server span's name. */
  operationId?: string;
}
