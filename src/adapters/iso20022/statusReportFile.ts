import { applyBankStatusReport, findBankFileByMsgId } from '../../store/bankFiles.js';
import type { Database } from '../../store/db.js';
import { type Handled, RejectedFile } from './inboxFile.js';
import { type StatusReport, resolveReport } from './pain002.js';

/**
 * One pain.002.001.11 status report of the inbox, already validated against the XSD and read (by
 * the report reader's thread): matched to the payment file it answers and applied once (by its
 * MsgId). Throws RejectedFile when it answers no file of ours or names a payout that file does not
 * hold; any other error is a failure of ours.
 */
export async function applyStatusReportFile(
  db: Database,
  name: string,
  { report, sha256 }: { report: StatusReport; sha256: string },
  appliedAt: Date,
): Promise<Handled> {
  // DU01 refuses a second copy of a file the bank already has: it says nothing of the first copy's payments.
  if (report.group.code === 'RJCT' && report.group.reasonCode === 'DU01')
    return {
      level: 'warn',
      fields: { file: name },
      message: 'bank inbox: the bank refused a second copy of a payment file (DU01); the first stands, nothing changed',
    };
  const batch = await findBankFileByMsgId(db, report.originalMsgId);
  if (!batch) throw new RejectedFile(`it answers MsgId ${report.originalMsgId}, which is no payment file of ours`);
  let statuses;
  try {
    statuses = resolveReport(report, batch.endToEndIds);
  } catch (error) {
    throw new RejectedFile((error as Error).message);
  }
  const settled = [...statuses].map(([endToEndId, status]) => ({
    endToEndId,
    status: status.state,
    failureReason: status.state === 'FAILED' ? status.reason : null,
  }));
  const applied = await db.transaction((tx) =>
    applyBankStatusReport(tx, batch.batchId, { msgId: report.msgId, originalMsgId: report.originalMsgId, fileName: name, sha256, appliedAt, settled }),
  );
  return applied === null
    ? { level: 'info', fields: { file: name }, message: 'bank inbox: status report already applied; nothing changed' }
    : { level: 'info', fields: { file: name, settled: applied }, message: 'bank inbox: status report applied' };
}
