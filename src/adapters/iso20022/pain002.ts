import type { RailStatus } from '../rails.js';
import { reasonText } from './reasons.js';
import { child, children, parseXml, text } from './xml.js';

export const PAIN_002_NAMESPACE = 'urn:iso:std:iso:20022:tech:xsd:pain.002.001.11';

/** A status with its first reason, as a pain.002 gives it at group, batch or transaction level. */
export interface ReportedStatus {
  code: string | undefined;
  reasonCode: string | undefined;
  /** AddtlInf lines, joined. */
  additionalInfo: string | undefined;
}

export interface StatusReport {
  msgId: string;
  /** The pain.001 this report answers. */
  originalMsgId: string;
  originalMessageName: string;
  group: ReportedStatus;
  paymentInfos: { originalPmtInfId: string; status: ReportedStatus }[];
  transactions: { endToEndId: string; status: ReportedStatus }[];
}

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

// ACSC (settlement completed) and ACCC (credited to the creditor) are final successes; RJCT is final.
// Every other status (RCVD, ACTC, ACCP, ACSP, ACWC, ACFC, PDNG, PART) says the bank still has it.
const COMPLETED = new Set(['ACSC', 'ACCC']);

/** A reported status as the rails' status; undefined when the element carries no status. */
function railStatusOf(status: ReportedStatus): RailStatus | undefined {
  if (!status.code) return undefined;
  if (COMPLETED.has(status.code)) return { state: 'COMPLETED' };
  if (status.code === 'RJCT') return { state: 'FAILED', reason: failureReason(status) };
  return { state: 'PROCESSING' };
}

/** "AC04 closed account": the reason code and its text (the bank's own words when the code is not one we know). */
function failureReason(status: ReportedStatus): string {
  const code = status.reasonCode;
  const words = (code && reasonText(code)) ?? status.additionalInfo;
  if (code && words) return `${code} ${words}`;
  return code ?? words ?? 'Rejected by the bank';
}

/** A final status: what a payout ends with. */
export type SettledStatus = Exclude<RailStatus, { state: 'PROCESSING' }>;

/**
 * What the report says of each payout of the batch (by EndToEndId): a group-level rejection fails
 * every payout with its reason; otherwise the most specific status wins (transaction, then its
 * payment information, then the group). Payouts the report says nothing final about are absent.
 * Throws when the report names a transaction the batch does not hold.
 */
export function resolveReport(report: StatusReport, endToEndIds: readonly string[]): Map<string, SettledStatus> {
  const known = new Set(endToEndIds);
  const unknown = report.transactions.filter((transaction) => !known.has(transaction.endToEndId));
  if (unknown.length > 0) throw new Pain002Error(`The report names ${unknown.length} transaction(s) the batch does not hold, e.g. ${unknown[0]!.endToEndId}`);
  const group = railStatusOf(report.group);
  // One PmtInf per file is what we write; a status on any of them applies to the whole batch.
  const batch = report.paymentInfos.map((info) => railStatusOf(info.status)).find((status) => status !== undefined);
  const perTransaction = new Map(report.transactions.map((transaction) => [transaction.endToEndId, railStatusOf(transaction.status)]));
  const resolved = new Map<string, SettledStatus>();
  for (const id of endToEndIds) {
    const own = perTransaction.get(id);
    // A rejected file fails every payout: with the payout's own rejection reason when it has one, else the group's.
    const status = group?.state === 'FAILED' ? (own?.state === 'FAILED' ? own : group) : (own ?? batch ?? group);
    if (status && status.state !== 'PROCESSING') resolved.set(id, status);
  }
  return resolved;
}
