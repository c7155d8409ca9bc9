import { randomUUID } from 'node:crypto';
import type { PaymentRails, TransferInstruction } from '../../adapters/processor/rails.js';
import type { WebhookSender } from '../../adapters/webhooks/webhookSender.js';
import type { TransferOutcome, TransferStatus } from '../../domain/payroll/transfers.js';
import { metrics, tracer } from '../../observability/telemetry.js';
import { runInWorkContext } from '../../observability/workContext.js';
import type { Queryable } from '../../store/database/db.js';
import { insertTransfers } from '../../store/payroll/payrollLifecycle.js';
import {
  type LockedPayrollRequest,
  claimAcceptedRequests,
  getLockedPayrollRequest,
  lockPayrollRequest,
  setFailureReason,
  touchPayrollRequest,
} from '../../store/payroll/payrollRequestUpdates.js';
import { type WorkItem, type WorkQueue, advanceWork, claimWork, releaseLease } from '../../store/operations/work.js';
import { payoutChanged, recordStatusChange, transferChanged } from '../webhooks/events.js';
import { type BatchExecutionDeps, executePayoutBatches, executeReleasedPayouts } from './payoutBatchExecution.js';
import { rescreenOnListUpdate } from '../screening/rescreen.js';
import { postLegSettled, postSinglePayoutSettled } from './settlementPostings.js';
import { deliverDueWebhooks } from '../webhooks/webhookDispatch.js';
import { noticePayrollDeadlines } from './payrollDeadlines.js';
import { draftDueTemplateRuns } from './payrollTemplateRuns.js';

export interface ExecutionDeps extends BatchExecutionDeps {
  /** The processor's legs and single payouts, one transfer at a time (a payroll's payouts go through batchRails). */
  rails: PaymentRails;
  /** How long a claimed item stays ours while we talk to the rails. */
  leaseMs: number;
  /** How soon an item still PROCESSING at the rails is looked at again. */
  recheckMs: number;
  webhooks: WebhookSender;
  /** The bank's status reports to read, when the bank is reached by files (BANK_RAIL=iso20022). */
  bankInbox?: { poll(): Promise<number> };
  /** The rate feed's poll, with RATE_SOURCE=feed: due once per interval across the fleet (usecases/rates/rateFeedPoll.ts). */
  rateFeed?: { poll(): Promise<number> };
}

/** The worker's batch-size metric names what a claim holds by the API's resources. */
const BATCH_METRIC_KIND: Record<WorkQueue, string> = { PAYROLL_LEGS: 'transfers', SINGLE_PAYOUTS: 'payouts' };

/**
 * One pass of the worker: start the requests customers accepted, move every claimable transfer
 * and payout as far as the rails allow, and the payroll payouts' batches as far as the bank
 * allows. Returns how many items it touched, so the loop can sleep when there is nothing to do.
 */
export async function executePendingWork(deps: ExecutionDeps, batchSize = 50): Promise<number> {
  let touched = await startAcceptedRequests(deps, batchSize);
  // The bank's reports first: the batches and payouts below then see what the bank has said.
  if (deps.bankInbox) touched += await deps.bankInbox.poll();
  if (deps.rateFeed) await deps.rateFeed.poll();
  touched += await executePayoutBatches(deps, 5);
  if (deps.screening) {
    touched += await rescreenOnListUpdate(deps);
    touched += await executeReleasedPayouts(deps, 5);
  }
  for (const queue of ['PAYROLL_LEGS', 'SINGLE_PAYOUTS'] as const) {
    const now = deps.clock();
    const items = await deps.db.transaction((tx) => claimWork(tx, queue, now, new Date(now.getTime() + deps.leaseMs), batchSize));
    metrics.batch(BATCH_METRIC_KIND[queue], items.length);
    for (const item of items) {
      const step = () => tracer.span('usecase stepWorkItem', { 'payroll.item_kind': item.kind }, () => stepWorkItem(deps, item));
      await runInWorkContext({ job: `step ${item.kind}`, id: item.id }, step);
    }
    touched += items.length;
  }
  touched += await draftDueTemplateRuns(deps);
  touched += await noticePayrollDeadlines(deps);
  touched += await deliverDueWebhooks(deps);
  return touched;
}

/**
 * QUOTE_ACCEPTED → EXECUTING: the source debit (PROCESSOR_INTERNAL_DEBIT) is created first. A
 * request with a pay date is left waiting until its fund-by business day begins on the bank's clock.
 */
async function startAcceptedRequests(deps: ExecutionDeps, limit: number): Promise<number> {
  return deps.db.transaction(async (tx) => {
    const ids = await claimAcceptedRequests(tx, deps.clock(), limit);
    for (const requestId of ids) {
      const request = await getLockedPayrollRequest(tx, requestId);
      const now = deps.clock();
      const processorFee = request.metadata.feeBreakdown.processorFee;
      await insertTransfers(
        tx,
        requestId,
        [
          {
            id: randomUUID(),
            transferType: 'PROCESSOR_INTERNAL_DEBIT',
            amount: request.totalAmount,
            currencyCode: request.sourceCurrencyCode,
            fee: { id: randomUUID(), amount: processorFee, finalInternalFee: processorFee },
          },
        ],
        now,
      );
      await recordStatusChange(tx, request, 'EXECUTING', now);
    }
    return ids.length;
  });
}

/**
 * PENDING → INITIATED → PROCESSING → COMPLETED | FAILED, each move its own transaction and each
 * guarded by the status it expects. The rails are called between transactions and are idempotent
 * by transfer id, so a crash at any point is resumed by the next worker without paying twice.
 */
async function stepWorkItem(deps: ExecutionDeps, item: WorkItem): Promise<void> {
  let status = item.status;
  if (status === 'PENDING') {
    if (!(await deps.db.transaction((tx) => advance(tx, item, 'PENDING', 'INITIATED', deps.clock())))) return;
    status = 'INITIATED';
  }
  if (status === 'INITIATED') {
    const { externalId } = await deps.rails.submit(toInstruction(item));
    if (!(await deps.db.transaction((tx) => advance(tx, item, 'INITIATED', 'PROCESSING', deps.clock(), { externalId })))) return;
  }
  const result = await deps.rails.status(item.id);
  if (result.state === 'PROCESSING') {
    const now = deps.clock();
    await deps.db.transaction((tx) => releaseLease(tx, item, new Date(now.getTime() + deps.recheckMs)));
    return;
  }
  await deps.db.transaction(async (tx) => {
    // The parent request is locked first, so that two payouts settling at once agree on the last one.
    const request = item.payrollRequestId ? await lockPayrollRequest(tx, item.payrollRequestId) : null;
    const failureReason = result.state === 'FAILED' ? result.reason : undefined;
    const moved = await advance(tx, item, 'PROCESSING', result.state, deps.clock(), failureReason ? { failureReason } : {});
    if (!moved) return;
    if (request) await onTransferSettled(tx, deps, request, item, result.state);
    else await onPayoutSettled(tx, deps, item, result.state);
  });
}

/** One status move of a transfer or payout, with its event in the same transaction. */
async function advance(
  tx: Queryable,
  item: WorkItem,
  from: WorkItem['status'],
  to: Exclude<TransferStatus, 'PENDING' | 'RETURNED'>,
  at: Date,
  details: { externalId?: string; failureReason?: string } = {},
): Promise<boolean> {
  const moved = await advanceWork(tx, item, from, to, at, details);
  if (moved) tx.afterCommit(() => metrics.movement(item.kind, to, item.currencyCode, item.amount, details.failureReason));
  if (moved) await (item.queue === 'PAYROLL_LEGS' ? transferChanged(tx, item.id, at) : payoutChanged(tx, item.id, at));
  return moved;
}

function toInstruction(item: WorkItem): TransferInstruction {
  return {
    transferId: item.id,
    kind: item.kind,
    amount: item.amount,
    currencyCode: item.currencyCode,
    accountProvider: item.accountProvider,
    beneficiaryReference: item.beneficiaryReference,
  };
}

/** What a settled leg of a payroll means for its request (the transition table of the spec), and its journal entry. */
async function onTransferSettled(tx: Queryable, deps: ExecutionDeps, request: LockedPayrollRequest, item: WorkItem, outcome: TransferOutcome): Promise<void> {
  const now = deps.clock();
  if (item.kind === 'PROCESSOR_INTERNAL_DEBIT' || item.kind === 'PROCESSOR_TO_BANK') {
    await postLegSettled(tx, request, item.kind, outcome, item.id, now);
    if (outcome === 'FAILED') return failRequest(tx, request, `${item.kind} failed; the funds were returned to the source account`, now);
    if (item.kind === 'PROCESSOR_INTERNAL_DEBIT') {
      await insertTransfers(
        tx,
        request.id,
        [{ id: randomUUID(), transferType: 'PROCESSOR_TO_BANK', amount: request.sourceAmountForExchange, currencyCode: request.sourceCurrencyCode }],
        now,
      );
    }
    return touchPayrollRequest(tx, request.id, now);
  }
  // A BANK_TO_BENEFICIARY transfer is never claimed one at a time: its batch settles it (payoutBatchExecution.ts).
  throw new Error(`Transfer ${item.id} (${item.kind}) is settled by its batch, not on its own`);
}

/** FAILED before any payout (the leg's journal entry has returned the funds). */
async function failRequest(tx: Queryable, request: LockedPayrollRequest, reason: string, now: Date): Promise<void> {
  await setFailureReason(tx, request.id, reason);
  await recordStatusChange(tx, request, 'FAILED', now);
}

/** A single payout: its total leaves on COMPLETED (amount out, fees earned) or returns whole on FAILED. */
async function onPayoutSettled(tx: Queryable, deps: ExecutionDeps, item: WorkItem, outcome: TransferOutcome): Promise<void> {
  await postSinglePayoutSettled(tx, item.id, outcome, deps.clock());
}
