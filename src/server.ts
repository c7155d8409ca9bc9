import type { Express } from 'express';
import type { Store } from 'express-rate-limit';
import type { Logger } from 'pino';
import { SimulatedProcessor } from './adapters/processor.js';
import { SimulatedRails } from './adapters/rails.js';
import { TableRateSource } from './adapters/rates.js';
import { HttpWebhookSender } from './adapters/webhookSender.js';
import type { Config } from './config.js';
import { createAuthenticator } from './http/auth.js';
import { createApp } from './http/app.js';
import { rateLimiter } from './http/rateLimit.js';
import type { Database } from './store/db.js';
import type { UseCaseDeps } from './usecases/deps.js';
import type { ExecutionDeps } from './usecases/execution.js';
import { WorkerLoop } from './worker/loop.js';

/** The composition root: wires the store and adapters into the use cases and the HTTP app. */
export function buildApp(
  config: Config,
  db: Database,
  logger: Logger,
  clock: () => Date = () => new Date(),
  rateLimitStore?: Store,
): { app: Express; deps: UseCaseDeps } {
  const deps: UseCaseDeps = {
    db,
    rates: new TableRateSource(),
    processor: new SimulatedProcessor(),
    clock,
    config: useCaseConfig(config),
  };
  const app = createApp({
    deps,
    authenticate: createAuthenticator(config.jwt, db),
    logger,
    validateResponses: config.validateResponses,
    bodyLimit: config.bodyLimit,
    rateLimit: rateLimiter(config.rateLimitPerMinute, rateLimitStore),
    corsOrigins: config.corsOrigins,
    trustProxy: config.trustProxy,
  });
  return { app, deps };
}

/** The worker's wiring: the use-case deps plus the simulated processor and bank. */
export function buildWorker(config: Config, db: Database, logger: Logger, clock: () => Date = () => new Date()): { loop: WorkerLoop; deps: ExecutionDeps } {
  const deps: ExecutionDeps = {
    db,
    rates: new TableRateSource(),
    processor: new SimulatedProcessor(),
    clock,
    config: useCaseConfig(config),
    rails: new SimulatedRails(db, config.worker.simulatedSettlementMs, clock),
    leaseMs: config.worker.leaseMs,
    recheckMs: Math.min(config.worker.pollMs, 1000),
    webhooks: new HttpWebhookSender(),
  };
  return { loop: new WorkerLoop(deps, config.worker.pollMs, logger), deps };
}

function useCaseConfig(config: Config): UseCaseDeps['config'] {
  return { feeHashSecret: config.feeHashSecret, feeHashTtlSeconds: config.feeHashTtlSeconds, webhookAllowLoopback: config.webhookAllowLoopback };
}
