/**
 * The composition root: the one place that picks the implementations (the store handle, the
 * simulated processor and bank, the rate table) and hands them to the use cases. It is split by
 * process so that each loads only what it runs: `app.ts` (the HTTP server: Express, helmet, the
 * validator) and `worker.ts` (the transfer worker, no HTTP code at all) both start from here.
 */
import { SIF_PROFILES } from '../domain/bank/wpsSalaryFile.js';
import { OutboxResender } from '../adapters/bank/iso20022/outboxResend.js';
import { SimulatedProcessor } from '../adapters/processor/processor.js';
import { FeedRateSource, type RateSource, TableRateSource } from '../adapters/rates/rates.js';
import type { Config } from '../config/config.js';
import type { Database } from '../store/database/db.js';
import { rateTablesOf } from '../store/reference/exchangeRates.js';
import { processorSchedulesOf } from '../store/reference/referenceData.js';
import { ItemsTextCache } from '../usecases/answers/itemsTextCache.js';
import type { UseCaseDeps } from '../usecases/deps.js';
import { SanctionsListFolder } from '../adapters/screening/sanctionsFolder.js';
import { ScreeningLists } from '../usecases/screening/screeningLists.js';

/**
 * What every use case may reach, on the database handle `db` (each process may bring its own).
 * The simulated rate source and processor read `providerDb`: a provider is called from inside a
 * use case's transaction, and a real one's capacity is not our pool's. On the service's own pool,
 * transactions that each hold a connection and wait for one more for the provider exhaust it.
 */
export function buildDeps(config: Config, db: Database, clock: () => Date = () => new Date(), providerDb: Database = db): UseCaseDeps {
  return {
    db,
    rates: buildRateSource(config, providerDb, clock),
    processor: new SimulatedProcessor(processorSchedulesOf(providerDb)),
    clock,
    bankFiles: {
      outbox: new OutboxResender(config.bank.outboxDir),
      unansweredAfterSeconds: config.bank.unansweredAfterSeconds,
      wpsAccount: SIF_PROFILES[config.bank.sifProfile].account,
    },
    ...(config.readCacheBytes > 0 && { readCache: new ItemsTextCache(config.readCacheBytes) }),
    screening: buildScreening(config),
    config: {
      feeHashSecret: config.feeHashSecret,
      feeHashTtlSeconds: config.feeHashTtlSeconds,
      fxRecordToleranceBps: config.fxRecordToleranceBps,
      quoteToleranceBps: config.quoteToleranceBps,
      payCalendar: config.payCalendar,
      webhookAllowLoopback: config.webhookAllowLoopback,
      webhookAllowedPorts: config.webhookAllowedPorts,
      retention: config.retention,
      testFault: config.testFault,
      nodeEnv: config.nodeEnv,
    },
  };
}

/**
 * RATE_SOURCE: the world's table (the default, as ever), or a feed the worker polls, crossed
 * through its base, with the declared pegs and the admin's manual rates; each with its age bound.
 */
export function buildRateSource(config: Pick<Config, 'rates'>, db: Database, clock: () => Date = () => new Date()): RateSource {
  const { rates } = config;
  const bounds = { maxAgeMs: rates.maxAgeMs, manualMaxAgeMs: rates.manualMaxAgeMs };
  if (rates.source === 'world' || !rates.feed) return new TableRateSource(rateTablesOf(db), bounds);
  return new FeedRateSource(rateTablesOf(db), rates.feed.format === 'ecb-xml' ? 'ECB' : 'FEED', rates.pegs, bounds, clock);
}

/** SANCTIONS_LIST_DIR (or the shipped extract when SANCTIONS_SHIPPED_EXTRACT asks for it): the lists screened against; none, no screening. */
function buildScreening(config: Pick<Config, 'screening'>): ScreeningLists | undefined {
  const { listDir, threshold } = config.screening;
  return listDir === undefined ? undefined : new ScreeningLists(new SanctionsListFolder(listDir), threshold);
}
