import { mkdir } from 'node:fs/promises';
import { ConfigError, loadConfig, productionProblems } from './config.js';
import { connectRedisStore } from './http/rateLimit.js';
import { buildApp } from './composition/app.js';
import { buildWorker } from './composition/worker.js';
import { createLogger } from './logger.js';
import { analyze, openDatabase } from './store/open.js';
import { seedIfEmpty } from './world/load.js';

/** Start-up: config → database (migrated, seeded when empty) → HTTP; SIGTERM drains and closes. */
async function main(): Promise<void> {
  const config = loadConfig();
  const problems = productionProblems(config);
  if (problems.length > 0) throw new ConfigError(`refusing to start in production: ${problems.join('; ')}`);
  const logger = createLogger(config.logLevel);
  if (!config.databaseUrl && config.dataDir !== 'memory://') await mkdir(config.dataDir, { recursive: true });
  const settings = { databaseUrl: config.databaseUrl, dataDir: config.dataDir, embeddedPort: config.embeddedPort };
  const db = await openDatabase(settings, { applicationName: 'payroll-api' });
  if (config.worldFile && (await seedIfEmpty(db, config.worldFile))) {
    // Fresh statistics, or the planner scans whole tables (autovacuum may be off, as on the CI machines).
    await analyze(db);
    logger.info({ worldFile: config.worldFile }, 'database was empty: world loaded');
  }

  const redis = config.redisUrl ? await connectRedisStore(config.redisUrl) : undefined;
  const { app } = buildApp(config, db, logger, undefined, redis?.store);
  // The worker runs beside the server by default; with WORKER_IN_PROCESS=false run `npm run worker` instead.
  // It polls through a small pool of its own, so its passes never queue behind request traffic.
  const workerDb = config.worker.inProcess ? await openDatabase(settings, { maxConnections: 2, applicationName: 'payroll-worker' }) : undefined;
  const worker = workerDb ? buildWorker(config, workerDb, logger).loop : undefined;
  worker?.start();
  const server = app.listen(config.port, () => logger.info({ port: config.port, database: db.kind }, 'listening'));

  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'shutting down: no new connections, finishing requests in flight');
    server.close(async () => {
      await worker?.stop();
      await workerDb?.close();
      await redis?.close();
      await db.close();
      logger.info('stopped');
      process.exit(0);
    });
    server.closeIdleConnections();
    // Requests still running after 10 s are cut off rather than holding the deploy.
    setTimeout(() => process.exit(1), 10_000).unref();
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
}

main().catch((error: unknown) => {
  console.error(error instanceof ConfigError ? `configuration error: ${error.message}` : error);
  process.exit(1);
});
