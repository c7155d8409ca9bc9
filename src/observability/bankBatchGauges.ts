import type { GaugeSnapshot, SnapshotGauge } from './prometheus.js';

/** The payment files still waiting for the bank's final word, read with the backlog. */
export interface UnansweredBatches {
  count: number;
  /** Seconds since the oldest of them was written; 0 when none waits. */
  oldestSeconds: number;
  /** BANK_UNANSWERED_AFTER_SECONDS: the bound the alert compares the oldest with. */
  maxAgeSeconds: number;
}

/** Files the bank has not answered: how many, the oldest's age and the bound (the alert compares them). */
export function defineBankBatchGauges(gauge: SnapshotGauge): void {
  const fill = (pick: (batches: UnansweredBatches) => number) => (g: { set(value: number): void }, snapshot: GaugeSnapshot) => {
    if (snapshot.bankBatches) g.set(pick(snapshot.bankBatches));
  };
  gauge(
    'bank_batches_unanswered',
    'Payment files written to the bank with a payout still waiting for its final status',
    [],
    fill((batches) => batches.count),
  );
  gauge(
    'bank_batch_oldest_unanswered_seconds',
    'Seconds since the oldest payment file still waiting for the bank was written (0: none)',
    [],
    fill((batches) => batches.oldestSeconds),
  );
  gauge(
    'bank_batch_unanswered_max_age_seconds',
    'How long a payment file may wait for the bank before it is overdue (BANK_UNANSWERED_AFTER_SECONDS)',
    [],
    fill((batches) => batches.maxAgeSeconds),
  );
}

/** Every kind of bank exception (docs/bank-files.md), reported at 0 when none is open. */
export const BANK_EXCEPTION_KINDS = [
  'UNKNOWN_REFERENCE',
  'AMOUNT_MISMATCH',
  'DUPLICATE_BOOKING',
  'UNEXPECTED_CREDIT',
  'MISSING_BOOKING',
  'BALANCE_DRIFT',
  'BOOKED_AFTER_FAILURE',
];
