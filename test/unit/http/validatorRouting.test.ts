// The validator's routing, shortened: literal routes remembered (validatorRouteLookup.ts) and the
// handler run from the route found (operationDispatch.ts). The whole suite drives both through the
// real server; these pin what each promises on its own.
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { describe, expect, it } from 'vitest';
import { OperationDispatch } from '../../../src/http/operationDispatch.js';
import { validatorRequire } from '../../../src/http/validatorModules.js';
import { memoiseLiteralRouteLookups } from '../../../src/http/validatorRouteLookup.js';

type Context = { expressRouteMap: Record<string, unknown> };
const { OpenApiContext } = validatorRequire('./framework/openapi.context') as { OpenApiContext: new (spec: object) => Context };
const metadata = () =>
  validatorRequire('./middlewares/openapi.metadata') as { applyOpenApiMetadata: (context: Context, responseApiDoc: unknown) => RequestHandler };

const route = (expressRoute: string, openApiRoute: string, method: string, pathParams: string[]) => ({
  basePath: '',
  expressRoute,
  openApiRoute,
  method,
  pathParams,
});
/** A spec of two operations as the validator's loader gives it: a literal route and one with a parameter. */
function context(): Context {
  const apiDoc = {
    paths: {
      '/v1/things/search': { post: { operationId: 'searchThings' } },
      '/v1/things/{thingId}': { get: { operationId: 'getThing' } },
    },
  };
  const routes = [route('/v1/things/search', '/v1/things/search', 'POST', []), route('/v1/things/:thingId', '/v1/things/{thingId}', 'GET', ['thingId'])];
  return new OpenApiContext({ apiDoc, basePaths: [''], routes, serial: 0 });
}

type Routed = {
  openapi?: { expressRoute: string; openApiRoute: string; pathParams: Record<string, string>; schema?: { operationId?: string } };
  params: object;
};
function request(method: string, url: string): Request & Routed {
  const path = url.split('?')[0]!;
  return { method, originalUrl: url, url, path, baseUrl: '', params: {}, app: { enabled: () => false } } as unknown as Request & Routed;
}
/** Runs a middleware; what it passed to next (undefined when it went on), or what it threw. */
function run(middleware: RequestHandler, req: Request): { nextWith: unknown; called: boolean } {
  const outcome = { nextWith: undefined as unknown, called: false };
  try {
    middleware(req, {} as Response, (error?: unknown) => Object.assign(outcome, { nextWith: error, called: true }));
  } catch (error) {
    Object.assign(outcome, { nextWith: error, called: true });
  }
  return outcome;
}

describe('literal routes, routed once then remembered', () => {
  memoiseLiteralRouteLookups();
  memoiseLiteralRouteLookups();

  it('gives the next request to the same literal path the metadata the walk gave, without walking', () => {
    const ctx = context();
    const middleware = metadata().applyOpenApiMetadata(ctx, undefined);
    const first = request('POST', '/v1/things/search?x=1');
    expect(run(middleware, first)).toEqual({ nextWith: undefined, called: true });
    // Routes removed from the context: only a remembered route can still be found.
    ctx.expressRouteMap = {};
    const second = request('POST', '/v1/things/search');
    expect(run(middleware, second)).toEqual({ nextWith: undefined, called: true });
    expect(second.openapi).toEqual(first.openapi);
    expect(second.openapi).not.toBe(first.openapi);
    expect(second.openapi?.schema?.operationId).toBe('searchThings');
    expect(second.params).toEqual({});
  });

  it('walks again for paths with parameters, other spellings and refusals', () => {
    const ctx = context();
    const middleware = metadata().applyOpenApiMetadata(ctx, undefined);
    const byId = request('GET', '/v1/things/abc');
    run(middleware, byId);
    expect(byId.openapi?.pathParams).toEqual({ thingId: 'abc' });
    const otherCase = request('POST', '/V1/things/search');
    run(middleware, otherCase);
    expect(otherCase.openapi?.schema?.operationId).toBe('searchThings');
    const wrongMethod = request('GET', '/v1/things/search');
    expect(run(middleware, wrongMethod).nextWith).toMatchObject({ status: 405 });
    ctx.expressRouteMap = {};
    for (const req of [request('GET', '/v1/things/abc'), request('POST', '/V1/things/search')]) {
      run(middleware, req);
      expect(req.openapi).toBeUndefined();
    }
    // The 405 was not remembered: walked again, with the routes gone, the path is unknown.
    expect(run(middleware, request('GET', '/v1/things/search')).nextWith).toMatchObject({ status: 404 });
  });
});

describe('operations run from the route the validator found', () => {
  const routerOfTheValidator = Object.defineProperty(() => undefined, 'name', { value: 'operationHandlersMiddleware' }) as RequestHandler;

  it('runs the registered handler with the route’s path parameters, before the validator’s router', () => {
    const dispatch = new OperationDispatch();
    const seen: object[] = [];
    dispatch.register('GET', '/v1/things/:thingId', ((req: Request) => void seen.push(req.params)) as RequestHandler);
    const chain = dispatch.placeIn([routerOfTheValidator]);
    expect(chain.at(-1)).toBe(routerOfTheValidator);
    const req = request('GET', '/v1/things/abc');
    req.openapi = { expressRoute: '/v1/things/:thingId', openApiRoute: '/v1/things/{thingId}', pathParams: { thingId: 'abc' } };
    expect(run(chain[0]!, req).called).toBe(false);
    expect(seen).toEqual([{ thingId: 'abc' }]);
  });

  it('goes on to the validator’s router without a route or a handler, and hands a rejection to next', async () => {
    const dispatch = new OperationDispatch();
    const [middleware] = dispatch.placeIn([routerOfTheValidator]);
    expect(run(middleware!, request('GET', '/v1/unknown'))).toEqual({ nextWith: undefined, called: true });
    const routed = request('POST', '/v1/things/search');
    routed.openapi = { expressRoute: '/v1/things/search', openApiRoute: '/v1/things/search', pathParams: {} };
    expect(run(middleware!, routed)).toEqual({ nextWith: undefined, called: true });
    const failure = new Error('refused');
    dispatch.register('POST', '/v1/things/search', (async () => Promise.reject(failure)) as RequestHandler);
    const handedOn = await new Promise<unknown>((resolve) => middleware!(routed, {} as Response, resolve as NextFunction));
    expect(handedOn).toBe(failure);
  });

  it('refuses a validator whose last middleware is not its router', () => {
    expect(() => new OperationDispatch().placeIn([() => undefined])).toThrow(Error);
  });
});
