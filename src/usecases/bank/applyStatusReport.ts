import type { BankFile, BankMessageOutcome } from '../../domain/bank/bankMessages.js';
import { type StatusReport, StatusReportMismatch, refusesSecondCopy, resolveReport } from '../../domain/bank/statusReport.js';
import { applyBankStatusReport, findBankFileByMsgId } from '../../store/bank/bankFiles.js';
import type { Queryable } from '../../store/database/db.js';

/**
 * A pain.002 status report, inside the bank message's transaction: matched to the payment file of
 * ours it answers (by its original MsgId) and applied once (by its own MsgId), each payout it
 * settles marked for the worker to complete or fail. A report that answers no file of ours, or
 * names a payout the file does not hold, is rejected and changes nothing.
 */
export async function applyStatusReport(tx: Queryable, report: StatusReport, file: BankFile, now: Date): Promise<BankMessageOutcome> {
  if (refusesSecondCopy(report)) return { kind: 'ignored', reason: 'the bank refused a second copy of a payment file (DU01); the first stands' };
  const batch = await findBankFileByMsgId(tx, report.originalMsgId);
  if (!batch) return { kind: 'rejected', reason: `it answers MsgId ${report.originalMsgId}, which is no payment file of ours` };
  let statuses;
  try {
    statuses = resolveReport(report, batch.endToEndIds);
  } catch (error) {
    if (error instanceof StatusReportMismatch) return { kind: 'rejected', reason: error.message };
    throw error;
  }
  const settled = [...statuses].map(([endToEndId, status]) => ({
    endToEndId,
    status: status.state,
    failureReason: status.state === 'FAILED' ? status.reason : null,
  }));
  const applied = await applyBankStatusReport(tx, batch.batchId, {
    msgId: report.msgId,
    originalMsgId: report.originalMsgId,
    fileName: file.fileName,
    sha256: file.sha256,
    appliedAt: now,
    settled,
  });
  return applied === null ? { kind: 'already-applied' } : { kind: 'settled', payouts: applied };
}
