import type { BatchItemStatus, BatchRails } from '../../adapters/bank/batchRails.js';
import { statusAfterPayoutCounts } from '../../domain/payroll/payrollStatus.js';
import type { Database } from '../../store/database/db.js';
import {
  type ClaimedBatch,
  claimPayoutBatches,
  closeBatch,
  findOpenBatch,
  hasOpenItems,
  hasUnsubmittedItems,
  leaseBatch,
  loadPayoutBatch,
  markBatchSubmitted,
  payoutOutcomeCounts,
  recordBatchItemsSubmitted,
  settleBatchItems,
} from '../../store/payouts/payoutBatches.js';
import { getLockedPayrollRequest, payDateOf, setFailureReason, touchPayrollRequest } from '../../store/payroll/payrollRequestUpdates.js';
import { replanForTheTablesAsTheyAreNow } from '../../store/database/statistics.js';
import type { UseCaseDeps } from '../deps.js';
import { recordStatusChange, transfersChanged } from '../webhooks/events.js';
import { postPayoutsSettled } from './settlementPostings.js';
import { metrics } from '../../observability/telemetry.js';
import type { PayoutBatch } from '../../domain/payouts/payoutBatch.js';
import { openReleasedPayouts } from '../../store/screening/screening.js';
import { holdScreenedPayouts } from '../screening/payoutHolds.js';

export interface BatchExecutionDeps extends UseCaseDeps {
  batchRails: BatchRails;
  leaseMs: number;
  recheckMs: number;
}

/**
 * Items moved per transaction: about a quarter of the batch, so that progress shows and a crash
 * redoes at most one chunk while each chunk's fixed work (its transaction, the request's lock, the
 * lease, the foreign-key checks planned again) is paid a few times only, and never more than
 * MAX_CHUNK, so that one transaction (its statement, its journal entries in memory) stays bounded
 * whatever the size of the payroll.
 */
const MIN_CHUNK = 20;
const MAX_CHUNK = 5_000;
const chunkSizeOf = (itemCount: number): number => Math.min(MAX_CHUNK, Math.max(MIN_CHUNK, Math.ceil(itemCount / 4)));

/**
 * The payouts of payroll requests, a batch at a time: one submission of the whole batch to the
 * bank, each item PENDING → PROCESSING with the bank's id (its INITIATED event written on the way),
 * then COMPLETED | FAILED as the bank reports them, each step set-based in chunks. The batch row exists before the bank is
 * called and the bank is idempotent by its id: a worker that dies anywhere is resumed by the next
 * one (after the lease) without paying twice. Returns how many batches it moved forward.
 */
export async function executePayoutBatches(deps: BatchExecutionDeps, limit: number): Promise<number> {
  let touched = 0;
  const now = deps.clock();
  const batches = await deps.db.transaction((tx) => claimPayoutBatches(tx, now, new Date(now.getTime() + deps.leaseMs), limit));
  for (const batch of batches) {
    if (await stepBatch(deps, batch)) touched += 1;
  }
  return touched;
}

/** One batch as far as the bank allows; false when it is only waiting for the bank. */
async function stepBatch(deps: BatchExecutionDeps, batch: ClaimedBatch): Promise<boolean> {
  const chunk = chunkSizeOf(batch.itemCount);
  let moved = false;
  if (batch.status === 'CREATED' || (await hasUnsubmittedItems(deps.db, batch.id))) {
    moved = await submit(deps, batch, chunk);
  }
  const reported = (await deps.batchRails.batchStatus(batch.id)).filter((item) => item.status.state !== 'PROCESSING');
  if ((await settle(deps, batch, reported, chunk)) > 0) moved = true;
  if (await finish(deps, batch)) return true;
  const now = deps.clock();
  await leaseBatch(deps.db, batch.id, new Date(now.getTime() + deps.recheckMs));
  return moved;
}

/**
 * The submission, then its record: each item PENDING → PROCESSING with the bank's id, its INITIATED
 * and PROCESSING events written together (one row update per item, not two). The batch row exists
 * before the bank is called and the bank is idempotent by its id, so a worker that dies between
 * the two submits again and records what the bank answers the first time.
 */
async function submit(deps: BatchExecutionDeps, batch: ClaimedBatch, chunk: number): Promise<boolean> {
  const executionDate = await requestedExecutionDate(deps, batch);
  // Screened before the file is written (never after: the bank may already hold it).
  const held = batch.status === 'CREATED' ? await holdScreenedPayouts(deps, batch.id) : 0;
  const payoutBatch = await loadPayoutBatch(deps.db, batch.id, executionDate);
  // Every payout held: no file until an admin decides (a released one goes in a file of its own).
  if (payoutBatch.items.length === 0) return held > 0;
  await submitAndRecord(deps, batch, payoutBatch, chunk);
  return true;
}

/** One file to the bank, then its record: each item PENDING → PROCESSING with the bank's id. */
async function submitAndRecord(deps: BatchExecutionDeps, batch: ClaimedBatch, payoutBatch: PayoutBatch, chunk: number, ownFile = true): Promise<void> {
  const submission = await deps.batchRails.submitBatch(payoutBatch);
  metrics.batch('payout_batch', payoutBatch.items.length);
  for (const item of payoutBatch.items) metrics.movement('BANK_TO_BENEFICIARY', 'PROCESSING', payoutBatch.currencyCode, item.amount);
  if (ownFile) await deps.db.transaction((tx) => markBatchSubmitted(tx, batch.id, submission.externalBatchId, deps.clock()));
  const externalIds = [...submission.externalIds].map(([id, externalId]) => ({ id, externalId }));
  for (let start = 0; start < externalIds.length; start += chunk) {
    const part = externalIds.slice(start, start + chunk);
    await inTransaction(deps, batch, async (tx) => {
      // Each chunk's events find their resources' latest among the events the chunks before wrote.
      await replanForTheTablesAsTheyAreNow(tx);
      const now = deps.clock();
      await transfersChanged(tx, await recordBatchItemsSubmitted(tx, batch, part, now), now);
    });
  }
}

/**
 * The day the bank is asked to pay (pain.001 ReqdExctnDt): the request's pay date, or today. A pay
 * date already behind (its request executed late: its deadline_missed event said so) asks for
 * today, since a bank pays no day in the past; the pay date itself never moves.
 */
async function requestedExecutionDate(deps: BatchExecutionDeps, batch: ClaimedBatch): Promise<string> {
  const today = deps.clock().toISOString().slice(0, 10);
  const payDate = await payDateOf(deps.db, batch.payrollRequestId);
  return payDate !== null && payDate > today ? payDate : today;
}

/**
 * Payouts an admin released after screening held them: each decision's go to the bank in a file
 * of their own (its id, recorded with the decision, is the bank's idempotency key), followed and
 * settled as the request's own file is. Returns how many files it moved forward.
 */
export async function executeReleasedPayouts(deps: BatchExecutionDeps, limit: number): Promise<number> {
  const files = await deps.db.transaction((tx) => openReleasedPayouts(tx, limit));
  let touched = 0;
  for (const file of files) {
    const [batch] = await deps.db.transaction((tx) => findOpenBatch(tx, file.batchId));
    if (!batch) continue;
    const chunk = chunkSizeOf(file.transferIds.length);
    if (file.unsubmitted) {
      const executionDate = deps.clock().toISOString().slice(0, 10);
      const payoutBatch = await loadPayoutBatch(deps.db, batch.id, executionDate, { fileBatchId: file.releaseBatchId, transferIds: file.transferIds });
      await submitAndRecord(deps, batch, payoutBatch, chunk, false);
      touched += 1;
    }
    const reported = (await deps.batchRails.batchStatus(file.releaseBatchId)).filter((item) => item.status.state !== 'PROCESSING');
    if ((await settle(deps, batch, reported, chunk)) > 0) touched += 1;
    // The last payout of the request settled here: its batch closes and the request takes its final status.
    if (await finish(deps, batch)) touched += 1;
  }
  return touched;
}

/** The reported outcomes, a chunk per transaction: statuses, events and journal entries together. */
async function settle(deps: BatchExecutionDeps, batch: ClaimedBatch, reported: readonly BatchItemStatus[], chunk: number): Promise<number> {
  let settled = 0;
  for (let start = 0; start < reported.length; start += chunk) {
    const outcomes = reported.slice(start, start + chunk).map(({ transferId, status }) => ({
      id: transferId,
      status: status.state === 'COMPLETED' ? ('COMPLETED' as const) : ('FAILED' as const),
      reason: status.state === 'FAILED' ? status.reason : null,
    }));
    settled += await inTransaction(deps, batch, async (tx) => {
      await replanForTheTablesAsTheyAreNow(tx);
      // The request is locked first, as every move of it is: one worker at a time books its payouts.
      const request = await getLockedPayrollRequest(tx, batch.payrollRequestId);
      const now = deps.clock();
      const items = await settleBatchItems(tx, batch, outcomes, now);
      await transfersChanged(
        tx,
        items.map((item) => ({ id: item.id, wasPending: false })),
        now,
      );
      const reasons = new Map(outcomes.map((outcome) => [outcome.id, outcome.reason ?? undefined]));
      tx.afterCommit(() => {
        for (const item of items) metrics.movement('BANK_TO_BENEFICIARY', item.status, request.payrollCurrencyCode, item.amount, reasons.get(item.id));
      });
      if (items.length === 0) return 0;
      await postPayoutsSettled(tx, request, items, now);
      await touchPayrollRequest(tx, request.id, now);
      return items.length;
    });
  }
  return settled;
}

/** Every item settled: the batch closes and the request takes its final status (once). */
async function finish(deps: BatchExecutionDeps, batch: ClaimedBatch): Promise<boolean> {
  if (await hasOpenItems(deps.db, batch.id)) return false;
  return deps.db.transaction(async (tx) => {
    const request = await getLockedPayrollRequest(tx, batch.payrollRequestId);
    const now = deps.clock();
    if (!(await closeBatch(tx, batch.id, now))) return false;
    const counts = await payoutOutcomeCounts(tx, request.id);
    if (counts.open > 0) return true;
    const status = statusAfterPayoutCounts(counts.completed, counts.failed);
    if (status === 'FAILED')
      await setFailureReason(tx, request.id, 'Every payout failed; each was credited back to the source account at the accepted quote (returnedAmount)');
    await recordStatusChange(tx, request, status, now);
    return true;
  });
}

/** A transaction of the batch's step that also renews its lease: a long step keeps the batch ours. */
function inTransaction<T>(
  deps: BatchExecutionDeps,
  batch: ClaimedBatch,
  work: (tx: Parameters<Parameters<Database['transaction']>[0]>[0]) => Promise<T>,
): Promise<T> {
  return deps.db.transaction(async (tx) => {
    const result = await work(tx);
    await leaseBatch(tx, batch.id, new Date(deps.clock().getTime() + deps.leaseMs));
    return result;
  });
}
