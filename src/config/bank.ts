import { integer, oneOf } from './values.js';

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
}

/** The bank's folders default to DATA_DIR/bank/outbox and DATA_DIR/bank/inbox. */
export function bankConfig(env: NodeJS.ProcessEnv): BankConfig {
  const dataDir = env.DATA_DIR || './data';
  return {
    rail: oneOf(env, 'BANK_RAIL', ['simulated', 'iso20022'] as const, 'simulated'),
    outboxDir: env.BANK_OUTBOX_DIR || `${dataDir}/bank/outbox`,
    inboxDir: env.BANK_INBOX_DIR || `${dataDir}/bank/inbox`,
    // Business days after pain.002 reported a payout paid within which a statement must book it (else MISSING_BOOKING).
    bookingGraceDays: integer(env, 'BANK_BOOKING_GRACE_DAYS', 3, 0, 30),
    // About five times a 100,000-transaction camt.053, the largest report the bank sends (docs/operations.md gives its size).
    reportMaxBytes: integer(env, 'BANK_REPORT_MAX_BYTES', 256 * 1024 * 1024, 1024, 2 ** 31 - 1),
    reportSettleMs: integer(env, 'BANK_REPORT_SETTLE_MS', 2000, 0, 600_000),
    // A bank answers a file within minutes (ACCP) and settles it the same business day: half a day
    // without a final word is worth an operator's look, before the customer asks.
    unansweredAfterSeconds: integer(env, 'BANK_UNANSWERED_AFTER_SECONDS', 43_200, 60, 30 * 86_400),
  };
}
