import type { NextFunction, Request, RequestHandler, Response } from 'express';
import * as OpenApiValidator from 'express-openapi-validator';
import { bearerAuthHandler } from '../access/auth.js';
import type { Handlers } from './operations.js';
import { type BoundOperations, bindOperations } from './operationRouter.js';
import { type ApiDoc, type Method, METHODS, type SpecRoute, type SpecRouter, specRouter } from './specRoutes.js';

/** The contract, per setting of response validation: the only option that differs between apps. */
const compiled = new Map<boolean, RequestHandler>();

interface Contract {
  apiDoc: ApiDoc;
  router: SpecRouter;
  operations: BoundOperations;
  /** The validator of each path of the spec, made on the path's first request. */
  validators: Map<string, RequestHandler[]>;
}

/**
 * The contract as middleware: the request's operation found by the spec's own paths (SpecRouter;
 * an unknown path is 404, a method the path does not serve 405), then the validator of that path
 * — bearerAuth (401 where a token is required), the request against the spec, the response too
 * when `validateResponses` — then the handler of the operation (bindOperations; `table` names the
 * operations that have one: every app's table is allHandlers's).
 *
 * Each path has a validator of its own, made with the validator's public options from a copy of
 * the spec that holds that path alone: the validator finds a request's operation by trying every
 * route of the spec it was given, on every request, so given one route it tries one, and the
 * router in front of it has already chosen which. Nothing here reaches into the validator.
 *
 * Made once per process and shared by every app built in it: the validator loads and checks the
 * spec when made and compiles each operation's schemas on its first request, work that depends on
 * the spec alone (the tests build dozens of apps, one per database). What differs per app
 * (handlers, deps, logger) it finds through `req.app` (attachOperations).
 */
export function contractValidator(validateResponses: boolean, table: Handlers): RequestHandler {
  let middleware = compiled.get(validateResponses);
  if (!middleware) {
    middleware = contractOf(validateResponses, table);
    compiled.set(validateResponses, middleware);
  }
  return middleware;
}

function contractOf(validateResponses: boolean, table: Handlers): RequestHandler {
  let contract: Contract | undefined;
  const ready = specRouter().then(({ apiDoc, router }) => {
    contract = { apiDoc, router, operations: bindOperations(table, apiDoc, router, { validateResponses }), validators: new Map() };
    return contract;
  });
  // A spec or a handler table that fails is reported to every request (below), not as an unhandled rejection.
  ready.catch(() => undefined);
  return (req, res, next) => {
    if (contract) return serve(contract, validateResponses, req, res, next);
    ready.then((made) => serve(made, validateResponses, req, res, next), next);
  };
}

function serve(contract: Contract, validateResponses: boolean, req: Request, res: Response, next: NextFunction): void {
  const route = contract.router.find(req.path);
  const handler = route && contract.operations.get(route.path)?.[req.method.toLowerCase() as Method];
  if (!route) return next(new OpenApiValidator.error.NotFound({ path: req.path, message: 'not found' }));
  if (!handler) return next(methodNotAllowed(req, route));
  let validator = contract.validators.get(route.path);
  if (!validator) {
    validator = validatorOf(contract.apiDoc, route.path, validateResponses);
    contract.validators.set(route.path, validator);
  }
  run([...validator, handler], req, res, next);
}

function methodNotAllowed(req: Request, route: SpecRoute): Error {
  const allow = METHODS.filter((method) => route.operationIds[method]).map((method) => method.toUpperCase());
  return new OpenApiValidator.error.MethodNotAllowed({ path: req.path, message: `${req.method} method not allowed`, headers: { Allow: allow.join(', ') } });
}

/**
 * The validator of one path: the spec without its other paths (and without its webhooks, which
 * the service sends), copied, since the validator prepares the schemas it is given in place.
 */
function validatorOf(apiDoc: ApiDoc, path: string, validateResponses: boolean): RequestHandler[] {
  const { webhooks: _sent, paths, ...rest } = apiDoc as ApiDoc & { webhooks?: unknown };
  const apiSpec = structuredClone({ ...rest, paths: { [path]: paths![path]! } }) as ApiDoc;
  return OpenApiValidator.middleware({
    apiSpec,
    validateRequests: { allowUnknownQueryParameters: false, coerceTypes: false },
    // A response that breaks the spec becomes a 500 (and a log line) instead of reaching the client.
    validateResponses,
    validateSecurity: { handlers: { bearerAuth: bearerAuthHandler() } },
    ajvFormats: { mode: 'full' },
  });
}

/** Runs middlewares in turn, as an Express router does: an error, thrown or rejected, goes to `done`. */
function run(chain: RequestHandler[], req: Request, res: Response, done: NextFunction): void {
  let index = 0;
  const next: NextFunction = (error?: unknown) => {
    const middleware = chain[index++];
    if (error || !middleware) return done(error);
    try {
      const answered: unknown = middleware(req, res, next);
      if (answered instanceof Promise) answered.catch((rejection: unknown) => done(rejection ?? new Error('Rejected promise')));
    } catch (thrown) {
      done(thrown);
    }
  };
  next();
}
