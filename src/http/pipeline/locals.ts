import type { DomainError } from '../../domain/errors.js';
import type { Principal } from '../../usecases/access/principal.js';

/** What authenticating a request gave (authenticateRequest): a principal, or why not; nothing when it carried no token. */
export interface Authentication {
  principal?: Principal;
  failure?: unknown;
}

/**
 * Every field the pipeline leaves on `res.locals` for the steps after it. It is merged into
 * Express's own `Locals` (below), so that every `res.locals` in the app reads these fields typed,
 * with no cast: `res.locals.principal` is a Principal, not Express's `any`.
 */
export interface Locals {
  /** The request's id (X-Request-Id), set first for every request: its log lines carry it. */
  requestId?: string;
  /** The request's trace, when tracing is on: its log lines carry it too. */
  traceId?: string;
  /** What the bearer token gave, set by authenticateRequest for every request before its body is read. */
  authentication?: Authentication;
  /** Why the caller's role may not run the operation, set by the bearerAuth security handler. */
  roleRefusal?: DomainError;
  /** The authenticated caller, set by the bearerAuth security handler on the operations that require one. */
  principal?: Principal;
  /** The spec operation the request was routed to: the metrics' label and the server span's name. */
  operationId?: string;
  /** A slot of the heavy-operation cap taken from the declared body size, released when the response ends. */
  heavySlotHeld?: boolean;
}

declare global {
  // Express declares `res.locals` as its global `Express.Locals` (declaration merging is how it is typed).
  // eslint-disable-next-line @typescript-eslint/no-namespace
  namespace Express {
    // eslint-disable-next-line @typescript-eslint/no-empty-object-type
    interface Locals extends PipelineLocals {}
  }
}

type PipelineLocals = Locals;
