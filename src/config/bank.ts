import { SETTINGS } from './settings.js';
import { read } from './values.js';

/**
 * The partner bank: `simulated` (in-database, the default) or `iso20022` (pain.001 files written to
 * outboxDir, pain.002 reports read from inboxDir; docs/bank-files.md). bookingGraceDays: BANK_BOOKING_GRACE_DAYS.
 * reportMaxBytes: BANK_REPORT_MAX_BYTES, the largest inbox file read; reportSettleMs: BANK_REPORT_SETTLE_MS,
 * how long a new inbox file must have been left unmodified to be read on the pass that first sees it.
 */
export interface BankConfig {
  rail: 'simulated' | 'iso20022';
  outboxDir: string;
  inboxDir: string;
  bookingGraceDays: number;
  reportMaxBytes: number;
  reportSettleMs: number;
  /** BANK_UNANSWERED_AFTER_SECONDS: a payment file waiting this long for the bank's final word is overdue (the alert's bound). */
  unansweredAfterSeconds: number;
  /** WPS_SIF_PROFILE: the layout of the WPS salary files (docs/wps.md). */
  sifProfile: 'UAEWPS' | 'UAEWPS_ACCOUNT_NUMBER' | 'UAEWPS_SECONDS';
}

/** The bank's settings, each read through its declaration (src/config/settings/bank.ts says why each default). */
export function bankConfig(env: NodeJS.ProcessEnv): BankConfig {
  return {
    rail: read(env, SETTINGS.BANK_RAIL),
    outboxDir: read(env, SETTINGS.BANK_OUTBOX_DIR),
    inboxDir: read(env, SETTINGS.BANK_INBOX_DIR),
    bookingGraceDays: read(env, SETTINGS.BANK_BOOKING_GRACE_DAYS),
    reportMaxBytes: read(env, SETTINGS.BANK_REPORT_MAX_BYTES),
    reportSettleMs: read(env, SETTINGS.BANK_REPORT_SETTLE_MS),
    unansweredAfterSeconds: read(env, SETTINGS.BANK_UNANSWERED_AFTER_SECONDS),
    sifProfile: read(env, SETTINGS.WPS_SIF_PROFILE),
  };
}
