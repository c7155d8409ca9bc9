import { setHeapGrowing } from '../composition/heap.js';
import { countTransactionRetry, startMetrics, workerGauges } from '../composition/observability.js';
import { buildWorker } from '../composition/worker.js';
import { loadConfig } from '../config/config.js';
import { exitOnUnhandledFailures } from '../composition/processFailures.js';
import { createLogger } from '../observability/logger.js';
import { openDatabase } from '../store/database/open.js';

/** `npm run worker`: the transfer worker on its own, beside servers started with WORKER_IN_PROCESS=false. */
async function main(): Promise<void> {
  const config = loadConfig();
  setHeapGrowing(config.heapGrowingPercent);
  const logger = createLogger(config.logLevel);
  const failures = exitOnUnhandledFailures(logger);
  const settings = { databaseUrl: config.databaseUrl, dataDir: config.dataDir, embeddedPort: config.embeddedPort, session: config.databaseSession };
  const db = await openDatabase(settings, { maxConnections: 2, applicationName: 'payroll-worker', onTransactionRetry: countTransactionRetry });
  const metricsServer = await startMetrics({ port: config.metricsPort, host: config.host }, { 'payroll-worker': db }, db, workerGauges(config, db));
  const { loop } = buildWorker(config, db, logger);
  loop.start();
  logger.info({ database: db.kind, metricsPort: metricsServer?.port }, 'worker started');
  let stopping = false;
  const stop = async (reason: string, exitCode: number) => {
    if (stopping) return;
    stopping = true;
    logger.info({ reason }, 'worker stopping after the pass in progress');
    await loop.stop();
    await metricsServer?.close();
    await db.close();
    process.exit(exitCode);
  };
  process.once('SIGTERM', () => void stop('SIGTERM', 0));
  process.once('SIGINT', () => void stop('SIGINT', 0));
  failures.shutdownWith((failure) => void stop(failure, 1));
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
