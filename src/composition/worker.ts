import { existsSync } from 'node:fs';
import { SIF_PROFILES } from '../domain/bank/wpsSalaryFile.js';
import type { Logger } from 'pino';
import type { BatchRails } from '../adapters/bank/batchRails.js';
import { Iso20022Inbox } from '../adapters/bank/iso20022/inbox.js';
import { Iso20022BankRail } from '../adapters/bank/iso20022/rail.js';
import { BankFileSinglePayouts } from '../adapters/bank/iso20022/singlePayouts.js';
import { type PaymentRails, SimulatedRails } from '../adapters/processor/rails.js';
import { HttpRateFeed } from '../adapters/rates/rateFeed.js';
import { SimulatedBatchRails } from '../adapters/bank/simulatedBatchRails.js';
import { tracedBatchRails, tracedRails, tracedWebhookSender } from '../adapters/traced.js';
import { HttpWebhookSender } from '../adapters/webhooks/webhookSender.js';
import { tracer } from '../observability/telemetry.js';
import { type Config, ConfigError } from '../config/config.js';
import type { ApplyBankMessage } from '../domain/bank/bankMessages.js';
import { bankFileRecords } from '../store/bank/bankFiles.js';
import type { Database } from '../store/database/db.js';
import { withBankInboxLock } from '../store/bank/inboxLock.js';
import { simulatedBooksOf } from '../store/bank/simulatedOperations.js';
import type { ExecutionDeps } from '../usecases/payroll/execution.js';
import { pollRateFeedWhenDue } from '../usecases/rates/rateFeedPoll.js';
import { WorkerLoop } from '../worker/loop.js';
import { bankMessageApplier } from '../usecases/bank/applyBankMessage.js';
import { buildDeps } from './deps.js';

/** GrpHdr/InitgPty/Nm of the payment files: who sends them to the bank. */
const INITIATING_PARTY = 'Payroll Fee Service';

/**
 * The worker's wiring: the use-case deps plus the bank (simulated, or ISO 20022 files by BANK_RAIL)
 * and the webhook sender, on `db`, the handle the worker should use (the server's own, or a pool of
 * its own). Imports nothing of src/http, so `npm run worker` loads no Express.
 */
export function buildWorker(config: Config, db: Database, logger: Logger, clock: () => Date = () => new Date()): { loop: WorkerLoop; deps: ExecutionDeps } {
  const webhooks = new HttpWebhookSender({ allowLoopback: config.webhookAllowLoopback });
  const useCaseDeps = buildDeps(config, db, clock);
  announceScreening(config, logger);
  const rails = bank(config, db, logger, clock, bankMessageApplier({ db, clock, bookingGraceDays: config.bank.bookingGraceDays }));
  const deps: ExecutionDeps = {
    ...useCaseDeps,
    // A span around every rail call and webhook delivery when tracing is on; the adapters themselves otherwise.
    ...(tracer.enabled ? { ...rails, rails: tracedRails(rails.rails), batchRails: tracedBatchRails(rails.batchRails) } : rails),
    leaseMs: config.worker.leaseMs,
    recheckMs: Math.min(config.worker.pollMs, 1000),
    webhooks: tracer.enabled ? tracedWebhookSender(webhooks) : webhooks,
    ...rateFeed(config, db, logger, clock),
  };
  return { loop: new WorkerLoop(deps, config.worker.pollMs, logger), deps };
}

/** With RATE_SOURCE=feed, the worker polls the feed (once per interval across the fleet). */
function rateFeed(config: Config, db: Database, logger: Logger, clock: () => Date): Pick<ExecutionDeps, 'rateFeed'> {
  const feed = config.rates.feed;
  if (config.rates.source !== 'feed' || !feed) return {};
  const http = new HttpRateFeed(feed.url, feed.format);
  const deps = {
    db,
    feed: http,
    clock,
    logger,
    pollIntervalSeconds: feed.pollIntervalSeconds,
    maxJumpBps: feed.maxJumpBps,
    maxWindowBps: feed.maxWindowBps,
    pegs: config.rates.pegs,
  };
  logger.info({ url: feed.url, format: feed.format, pollIntervalSeconds: feed.pollIntervalSeconds }, 'rates: polling a rate feed');
  return { rateFeed: { poll: () => pollRateFeedWhenDue(deps) } };
}

function bank(
  config: Config,
  db: Database,
  logger: Logger,
  clock: () => Date,
  applyBankMessage: ApplyBankMessage,
): Pick<ExecutionDeps, 'rails' | 'batchRails' | 'bankInbox'> {
  const simulated = new SimulatedRails(simulatedBooksOf(db), config.worker.simulatedSettlementMs, clock);
  if (config.bank.rail === 'simulated')
    return { rails: simulated, batchRails: new SimulatedBatchRails(simulatedBooksOf(db), config.worker.simulatedSettlementMs, clock) };
  const batchRails: BatchRails = new Iso20022BankRail(bankFileRecords(db), {
    outboxDir: config.bank.outboxDir,
    initiatingParty: INITIATING_PARTY,
    clock,
    sifProfile: SIF_PROFILES[config.bank.sifProfile],
  });
  const rails: PaymentRails = new BankFileSinglePayouts(bankFileRecords(db), batchRails, simulated, clock);
  logger.info({ outbox: config.bank.outboxDir, inbox: config.bank.inboxDir }, 'bank: ISO 20022 payment files out, status reports and bank books in');
  const inbox = new Iso20022Inbox(config.bank.inboxDir, applyBankMessage, logger, clock, {
    maxBytes: config.bank.reportMaxBytes,
    settleMs: config.bank.reportSettleMs,
    exclusive: (pass) => withBankInboxLock(db, pass),
    ownFolders: [config.bank.outboxDir],
  });
  return { rails, batchRails, bankInbox: inbox };
}

/** Says at start what beneficiaries are screened against: the operator's folder, the shipped extract (said plainly), or nothing. */
export function announceScreening(config: Pick<Config, 'screening'>, logger: Logger): void {
  const { listDir, shippedExtract, threshold } = config.screening;
  if (listDir !== undefined && !existsSync(listDir)) throw new ConfigError(`SANCTIONS_LIST_DIR: ${listDir} is not a folder this process can read`);
  if (shippedExtract)
    logger.warn({ listDir, threshold }, 'screening: against the shipped extract of the sanctions lists only (SANCTIONS_SHIPPED_EXTRACT), not the full lists');
  else if (listDir) logger.info({ listDir, threshold }, 'screening: beneficiaries screened against the sanctions lists in SANCTIONS_LIST_DIR');
}
