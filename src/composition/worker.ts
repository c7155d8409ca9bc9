import type { Logger } from 'pino';
import { SimulatedRails } from '../adapters/rails.js';
import { SimulatedBatchRails } from '../adapters/simulatedBatchRails.js';
import { HttpWebhookSender } from '../adapters/webhookSender.js';
import type { Config } from '../config.js';
import type { Database } from '../store/db.js';
import type { ExecutionDeps } from '../usecases/execution.js';
import { WorkerLoop } from '../worker/loop.js';
import { buildDeps } from './deps.js';

/**
 * The worker's wiring: the use-case deps plus the simulated bank and the webhook sender, on `db`,
 * the handle the worker should use (the server's own, or a pool of its own). Imports nothing of
 * src/http, so `npm run worker` loads no Express.
 */
export function buildWorker(config: Config, db: Database, logger: Logger, clock: () => Date = () => new Date()): { loop: WorkerLoop; deps: ExecutionDeps } {
  const deps: ExecutionDeps = {
    ...buildDeps(config, db, clock),
    rails: new SimulatedRails(db, config.worker.simulatedSettlementMs, clock),
    batchRails: new SimulatedBatchRails(db, config.worker.simulatedSettlementMs, clock),
    leaseMs: config.worker.leaseMs,
    recheckMs: Math.min(config.worker.pollMs, 1000),
    webhooks: new HttpWebhookSender({ allowLoopback: config.webhookAllowLoopback }),
  };
  return { loop: new WorkerLoop(deps, config.worker.pollMs, logger), deps };
}
