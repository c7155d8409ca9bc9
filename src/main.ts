import { mkdir } from 'node:fs/promises';
import { ConfigError, loadConfig, productionProblems } from './config.js';
import { connectRedisStore } from './http/rateLimit.js';
import { buildApp } from './composition/app.js';
import { buildWorker } from './composition/worker.js';
import { createLogger } from './logger.js';
import { openDatabase } from './store/open.js';
import { seedIfEmpty } from './world/load.js';

/** Start-up: config → database (migrated, seeded when empty) → HTTP; SIGTERM drains and closes. */
async function main(): Promise<void> {
  const config = loadConfig();
  const problems = productionProblems(config);
  if (problems.length > 0) throw new ConfigError(`refusing to start in production: ${problems.join('; ')}`);
  const logger = createLogger(config.logLevel);
  if (!config.databaseUrl && config.dataDir !== 'memory://') await mkdir(config.dataDir, { recursive: true });
  const db = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  if (config.worldFile && (await seedIfEmpty(db, config.worldFile))) logger.info({ worldFile: config.worldFile }, 'database was empty: world loaded');

  const redis = config.redisUrl ? await connectRedisStore(config.redisUrl) : undefined;
  const { app } = buildApp(config, db, logger, undefined, redis?.store);
  // The worker runs beside the server by default; with WORKER_IN_PROCESS=false run `npm run worker` instead.
  // It shares the server's database handle here; buildWorker takes whichever handle it is given.
  const worker = config.worker.inProcess ? buildWorker(config, db, logger).loop : undefined;
  worker?.start();
  const server = app.listen(config.port, () => logger.info({ port: config.port, database: db.kind }, 'listening'));

  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'shutting down: no new connections, finishing requests in flight');
    server.close(async () => {
      await worker?.stop();
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
