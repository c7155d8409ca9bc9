import { openHitStats } from '../store/screening/screening.js';
import type { RateSource } from '../adapters/rates/rates.js';
import type { Config } from '../config/config.js';
import type { MetricsServer } from '../observability/metricsServer.js';
import { rateAgeMs } from '../domain/reference/rates.js';
import type { RateAgeRow } from '../observability/rateGauges.js';
import { metrics } from '../observability/telemetry.js';
import { countFailingEndpoints, readBacklog } from '../store/operations/backlog.js';
import { unansweredBankBatches } from '../store/bank/bankBatches.js';
import { openBankExceptions } from '../store/bank/bankExceptions.js';
import type { Database } from '../store/database/db.js';
import { listCurrencyCodes } from '../store/reference/exchangeRates.js';
import { buildRateSource } from './deps.js';

/**
 * The metrics of one process, when METRICS_PORT is set (on HOST, as the API): its pools (named as in pg_stat_activity),
 * and the database's backlog where `worker` (the handle the worker runs on) is given, so that of
 * an API and a separate worker only the worker reports it. Unset, nothing is loaded (prom-client
 * is imported here, on demand) and every report stays a call to an empty function.
 */
export async function startMetrics(
  listen: { port: number | undefined; host?: string | undefined },
  pools: Record<string, Database | undefined>,
  worker?: Database,
  gauges?: WorkerGauges,
): Promise<MetricsServer | undefined> {
  const { port, host } = listen;
  if (port === undefined) return undefined;
  const { startMetricsServer } = await import('../observability/metricsServer.js');
  const present = Object.entries(pools).filter((entry): entry is [string, Database] => entry[1] !== undefined);
  return startMetricsServer(port, host, {
    pools: Object.fromEntries(present.map(([name, db]) => [name, () => db.poolStats?.()])),
    ...(worker && {
      backlog: async () => ({
        items: await readBacklog(worker, new Date()),
        failingEndpoints: await countFailingEndpoints(worker),
        bankExceptions: await openBankExceptions(worker, new Date()),
        screeningHits: await openScreeningHits(worker, new Date()),
        ...(gauges && {
          rates: await rateAges(worker, gauges.rates, new Date()),
          bankBatches: { ...(await unansweredBankBatches(worker, new Date())), maxAgeSeconds: gauges.bankUnansweredAfterSeconds },
        }),
      }),
    }),
  });
}

/** What the worker's gauges compare with: the rate source (each pair's bound) and how long a payment file may wait for the bank. */
export interface WorkerGauges {
  rates: RateSource;
  bankUnansweredAfterSeconds: number;
}

export function workerGauges(config: Config, db: Database): WorkerGauges {
  return { rates: buildRateSource(config, db), bankUnansweredAfterSeconds: config.bank.unansweredAfterSeconds };
}

/** The undecided screening hits: how many, and the oldest's age. */
async function openScreeningHits(db: Database, now: Date): Promise<{ open: number; oldestSeconds: number }> {
  const { open, oldest } = await openHitStats(db);
  return { open, oldestSeconds: oldest ? Math.max(0, Math.floor((now.getTime() - oldest.getTime()) / 1000)) : 0 };
}

/** PoolOptions.onTransactionRetry for every pool: transactions retried after a deadlock or serialization failure. */
export const countTransactionRetry = (sqlState: string): void => metrics.transactionRetry(sqlState);

/** Each pair's rate age and bound, for the pairs of the reference data's currencies. */
async function rateAges(db: Database, rates: RateSource, now: Date): Promise<RateAgeRow[]> {
  const pairs = await rates.listRates(await listCurrencyCodes(db));
  return pairs.map((pair) => ({
    pair: `${pair.from}/${pair.to}`,
    ageSeconds: Math.floor(rateAgeMs(pair, now) / 1000),
    maxAgeSeconds: pair.maxAgeMs === null ? null : Math.floor(pair.maxAgeMs / 1000),
  }));
}
