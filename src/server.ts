import type { Express } from 'express';
import type { Logger } from 'pino';
import { SimulatedProcessor } from './adapters/processor.js';
import { TableRateSource } from './adapters/rates.js';
import type { Config } from './config.js';
import { createAuthenticator } from './http/auth.js';
import { createApp } from './http/app.js';
import type { Database } from './store/db.js';
import type { UseCaseDeps } from './usecases/deps.js';

/** The composition root: wires the store and adapters into the use cases and the HTTP app. */
export function buildApp(config: Config, db: Database, logger: Logger, clock: () => Date = () => new Date()): { app: Express; deps: UseCaseDeps } {
  const deps: UseCaseDeps = {
    db,
    rates: new TableRateSource(),
    processor: new SimulatedProcessor(),
    clock,
    config: { feeHashSecret: config.feeHashSecret, feeHashTtlSeconds: config.feeHashTtlSeconds },
  };
  const app = createApp({
    deps,
    authenticate: createAuthenticator(config.jwt, db),
    logger,
    validateResponses: config.validateResponses,
    bodyLimit: config.bodyLimit,
  });
  return { app, deps };
}
