import cors from 'cors';
import express, { type Express, type RequestHandler } from 'express';
import type { Logger } from 'pino';
import { metrics } from '../../observability/telemetry.js';
import type { UseCaseDeps } from '../../usecases/deps.js';
import type { Config } from '../../config/config.js';
import { CONSOLE_PATHS } from '../../config/consolePaths.js';
import { type Authenticate, authenticateRequest } from '../access/auth.js';
import { type ConsoleOptions, consoleRouter } from '../console.js';
import { auditApiKeyUse } from '../access/apiKeyAudit.js';
import { contractValidator } from './contractValidator.js';
import { requestBody } from './body.js';
import { securityHeaders } from './securityHeaders.js';
import { errorHandler, notFoundHandler } from './errorHandler.js';
import { allHandlers } from '../handlers/index.js';
import { CustomerBulkhead } from './customerBulkhead.js';
import { HeavyOperationGate } from './heavyOperations.js';
import { httpMetrics } from './metrics.js';
import { attachOperations } from './operationRouter.js';
import { accessLog, requestId } from './requestContext.js';
import type { SharedLimits } from './sharedLimits.js';

export interface AppOptions {
  deps: UseCaseDeps;
  authenticate: Authenticate;
  logger: Logger;
  validateResponses: boolean;
  bodyLimit: string;
  rateLimit: RequestHandler;
  heavyOperations: Config['heavyOperations'];
  customerWrites: Config['customerWrites'];
  /** Limits shared with the other instances through Redis, when REDIS_URL is set. */
  sharedLimits?: SharedLimits | undefined;
  corsOrigins: string[];
  trustProxy: string | number | boolean;
  /** The browser console at /console/: its files and its development sign-in. */
  console: Omit<ConsoleOptions, 'deps' | 'authenticate'>;
}

/**
 * The HTTP pipeline in one readable order, limits before work: request metrics (when on) → request id → access log → security
 * headers → CORS (only for configured origins) → the console (/console, outside the API) → bearer token check (no body read yet; an API key's use
 * audited once answered) → rate
 * limit per verified user, else per client address → a verified non-admin on an admin path refused
 * 403 (roles before validation) → a body declared plainly heavy takes one of
 * its customer's slots of heavy operations (refused unread at the cap) → body (JSON or a CSV file, 12 MB for a verified
 * caller; JSON of 8 KB otherwise) → the request's operation found by the spec's paths (404, 405) → the
 * validator of its path (bearerAuth answers 401 where a token is required, then the request against
 * the spec; responses too when enabled) → the per-customer cap on heavy operations → the handler of
 * the operation → the one error handler.
 */
export function createApp(options: AppOptions): Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('query parser', 'simple');
  // No ETag: the spec offers no conditional requests (304 is none of its statuses), and hashing
  // every answer would cost time in proportion to its size, which for a 1,000-split request is megabytes.
  app.set('etag', false);
  // Behind a TLS-terminating proxy, req.ip (rate limiting without a token) is the client's only when trusted.
  app.set('trust proxy', options.trustProxy);
  if (metrics.enabled) app.use(httpMetrics);
  app.use(requestId);
  app.use(accessLog(options.logger));
  app.use(securityHeaders());
  // CORS is off unless origins are configured: browsers then get no cross-origin access at all.
  if (options.corsOrigins.length > 0) app.use(cors({ origin: options.corsOrigins, exposedHeaders: ['X-Request-Id', 'Retry-After'] }));
  // Not an API path: no bearer token, no validator (its pages sign in through the console itself).
  app.use(CONSOLE_PATHS.base, consoleRouter({ ...options.console, deps: options.deps, authenticate: options.authenticate }));
  app.use(authenticateRequest(options.authenticate));
  app.use(auditApiKeyUse(options.deps));
  app.use(options.rateLimit);
  const heavyOperations = new HeavyOperationGate(options.heavyOperations, options.sharedLimits);
  app.use(heavyOperations.admitByDeclaredSize());
  app.use(requestBody(options.bodyLimit));
  const operations = {
    handlersOn: allHandlers,
    handlers: allHandlers(options.deps),
    deps: options.deps,
    gate: heavyOperations,
    bulkhead: new CustomerBulkhead(options.customerWrites),
    logger: options.logger,
  };
  attachOperations(app, operations);
  app.use(contractValidator(options.validateResponses, operations.handlers));
  app.use(notFoundHandler);
  app.use(errorHandler(options.logger));
  return app;
}
