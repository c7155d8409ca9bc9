import { loadConfig } from '../../src/config/config.js';
import { createLogger } from '../../src/observability/logger.js';
import { buildWorker } from '../../src/composition/worker.js';
import type { ExecutionDeps } from '../../src/usecases/payroll/execution.js';
import { executePendingWork } from '../../src/usecases/payroll/execution.js';
import { type TestServer, startTestServer } from './server.js';

/** The worker wired to a test server's database and clock; the simulated rails settle at once. */
export function workerFor(server: TestServer, settlementMs = 0): ExecutionDeps {
  const config = loadConfig({ NODE_ENV: 'test', SIMULATED_SETTLEMENT_MS: String(settlementMs) });
  return buildWorker(config, server.db, createLogger('silent'), server.clock.now).deps;
}

/** A test server and a worker on its database, for the files that drive requests to their end. */
export async function startServerWithWorker(): Promise<{ server: TestServer; worker: ExecutionDeps }> {
  const server = await startTestServer();
  return { server, worker: workerFor(server) };
}

/** Runs worker passes until one finds nothing to do (bounded, so a bug cannot hang the suite). */
export async function drain(deps: ExecutionDeps, maxPasses = 50): Promise<number> {
  for (let pass = 1; pass <= maxPasses; pass++) {
    if ((await executePendingWork(deps)) === 0) return pass;
  }
  throw new Error(`the worker still had work after ${maxPasses} passes`);
}
