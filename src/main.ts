import { mkdir } from 'node:fs/promises';
import { ConfigError, loadConfig } from './config.js';
import { createLogger } from './logger.js';
import { buildApp, buildWorker } from './server.js';
import { openDatabase } from './store/open.js';
import { seedIfEmpty } from './store/world.js';

/** Start-up: config → database (migrated, seeded when empty) → HTTP; SIGTERM drains and closes. */
async function main(): Promise<void> {
  const config = loadConfig();
  const logger = createLogger(config.logLevel);
  if (!config.databaseUrl && config.dataDir !== 'memory://') await mkdir(config.dataDir, { recursive: true });
  const db = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  if (config.worldFile && (await seedIfEmpty(db, config.worldFile))) logger.info({ worldFile: config.worldFile }, 'database was empty: world loaded');

  const { app } = buildApp(config, db, logger);
  // The worker runs beside the server by default; with WORKER_IN_PROCESS=false run `npm run worker` instead.
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
