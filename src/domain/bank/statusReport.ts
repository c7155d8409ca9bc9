import { reasonText } from './bankReasons.js';

/**
 * What a pain.002.001.11 status report says of a payment file of ours, as plain values: read by the
 * file adapter, applied by the bank-messages use case. The rules here (what a status means, which
 * level wins, what a DU01 refusal says) are the bank's language, so they are pure and live with the
 * domain; matching the report to a file of ours is the use case's.
 */

/** A status with its first reason, as a pain.002 gives it at group, batch or transaction level. */
export interface ReportedStatus {
  code: string | undefined;
  reasonCode: string | undefined;
  /** AddtlInf lines, joined. */
  additionalInfo: string | undefined;
}

export interface StatusReport {
  kind: 'pain.002';
  msgId: string;
  /** The pain.001 this report answers. */
  originalMsgId: string;
  originalMessageName: string;
  group: ReportedStatus;
  paymentInfos: { originalPmtInfId: string; status: ReportedStatus }[];
  transactions: { endToEndId: string; status: ReportedStatus }[];
}

/** A final status: what a payout ends with. */
export type SettledStatus = { state: 'COMPLETED' } | { state: 'FAILED'; reason: string };

/** A report that names a transaction the payment file it answers does not hold. */
export class StatusReportMismatch extends Error {}

/**
 * A DU01 refusal at group level: the bank already has a file of this MsgId and refuses the second
 * copy. It says nothing of the first copy's payments, which stand.
 */
export function refusesSecondCopy(report: StatusReport): boolean {
  return report.group.code === 'RJCT' && report.group.reasonCode === 'DU01';
}

// ACSC (settlement completed) and ACCC (credited to the creditor) are final successes; RJCT is final.
// Every other status (RCVD, ACTC, ACCP, ACSP, ACWC, ACFC, PDNG, PART) says the bank still has it.
const COMPLETED = new Set(['ACSC', 'ACCC']);

type Status = SettledStatus | { state: 'PROCESSING' };

/** A reported status as a payout's; undefined when the element carries no status. */
function statusOf(status: ReportedStatus): Status | undefined {
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

/**
 * What the report says of each payout of the file (by EndToEndId): a group-level rejection fails
 * every payout with its reason; otherwise the most specific status wins (transaction, then its
 * payment information, then the group). Payouts the report says nothing final about are absent.
 * Throws StatusReportMismatch when the report names a transaction the file does not hold.
 */
export function resolveReport(report: StatusReport, endToEndIds: readonly string[]): Map<string, SettledStatus> {
  const known = new Set(endToEndIds);
  const unknown = report.transactions.filter((transaction) => !known.has(transaction.endToEndId));
  if (unknown.length > 0)
    throw new StatusReportMismatch(`The report names ${unknown.length} transaction(s) the batch does not hold, e.g. ${unknown[0]!.endToEndId}`);
  const group = statusOf(report.group);
  // One PmtInf per file is what we write; a status on any of them applies to the whole batch.
  const batch = report.paymentInfos.map((info) => statusOf(info.status)).find((status) => status !== undefined);
  const perTransaction = new Map(report.transactions.map((transaction) => [transaction.endToEndId, statusOf(transaction.status)]));
  const resolved = new Map<string, SettledStatus>();
  for (const id of endToEndIds) {
    const own = perTransaction.get(id);
    // A rejected file fails every payout: with the payout's own rejection reason when it has one, else the group's.
    const status = group?.state === 'FAILED' ? (own?.state === 'FAILED' ? own : group) : (own ?? batch ?? group);
    if (status && status.state !== 'PROCESSING') resolved.set(id, status);
  }
  return resolved;
}
