import type { Config } from '../config/config.js';
import type { BankOutbox } from '../adapters/bank/bankOutbox.js';
import type { PaymentProcessor } from '../adapters/processor/processor.js';
import type { RateSource } from '../adapters/rates/rates.js';
import type { Database } from '../store/database/db.js';
import type { ApiKeyUsage } from './access/apiKeyUsage.js';
import type { ItemsTextCache } from './answers/itemsTextCache.js';
import type { ScreeningLists } from './screening/screeningLists.js';

/** What every use case may reach: the store, the adapters, the clock and the settings. */
export interface UseCaseDeps {
  db: Database;
  rates: RateSource;
  processor: PaymentProcessor;
  clock: () => Date;
  /**
   * The payment files' outbox as an operator's resend reaches it (BANK_OUTBOX_DIR), and how long a
   * file may wait for the bank's answer before it is overdue (BANK_UNANSWERED_AFTER_SECONDS).
   */
  /** `wpsAccount`: how the WPS salary file names an employee's account (WPS_SIF_PROFILE): a WPS payroll's beneficiaries must have it. */
  bankFiles: { outbox: BankOutbox; unansweredAfterSeconds: number; wpsAccount: 'IBAN' | 'ACCOUNT_NUMBER' };
  /** Dependencies the service runs without, each reporting whether it serves (readiness shows them). */
  optionalDependencies?: { redis?: () => 'connected' | 'degraded' };
  /** Repeat reads' payroll request items (READ_CACHE_MB; absent when 0): answers/itemsTextCache.ts. */
  readCache?: ItemsTextCache;
  /** The sanctions lists beneficiaries are screened against (docs/screening.md); absent, nothing is screened. */
  screening?: ScreeningLists | undefined;
  /** The HTTP server's record of API key uses (audit and lastUsedAt), written in batches. */
  apiKeyUsage?: ApiKeyUsage;
  config: Pick<
    Config,
    | 'feeHashSecret'
    | 'feeHashTtlSeconds'
    | 'fxRecordToleranceBps'
    | 'quoteToleranceBps'
    | 'payCalendar'
    | 'webhookAllowLoopback'
    | 'webhookAllowedPorts'
    | 'retention'
    | 'testFault'
    | 'nodeEnv'
  >;
}
