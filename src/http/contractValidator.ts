import { fileURLToPath } from 'node:url';
import type { RequestHandler } from 'express';
import * as OpenApiValidator from 'express-openapi-validator';
import { bearerAuthHandler } from './auth.js';
import type { Handlers } from './operations.js';
import { OperationDispatch } from './operationDispatch.js';
import { operationHandlers } from './operationRouter.js';
import { cacheValidatorRouteRegexps } from './routeRegexpCache.js';
import { memoiseLiteralRouteLookups } from './validatorRouteLookup.js';

const SPEC_PATH = fileURLToPath(new URL('../../openapi/openapi.yaml', import.meta.url));

/** The validator, per setting of response validation: the only option that differs between apps. */
const compiled = new Map<boolean, RequestHandler[]>();

/**
 * The contract as middleware: bearerAuth (401 where a token is required), the request against the
 * spec, the response too when `validateResponses`, then the handler of the operation, mounted from
 * the spec's paths (operationHandlers; `table` names the operations that have one, read when the
 * validator is first made: every app's table is allHandlers's).
 *
 * Made once per process and shared by every app built in it: the validator loads and checks the
 * spec when made and compiles each operation's schemas on its first request, work that depends
 * on the spec alone (the tests build dozens of apps, one per database: that compiling was a fifth
 * of the suite's CPU). What differs per app (handlers, deps, logger) it finds through `req.app`
 * (attachOperations).
 */
export function contractValidator(validateResponses: boolean, table: Handlers): RequestHandler[] {
  let middleware = compiled.get(validateResponses);
  if (!middleware) {
    // The validator compiles the spec's routes on every request; compiled once instead (see the module).
    cacheValidatorRouteRegexps();
    // A path that is a route of the spec as written is routed once, then remembered (see the module).
    memoiseLiteralRouteLookups();
    const dispatch = new OperationDispatch();
    const validator = OpenApiValidator.middleware({
      apiSpec: SPEC_PATH,
      validateRequests: { allowUnknownQueryParameters: false, coerceTypes: false },
      // A response that breaks the spec becomes a 500 (and a log line) instead of reaching the client.
      validateResponses,
      validateSecurity: { handlers: { bearerAuth: bearerAuthHandler() } },
      ajvFormats: { mode: 'full' },
      // The spec is split across files; dereferencing resolves them (the default bundle mode fails on them).
      $refParser: { mode: 'dereference' },
      operationHandlers: operationHandlers(table, { validateResponses }, dispatch),
    });
    // The handler runs from the route the validator found, not after its router matched every route again.
    middleware = dispatch.placeIn(validator);
    compiled.set(validateResponses, middleware);
  }
  return middleware;
}
