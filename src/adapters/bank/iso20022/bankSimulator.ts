import { calendarRulesFor } from '../../../domain/calendar/calendarRules.js';
import { instantIn, isIsoDay } from '../../../domain/calendar/timeZones.js';
import { createHash } from 'node:crypto';
import { buildPain002, type Pain002Content } from './pain002Build.js';
import type { ExecutedPayment, SimulatedAccount } from './simulatedBookings.js';
import { child, children, parseXml, text } from './xml.js';
import { xsdErrors } from './xsd.js';

/** The simulation's rule, as in the simulated rails: a payout whose reference starts with FAIL bounces (AC04). */
const FAILING_REFERENCE_PREFIX = 'FAIL';
/** And one whose reference starts with RETURN is paid (ACSC), then sent back by the beneficiary's bank (a camt.054 return, AC04). */
const RETURNED_REFERENCE_PREFIX = 'RETURN';

/** One status report to drop in the service's inbox: its file name is `<msgId>.xml`. */
export interface SimulatedReport {
  msgId: string;
  xml: string;
}

/** The bank's answers to one pain.001: what it says at once, and what it says once the payments settle. */
export interface SimulatedAnswer {
  originalMsgId: string;
  /** False for a file the bank refused (invalid, duplicate): nothing will settle. */
  accepted: boolean;
  immediate: SimulatedReport;
  settled: SimulatedReport | undefined;
  /** What the bank books of an accepted file: the payments that settled (ACSC), debited from the debtor's account. */
  executed: { account: SimulatedAccount; payments: (ExecutedPayment & { returned: boolean })[] } | undefined;
  /**
   * A bank pays on the day the file asks (ReqdExctnDt), never before: the start of that day on the
   * bank's clock (the debtor account currency's calendar). The settled report and the bookings wait for it.
   */
  settlesNotBefore?: Date;
}

/**
 * The partner bank's answer to one payment file. An invalid file (against the pain.001.001.10 XSD)
 * is refused as a whole (group RJCT FF01); a MsgId already seen is refused (group RJCT DU01, the
 * first file's payments are unaffected); otherwise the file is accepted at once (ACCP) and each
 * payment settles (ACSC) or bounces (RJCT AC04, reference starting with FAIL) in the settled report.
 * The settled payments are what the bank then books (`executed`); those whose reference starts
 * with RETURN come back later as returns.
 */
export async function answerPaymentFile(xml: string, seen: (msgId: string) => boolean, now: Date): Promise<SimulatedAnswer> {
  const errors = await xsdErrors(xml, 'pain.001.001.10');
  const file = readPaymentFile(xml);
  const originalMsgId = file?.msgId ?? 'UNKNOWN';
  const base = { createdAt: now, originalMsgId };
  if (errors.length > 0 || !file) {
    const msgId = `F${createHash('sha256').update(xml).digest('hex').slice(0, 32)}`;
    const report = { msgId, createdAt: now, originalMsgId, group: { code: 'RJCT', reasonCode: 'FF01', additionalInfo: errors[0] ?? 'Unreadable file' } };
    return { originalMsgId, accepted: false, immediate: { msgId, xml: buildPain002(report) }, settled: undefined, executed: undefined };
  }
  const figures = { originalNbOfTxs: file.nbOfTxs, originalCtrlSum: file.ctrlSum };
  if (seen(file.msgId)) {
    const msgId = `D${createHash('sha256').update(`${file.msgId}${now.toISOString()}`).digest('hex').slice(0, 32)}`;
    const report: Pain002Content = { ...base, ...figures, msgId, group: { code: 'RJCT', reasonCode: 'DU01' } };
    return { originalMsgId, accepted: false, immediate: { msgId, xml: buildPain002(report) }, settled: undefined, executed: undefined };
  }
  const accepted: Pain002Content = { ...base, ...figures, msgId: `A${file.msgId}`.slice(0, 35), group: { code: 'ACCP' } };
  const transactions = file.transactions.map((transaction) => ({
    endToEndId: transaction.endToEndId,
    status: transaction.reference?.startsWith(FAILING_REFERENCE_PREFIX) ? { code: 'RJCT', reasonCode: 'AC04' } : { code: 'ACSC' },
  }));
  const rejected = transactions.filter((transaction) => transaction.status.code === 'RJCT').length;
  const groupCode = rejected === 0 ? 'ACSC' : rejected === transactions.length ? 'RJCT' : 'PART';
  const settled: Pain002Content = {
    ...base,
    ...figures,
    msgId: `S${file.msgId}`.slice(0, 35),
    group: { code: groupCode },
    paymentInfo: { originalPmtInfId: file.pmtInfId, transactions },
  };
  const payments = file.transactions
    .filter((_, index) => transactions[index]!.status.code === 'ACSC')
    .map(({ endToEndId, amount, reference }) => ({ endToEndId, amount, returned: reference?.startsWith(RETURNED_REFERENCE_PREFIX) ?? false }));
  return {
    originalMsgId,
    accepted: true,
    immediate: { msgId: accepted.msgId, xml: buildPain002(accepted) },
    settled: { msgId: settled.msgId, xml: buildPain002(settled) },
    executed: file.account ? { account: file.account, payments } : undefined,
    ...(file.requestedExecutionDate && isIsoDay(file.requestedExecutionDate)
      ? { settlesNotBefore: instantIn(file.requestedExecutionDate, 0, calendarRulesFor(file.account?.currency ?? '').timeZone) }
      : {}),
  };
}

interface PaymentFile {
  msgId: string;
  nbOfTxs: string | undefined;
  ctrlSum: string | undefined;
  pmtInfId: string;
  /** The debtor account (DbtrAcct: IBAN and currency), when the file names it by IBAN. */
  account: SimulatedAccount | undefined;
  transactions: { endToEndId: string; amount: string; reference: string | undefined }[];
  /** ReqdExctnDt: the day the debtor asks the bank to pay. */
  requestedExecutionDate: string | undefined;
}

/** What the simulated bank reads of a pain.001 (undefined when it is not even XML of that shape). */
function readPaymentFile(xml: string): PaymentFile | undefined {
  let initiation: Record<string, unknown> | undefined;
  try {
    initiation = child(child(parseXml(xml), 'Document'), 'CstmrCdtTrfInitn');
  } catch {
    return undefined;
  }
  const header = child(initiation, 'GrpHdr');
  const msgId = text(header, 'MsgId');
  const paymentInfo = children(initiation, 'PmtInf')[0];
  if (!msgId || !paymentInfo) return undefined;
  const debtorAccount = child(paymentInfo, 'DbtrAcct');
  const iban = text(child(debtorAccount, 'Id'), 'IBAN');
  const currency = text(debtorAccount, 'Ccy');
  return {
    msgId,
    nbOfTxs: text(header, 'NbOfTxs'),
    ctrlSum: text(header, 'CtrlSum'),
    pmtInfId: text(paymentInfo, 'PmtInfId') ?? msgId,
    requestedExecutionDate: text(child(paymentInfo, 'ReqdExctnDt'), 'Dt'),
    account: iban && currency ? { iban, currency } : undefined,
    transactions: children(paymentInfo, 'CdtTrfTxInf').map((transaction) => ({
      endToEndId: text(child(transaction, 'PmtId'), 'EndToEndId') ?? '',
      amount: text(child(transaction, 'Amt'), 'InstdAmt') ?? '0',
      reference: children(child(transaction, 'RmtInf'), 'Ustrd').find((line): line is string => typeof line === 'string'),
    })),
  };
}
