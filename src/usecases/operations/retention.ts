import { deleteDeliveredEvents, deleteIdempotencyKeys, deleteUnusedFeeEstimates } from '../../store/operations/retention.js';
import type { UseCaseDeps } from '../deps.js';

/** Rows of each kind deleted by one pass; a full batch means more may be waiting. */
export const RETENTION_BATCH = 500;

export interface Purged {
  feeEstimates: number;
  idempotencyKeys: number;
  events: number;
}

const HOUR_MS = 3_600_000;

/**
 * One retention pass of the worker: at most `batch` rows of each kind, each kind in its own short
 * transaction, so that deleting never holds locks for long or competes with the payroll work.
 * The windows (config `retention`, every one in docs/security.md):
 * - fee estimates never used, an hour (EXPIRED_ESTIMATE_RETENTION_HOURS) after they expired —
 *   until then a late creation still gets FEE_HASH_EXPIRED rather than NOT_FOUND;
 * - Idempotency-Keys 24 hours (IDEMPOTENCY_KEY_RETENTION_HOURS, never less: the spec promises
 *   replays for 24 hours) after their first use;
 * - events 30 days (EVENT_RETENTION_DAYS) after they occurred, once no delivery of theirs is
 *   still being retried (the retries stop after 3 days).
 */
export async function purgeExpiredData(deps: Pick<UseCaseDeps, 'db' | 'clock' | 'config'>, batch = RETENTION_BATCH): Promise<Purged> {
  const now = deps.clock().getTime();
  const { expiredEstimateHours, idempotencyKeyHours, eventDays } = deps.config.retention;
  return {
    feeEstimates: await deps.db.transaction((tx) => deleteUnusedFeeEstimates(tx, new Date(now - expiredEstimateHours * HOUR_MS), batch)),
    idempotencyKeys: await deps.db.transaction((tx) => deleteIdempotencyKeys(tx, new Date(now - idempotencyKeyHours * HOUR_MS), batch)),
    events: await deps.db.transaction((tx) => deleteDeliveredEvents(tx, new Date(now - eventDays * 24 * HOUR_MS), batch)),
  };
}
