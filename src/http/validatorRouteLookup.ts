import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { validatorRequire } from './validatorModules.js';

/** What the validator's metadata middleware leaves on a request it routed (express-openapi-validator 5.6). */
interface OpenApiMetadata {
  expressRoute: string;
  openApiRoute: string;
  pathParams: Record<string, string>;
  schema: unknown;
  serial: number;
  _responseSchema?: unknown;
}
/** A request as the validator leaves it: with its route, once its metadata middleware found one. */
export type RoutedRequest = Request & { openapi?: OpenApiMetadata };
type ApplyOpenApiMetadata = ((context: unknown, responseApiDoc: unknown) => RequestHandler) & { memoised?: true };
interface MetadataModule {
  applyOpenApiMetadata: ApplyOpenApiMetadata;
}

/** Distinct literal routes remembered at most, per routing option: the spec has a few dozen. */
const MAX_LITERAL_ROUTES = 1_000;

/**
 * express-openapi-validator (5.6) finds a request's operation (its metadata middleware's
 * lookupRoute) by walking every route of the spec in order, on every request, until one matches.
 * Where the request's path is itself a route of the spec written without parameters
 * (`/v1/customers/payroll/estimate`), the route it finds depends on nothing but the method, that
 * path and the app's two routing options, so this remembers it: the next request to the same
 * method and path gets the very metadata the walk gave, without the walk. Paths with parameters,
 * paths in any other spelling (another case, a trailing slash), refusals (404, 405) and errors
 * still go through the validator's own middleware, which stays the one that decides. Patches the
 * module instance the validator requires, before the validator is made; idempotent.
 */
export function memoiseLiteralRouteLookups(): void {
  const module = validatorRequire('./middlewares/openapi.metadata') as MetadataModule;
  const original = module.applyOpenApiMetadata;
  if (original.memoised) return;
  const memoised: ApplyOpenApiMetadata = (context, responseApiDoc) => withLiteralRouteMemo(original(context, responseApiDoc));
  module.applyOpenApiMetadata = Object.assign(memoised, { memoised: true as const });
}

/** The metadata middleware `walk`, with a memo of the literal routes it found in front of it. */
function withLiteralRouteMemo(walk: RequestHandler): RequestHandler {
  // One map per combination of the two routing options, keyed by method and path.
  const found = [0, 1, 2, 3].map(() => new Map<string, Readonly<OpenApiMetadata>>());
  return (req: RoutedRequest, res: Response, next: NextFunction) => {
    const path = pathOf(req);
    const byKey = found[(req.app.enabled('case sensitive routing') ? 1 : 0) + (req.app.enabled('strict routing') ? 2 : 0)]!;
    const key = `${req.method} ${path}`;
    const known = byKey.get(key);
    if (known) {
      // As the walk leaves it: fresh objects for the request, the route's schemas shared.
      req.openapi = { ...known, pathParams: {} };
      req.params = req.openapi.pathParams;
      return next();
    }
    return walk(req, res, (error?: unknown) => {
      const routed = req.openapi;
      if (error === undefined && routed && routed.expressRoute === path && byKey.size < MAX_LITERAL_ROUTES && Object.keys(routed.pathParams).length === 0) {
        byKey.set(key, Object.freeze({ ...routed }));
      }
      next(error);
    });
  };
}

/** The path the validator routes by (it reads `originalUrl`, without the query). */
function pathOf(req: Request): string {
  const query = req.originalUrl.indexOf('?');
  return query === -1 ? req.originalUrl : req.originalUrl.slice(0, query);
}
