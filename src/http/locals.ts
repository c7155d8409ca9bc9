import type { Principal } from '../usecases/principal.js';

/**
 * What the pipeline leaves on `res.locals` for the steps after it, as Express's `LocalsObj`: a
 * handler typed with it reads `res.locals.principal` as a Principal, not as Express's `any`.
 */
export interface Locals {
  /** The authenticated caller, set by the bearerAuth security handler on the operations that require one. */
  principal?: Principal;
}
