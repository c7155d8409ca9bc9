import type { NextFunction, Request, RequestHandler, Response } from 'express';
import type { RoutedRequest } from './validatorRouteLookup.js';

/** The name of the validator's last middleware (express-openapi-validator 5.6): its router of the operations. */
const VALIDATOR_ROUTER = 'operationHandlersMiddleware';

/**
 * The operations' handlers by method and route, run from the route the validator's metadata
 * middleware found for the request (`req.openapi`, the same route its checks used).
 *
 * The validator mounts the handlers its resolver gives (operationHandlers) on an Express router
 * of every route of the spec, which matches the path against each route again. The resolver
 * registers each handler here too, and this runs it straight from the route already found,
 * before that router: the same handler, with the same path parameters. Until the router has
 * asked the resolver for the handlers (on the first request the validator routes), or where a
 * request has no route, the request goes on to the router as before.
 */
export class OperationDispatch {
  private readonly handlers = new Map<string, RequestHandler>();

  /** Called by the resolver with the handler the validator mounts at `method` `expressRoute`. */
  register(method: string, expressRoute: string, handler: RequestHandler): void {
    this.handlers.set(keyOf(method.toUpperCase(), expressRoute), handler);
  }

  /** The validator's middlewares with this dispatch placed before the validator's router. */
  placeIn(validator: RequestHandler[]): RequestHandler[] {
    const router = validator.at(-1);
    if (router?.name !== VALIDATOR_ROUTER) throw new Error(`the validator's last middleware is not its router of the operations (${VALIDATOR_ROUTER})`);
    return [...validator.slice(0, -1), this.dispatch, router];
  }

  private readonly dispatch = (req: Request, res: Response, next: NextFunction): void => {
    const routed = (req as RoutedRequest).openapi;
    const handler = routed && this.handlers.get(keyOf(req.method, routed.expressRoute));
    if (!routed || !handler) return next();
    req.params = routed.pathParams;
    const answered: unknown = handler(req, res, next);
    // As Express's router treats a handler's promise: a rejection goes to the error handler.
    if (answered instanceof Promise) answered.catch((error: unknown) => next(error ?? new Error('Rejected promise')));
  };
}

/** `method` in capitals: Node gives a request's so, and register writes the resolver's so. */
function keyOf(method: string, expressRoute: string): string {
  return `${method} ${expressRoute}`;
}
