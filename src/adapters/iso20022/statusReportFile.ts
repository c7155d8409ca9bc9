import { createHash } from 'node:crypto';
import { applyBankStatusReport, findBankFileByMsgId } from '../../store/bankFiles.js';
import type { Database } from '../../store/db.js';
import { type Handled, RejectedFile } from './inboxFile.js';
import { type StatusReport, parsePain002, resolveReport } from './pain002.js';
import { xsdErrors } from './xsd.js';

/**
 * One pain.002.001.11 status report of the inbox: validated against the XSD, matched to the payment
 * file it answers and applied once (by its MsgId). Throws RejectedFile when it is invalid, answers
 * no file of ours or names a payout that file does not hold; any other error is a failure of ours.
 */
export async function applyStatusReportFile(db: Database, name: string, xml: string, appliedAt: Date): Promise<Handled> {
  const errors = await xsdErrors(xml, 'pain.002.001.11');
  if (errors.length > 0) throw new RejectedFile(`not a valid pain.002.001.11 document: ${errors[0]}`);
  let report: StatusReport;
  try {
    report = parsePain002(xml);
  } catch (error) {
    throw new RejectedFile((error as Error).message);
  }
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
  const sha256 = createHash('sha256').update(xml).digest('hex');
  const applied = await db.transaction((tx) =>
    applyBankStatusReport(tx, batch.batchId, { msgId: report.msgId, originalMsgId: report.originalMsgId, fileName: name, sha256, appliedAt, settled }),
  );
  return applied === null
    ? { level: 'info', fields: { file: name }, message: 'bank inbox: status report already applied; nothing changed' }
    : { level: 'info', fields: { file: name, settled: applied }, message: 'bank inbox: status report applied' };
}
