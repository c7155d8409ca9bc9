import { randomUUID } from 'node:crypto';
import type { components } from '../../../generated/api.js';
import { DomainError, bodyField, notFound, validationError } from '../../domain/errors.js';
import {
  type BankBatchRow,
  bankItemStates,
  failBankItems,
  listBankBatches as listBatchRows,
  lockBankBatch,
  readBankBatch,
  recordBatchAction,
} from '../../store/bank/bankBatches.js';
import { type CreatedPosition, createdPosition, cursorCodec } from '../answers/cursor.js';
import type { UseCaseDeps } from '../deps.js';
import { type Principal, requireAdmin } from '../access/principal.js';

type Schemas = components['schemas'];

/**
 * A way out of a silent bank: the payment files with how far the bank answered them, the same file
 * resent, and named payouts failed on the bank's written confirmation. A failure is recorded where a
 * status report's rejection is (the file's record of the payout), so the worker's batch step fails,
 * credits back and announces it by the one path a bank rejection takes (docs/bank-files.md).
 */

/** A page continues only under the filter it began with. */
const batchCursor = cursorCodec<CreatedPosition, { unanswered: boolean }>({
  ...createdPosition,
  filters: { write: ({ unanswered }) => ({ u: unanswered }), mismatch: 'query.cursor belongs to another unanswered filter' },
});

export async function listBankBatches(
  deps: UseCaseDeps,
  caller: Principal,
  query: { limit?: number; cursor?: string; unanswered?: boolean },
): Promise<Schemas['BankBatchPage']> {
  requireAdmin(caller);
  const limit = query.limit ?? 20;
  const filters = { unanswered: query.unanswered ?? false };
  const after = query.cursor ? batchCursor.decode(query.cursor, filters) : null;
  const rows = await listBatchRows(deps.db, filters, { after, limit: limit + 1 });
  const last = rows.length > limit ? rows[limit - 1] : undefined;
  const now = deps.clock();
  return {
    items: rows.slice(0, limit).map((row) => toBankBatch(deps, row, now)),
    nextCursor: last ? batchCursor.encode({ createdAt: last.createdAt, id: last.batchId }, filters) : null,
  };
}

/**
 * The very file the bank was sent, written to the outbox again (or found still waiting there), and
 * the resend recorded. Only while the bank has settled none of its payouts: a file resent after it
 * settled some would pay again what it rejected, or what an operator failed.
 */
export async function resendBankBatch(deps: UseCaseDeps, caller: Principal, batchId: string): Promise<Schemas['BankBatchResend']> {
  requireAdmin(caller);
  return deps.db.transaction(async (tx) => {
    const now = deps.clock();
    const batch = await awaitingBatch(tx, batchId);
    if (batch.openPayoutCount < batch.payoutCount) {
      throw new DomainError(
        'INVALID_STATE',
        `Batch ${batchId}: the bank has settled ${batch.payoutCount - batch.openPayoutCount} of its ${batch.payoutCount} payouts; resending the file would pay them again`,
        { reason: 'PAYOUT_ALREADY_SETTLED' },
      );
    }
    const resent = await deps.bankFiles.outbox.resend(batch.msgId);
    if (!resent) {
      throw new DomainError('INVALID_STATE', `Batch ${batchId}: ${batch.msgId}.xml is neither in the outbox nor in its processed/ folder`, {
        reason: 'BANK_FILE_MISSING',
      });
    }
    const actionId = randomUUID();
    await recordBatchAction(tx, {
      id: actionId,
      batchId,
      action: 'RESEND',
      outcome: resent.outcome,
      userId: caller.userId,
      reason: null,
      bankReference: null,
      transferIds: [],
      fileSha256: resent.sha256,
      at: now,
    });
    return {
      actionId,
      outcome: resent.outcome,
      fileName: `${batch.msgId}.xml`,
      sha256: resent.sha256,
      bytes: resent.bytes,
      resentAt: now.toISOString(),
      resentByUserId: caller.userId,
      batch: toBankBatch(deps, await readBankBatch(tx, batchId), now),
    };
  });
}

/**
 * Named payouts of a batch the bank left unanswered, failed with the bank's written confirmation:
 * all or none, and only once no copy of its file waits in the outbox. The batch's lock orders this
 * against a resend: whichever comes second sees what the first did (a failed payout, a waiting file). Each is recorded FAILED as a rejection in a status report is; the worker's next step
 * of the batch (within a second) moves the transfer, posts the credit back and writes its events.
 */
export async function failBankBatchPayouts(
  deps: UseCaseDeps,
  caller: Principal,
  batchId: string,
  body: Schemas['FailBankBatchPayoutsRequest'],
): Promise<Schemas['BankBatchPayoutsFailed']> {
  requireAdmin(caller);
  return deps.db.transaction(async (tx) => {
    const now = deps.clock();
    const batch = await awaitingBatch(tx, batchId);
    const states = await bankItemStates(tx, batchId, body.transferIds);
    states.forEach(({ transferId, status }, index) => {
      if (status === null) {
        throw validationError(`Payout ${transferId} is not in batch ${batchId}`, { field: bodyField('transferIds', index), reason: 'PAYOUT_NOT_IN_BATCH' });
      }
      if (status !== 'PROCESSING') {
        throw new DomainError('INVALID_STATE', `Payout ${transferId} of batch ${batchId} is already ${status} at the bank; it cannot be failed`, {
          field: bodyField('transferIds', index),
          reason: 'PAYOUT_ALREADY_SETTLED',
        });
      }
    });
    // A copy still in the outbox (the first file or a resend) will reach the bank whatever we record
    // here: failing now would credit back what the bank may then pay. Refused rather than withdrawn,
    // since no transaction can take a file back from a transport that may be reading it this moment.
    if (await deps.bankFiles.outbox.waiting(batch.msgId)) {
      throw new DomainError(
        'INVALID_STATE',
        `Batch ${batchId}: ${batch.msgId}.xml still waits in the outbox for the transport to deliver it; fail its payouts once it is delivered and the bank confirms it will not pay them`,
        { reason: 'BANK_FILE_IN_OUTBOX' },
      );
    }
    const actionId = randomUUID();
    const failureReason = `Failed by an operator on the bank's written confirmation ${body.bankReference}: ${body.reason}`;
    await recordBatchAction(tx, {
      id: actionId,
      batchId,
      action: 'FAIL_PAYOUTS',
      outcome: 'FAILED',
      userId: caller.userId,
      reason: body.reason,
      bankReference: body.bankReference,
      transferIds: body.transferIds,
      fileSha256: null,
      at: now,
    });
    await failBankItems(tx, { batchId, transferIds: body.transferIds, reason: failureReason, actionId, at: now });
    return {
      actionId,
      transferIds: body.transferIds,
      failureReason,
      failedAt: now.toISOString(),
      failedByUserId: caller.userId,
      batch: toBankBatch(deps, await readBankBatch(tx, batchId), now),
    };
  });
}

/** The batch, locked, when its file went to the bank and a payout still waits for its answer. */
async function awaitingBatch(tx: Parameters<Parameters<UseCaseDeps['db']['transaction']>[0]>[0], batchId: string): Promise<BankBatchRow> {
  const batch = await lockBankBatch(tx, batchId);
  if (!batch) throw notFound(`Bank batch ${batchId} not found`);
  if (batch.state !== 'AWAITING_BANK') {
    throw new DomainError('INVALID_STATE', `Bank batch ${batchId} is ${batch.state}; only a batch AWAITING_BANK can be resent or failed`, {
      reason: 'BANK_BATCH_NOT_AWAITING',
    });
  }
  return batch;
}

function toBankBatch(deps: UseCaseDeps, row: BankBatchRow, now: Date): Schemas['BankBatch'] {
  const ageSeconds = row.writtenAt ? Math.max(0, Math.floor((now.getTime() - row.writtenAt.getTime()) / 1000)) : null;
  return {
    batchId: row.batchId,
    messageId: row.msgId,
    ...(row.payrollRequestId !== null && { payrollRequestId: row.payrollRequestId }),
    status: row.state,
    currencyCode: row.currencyCode,
    amount: row.amount,
    payoutCount: row.payoutCount,
    openPayoutCount: row.openPayoutCount,
    createdAt: row.createdAt.toISOString(),
    ...(row.writtenAt && { writtenAt: row.writtenAt.toISOString() }),
    ...(ageSeconds !== null && { ageSeconds }),
    overdue: row.state === 'AWAITING_BANK' && ageSeconds !== null && ageSeconds > deps.bankFiles.unansweredAfterSeconds,
    reportCount: row.reportCount,
    ...(row.lastReportAt && { lastReportAt: row.lastReportAt.toISOString() }),
    resendCount: row.resendCount,
    ...(row.lastResentAt && { lastResentAt: row.lastResentAt.toISOString() }),
    ...(row.salaryFile && { salaryFile: salaryFileOf(row.salaryFile) }),
  };
}

function salaryFileOf(file: NonNullable<BankBatchRow['salaryFile']>): Schemas['BankBatchSalaryFile'] {
  const { fileName, edrCount, total, sha256, writtenAt, agentStatus, agentReason, answeredAt } = file;
  return {
    fileName,
    edrCount,
    total,
    sha256,
    ...(writtenAt && { writtenAt: new Date(writtenAt).toISOString() }),
    ...(agentStatus && { agentStatus }),
    ...(agentReason && { agentReason: agentReason.slice(0, 500) }),
    ...(answeredAt && { answeredAt: new Date(answeredAt).toISOString() }),
  };
}
