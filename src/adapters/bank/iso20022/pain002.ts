import type { ReportedStatus, StatusReport } from '../../../domain/bank/statusReport.js';
import { child, children, parseXml, text } from './xml.js';

export const PAIN_002_NAMESPACE = 'urn:iso:std:iso:20022:tech:xsd:pain.002.001.11';

/** A file that is not a pain.002.001.11 status report we can read. */
export class Pain002Error extends Error {}

/** Reads a pain.002.001.11 document (validate it against the XSD first: this checks only what it uses, not the namespace). */
export function parsePain002(xml: string): StatusReport {
  // Namespace prefixes are dropped by the parser; the namespace itself is the XSD validation's to check.
  const report = child(child(parseXml(xml), 'Document'), 'CstmrPmtStsRpt');
  if (!report) throw new Pain002Error('Not a customer payment status report (no Document/CstmrPmtStsRpt)');
  const group = child(report, 'OrgnlGrpInfAndSts');
  const msgId = text(child(report, 'GrpHdr'), 'MsgId');
  const originalMsgId = text(group, 'OrgnlMsgId');
  if (!msgId || !originalMsgId) throw new Pain002Error('The report has no MsgId or OrgnlMsgId');
  const paymentInfos = children(report, 'OrgnlPmtInfAndSts');
  return {
    kind: 'pain.002',
    msgId,
    originalMsgId,
    originalMessageName: text(group, 'OrgnlMsgNmId') ?? '',
    group: reported(group, 'GrpSts'),
    paymentInfos: paymentInfos.map((info) => ({ originalPmtInfId: text(info, 'OrgnlPmtInfId') ?? '', status: reported(info, 'PmtInfSts') })),
    transactions: paymentInfos.flatMap((info) =>
      children(info, 'TxInfAndSts').map((transaction) => ({ endToEndId: text(transaction, 'OrgnlEndToEndId') ?? '', status: reported(transaction, 'TxSts') })),
    ),
  };
}

function reported(node: unknown, statusElement: string): ReportedStatus {
  const reason = children(node, 'StsRsnInf')[0];
  const additional = children(reason, 'AddtlInf').filter((line): line is string => typeof line === 'string');
  return {
    code: text(node, statusElement),
    reasonCode: text(child(reason, 'Rsn'), 'Cd') ?? text(child(reason, 'Rsn'), 'Prtry'),
    additionalInfo: additional.length > 0 ? additional.join(' ') : undefined,
  };
}
