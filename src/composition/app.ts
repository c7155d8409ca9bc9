import type { Express } from 'express';
import type { Logger } from 'pino';
import type { Config } from '../config/config.js';
import { createApp } from '../http/pipeline/app.js';
import { createAuthenticator } from '../http/access/auth.js';
import { rateLimiter } from '../http/pipeline/rateLimit.js';
import type { SharedLimits } from '../http/pipeline/sharedLimits.js';
import type { Database } from '../store/database/db.js';
import type { UseCaseDeps } from '../usecases/deps.js';
import { ApiKeyUsage } from '../usecases/access/apiKeyUsage.js';
import { buildDeps } from './deps.js';

/** The HTTP server's wiring: the use-case deps behind the pipeline of src/http. */
export function buildApp(
  config: Config,
  db: Database,
  logger: Logger,
  clock: () => Date = () => new Date(),
  sharedLimits?: SharedLimits,
  providerDb?: Database,
): { app: Express; deps: UseCaseDeps } {
  const deps: UseCaseDeps = {
    ...buildDeps(config, db, clock, providerDb),
    ...(sharedLimits && { optionalDependencies: { redis: () => sharedLimits.state() } }),
    apiKeyUsage: new ApiKeyUsage(db),
  };
  const app = createApp({
    deps,
    authenticate: createAuthenticator(config.jwt, deps),
    logger,
    validateResponses: config.validateResponses,
    bodyLimit: config.bodyLimit,
    rateLimit: rateLimiter({ perMinute: config.rateLimitPerMinute, anonymousPerMinute: config.rateLimitAnonymousPerMinute }, sharedLimits?.rateLimitStore),
    heavyOperations: config.heavyOperations,
    customerWrites: config.customerWrites,
    sharedLimits,
    corsOrigins: config.corsOrigins,
    trustProxy: config.trustProxy,
    console: { console: config.console, jwt: config.jwt },
  });
  return { app, deps };
}
