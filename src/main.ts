import { mkdir } from 'node:fs/promises';
import { type RequestListener, type Server, createServer } from 'node:http';
import { type Config, ConfigError, loadConfig, productionProblems } from './config/config.js';
import { SharedLimits } from './http/pipeline/sharedLimits.js';
import { buildApp } from './composition/app.js';
import { setHeapGrowing } from './composition/heap.js';
import { countTransactionRetry, startMetrics, workerGauges } from './composition/observability.js';
import { announceScreening, buildWorker } from './composition/worker.js';
import { exitOnUnhandledFailures } from './composition/processFailures.js';
import { createLogger } from './observability/logger.js';
import type { Logger } from 'pino';
import type { Database } from './store/database/db.js';
import { type DatabaseSettings, openDatabase, withDatabaseUrl } from './store/database/open.js';
import { isDatabaseEmpty } from './world/load.js';
import { seedInChildProcess } from './composition/seedProcess.js';
import { answerClientErrors } from './http/pipeline/clientErrors.js';

/**
 * The HTTP server of `app`: a client that trickles its headers or body holds a connection, so
 * these bound how long (checked every second); oversized headers get the envelope (answerClientErrors).
 */
function httpServer(config: Config, app: RequestListener): Server {
  const { headersTimeoutMs: headersTimeout, requestTimeoutMs: requestTimeout } = config.httpTimeouts;
  return answerClientErrors(createServer({ headersTimeout: Math.min(headersTimeout, requestTimeout), requestTimeout, connectionsCheckingInterval: 1000 }, app));
}

/** Start-up: config → database (migrated, seeded when empty) → HTTP; SIGTERM drains and closes. */
async function main(): Promise<void> {
  const config = loadConfig();
  const problems = productionProblems(config);
  if (problems.length > 0) throw new ConfigError(`refusing to start in production: ${problems.join('; ')}`);
  setHeapGrowing(config.heapGrowingPercent);
  const logger = createLogger(config.logLevel);
  const failures = exitOnUnhandledFailures(logger);
  if (!config.databaseUrl && config.dataDir !== 'memory://') await mkdir(config.dataDir, { recursive: true });
  const settings = { databaseUrl: config.databaseUrl, dataDir: config.dataDir, embeddedPort: config.embeddedPort, session: config.databaseSession };
  const db = await openDatabase(settings, {
    maxConnections: config.databasePoolSize,
    applicationName: 'payroll-api',
    onTransactionRetry: countTransactionRetry,
  });
  if (config.worldFile) await seedWorld(db, settings, config.worldFile, logger);

  // The worker runs beside the server by default; with WORKER_IN_PROCESS=false run `npm run worker` instead.
  // It polls through a small pool of its own, so its passes never queue behind request traffic.
  const workerDb = config.worker.inProcess
    ? await openDatabase(settings, { maxConnections: 2, applicationName: 'payroll-worker', onTransactionRetry: countTransactionRetry })
    : undefined;
  // The simulated providers' connections, apart from the pool the requests' transactions hold (composition/deps.ts).
  const providerDb = await openDatabase(settings, { maxConnections: 2, applicationName: 'payroll-providers' });
  // Before the app is built: its pipeline measures requests only when metrics are on.
  const pools = { 'payroll-api': db, 'payroll-worker': workerDb, 'payroll-providers': providerDb };
  const metricsServer = await startMetrics({ port: config.metricsPort, host: config.host }, pools, workerDb, workerDb && workerGauges(config, workerDb));
  const redis = config.redisUrl ? new SharedLimits(config.redisUrl, config.redisKeyPrefix, logger) : undefined;
  const { app } = buildApp(config, db, logger, undefined, redis, providerDb);
  if (!workerDb) announceScreening(config, logger);
  const worker = workerDb ? buildWorker(config, workerDb, logger).loop : undefined;
  worker?.start();
  const server = httpServer(config, app);
  server.listen(config.port, config.host, () =>
    logger.info({ host: config.host, port: config.port, database: db.kind, metricsPort: metricsServer?.port }, 'listening'),
  );

  let stopping = false;
  const stop = (reason: string, exitCode: number) => {
    if (stopping) return;
    stopping = true;
    logger.info({ reason }, 'shutting down: no new connections, finishing requests in flight');
    server.close(async () => {
      await worker?.stop();
      await metricsServer?.close();
      await workerDb?.close();
      await providerDb.close();
      await redis?.close();
      await db.close();
      logger.info('stopped');
      process.exit(exitCode);
    });
    server.closeIdleConnections();
    // Requests still running after 10 s are cut off rather than holding the deploy.
    setTimeout(() => process.exit(1), 10_000).unref();
  };
  process.on('SIGTERM', () => stop('SIGTERM', 0));
  process.on('SIGINT', () => stop('SIGINT', 0));
  failures.shutdownWith((failure) => stop(failure, 1));
}

/**
 * Loads the world when the database is empty, in a process of its own (composition/seedProcess.ts):
 * parsing and writing a big world grows a process by hundreds of megabytes it keeps, and the
 * PostgreSQL backend that wrote it keeps what it grew to; both go when the child exits. A database
 * that holds a world is only checked, here, and the file is not read.
 */
async function seedWorld(db: Database, settings: DatabaseSettings, worldFile: string, logger: Logger): Promise<void> {
  if (!(await isDatabaseEmpty(db))) return;
  const outcome = await withDatabaseUrl(settings, (url) => seedInChildProcess(url, worldFile));
  if (outcome.loaded) logger.info({ worldFile, seedingPeakRssMb: outcome.peakRssMb }, 'database was empty: world loaded (in a process of its own)');
}

main().catch((error: unknown) => {
  console.error(error instanceof ConfigError ? `configuration error: ${error.message}` : error);
  process.exit(1);
});
