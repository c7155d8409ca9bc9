import { endToEndIdOf } from '../../adapters/bank/iso20022/pain001.js';
import type { BankFile, BankMessageOutcome } from '../../domain/bank/bankMessages.js';
import type { BookedLine } from '../../domain/bank/bankReconciliation.js';
import type { WpsAgentAnswer, WpsRefund } from '../../domain/bank/wpsAnswers.js';
import { Money, ZERO } from '../../domain/money/money.js';
import { findPayoutByEndToEndId } from '../../store/bank/bankBookings.js';
import { insertBankExceptions } from '../../store/bank/bankExceptions.js';
import { type AnsweredSalaryFile, findRefundedPayout, findSalaryFileByName, recordAgentAnswer, recordRefund } from '../../store/bank/wpsSalaryFiles.js';
import type { Queryable } from '../../store/database/db.js';
import type { LineContext } from './bankBookContext.js';
import { applyReturn } from './bankReturns.js';

/** A refund naming a payout the bank has not settled yet: the file waits in the inbox for the settlement report. */
class RefundBeforeSettlement extends Error {}

/**
 * The WPS agent's answer to a salary file (docs/wps.md), in the bank message's transaction. An
 * acknowledgement is recorded on the file. A rejection is recorded on it for the operator: the
 * ministry has not seen the payroll, whose payments stand (nothing is sent again, so nothing is
 * paid twice). A refund credits each salary back as a bank return does, with the refund code as
 * the return's reason: the payout becomes RETURNED, the customer is credited back in a balanced
 * journal entry; a refund applied before changes nothing.
 */
export async function applyWpsAnswer(tx: Queryable, message: WpsAgentAnswer, file: BankFile, now: Date): Promise<BankMessageOutcome> {
  const sif = await findSalaryFileByName(tx, message.salaryFileName);
  if (!sif) return { kind: 'rejected', reason: `no salary file named ${message.salaryFileName} was sent` };
  if (message.answer === 'FDR') return applyRefunds(tx, message, sif, now);
  const status = message.answer === 'ACK' ? 'ACCEPTED' : 'REJECTED';
  if (!(await recordAgentAnswer(tx, sif.batchId, status, message.reason, now))) return { kind: 'already-applied' };
  if (status === 'ACCEPTED') return { kind: 'applied', entries: 1, exceptions: 0 };
  return {
    kind: 'ignored',
    reason: `the WPS agent rejected the salary file ${message.salaryFileName} (${message.reason}) of payroll request ${sif.payrollRequestId} (file ${file.fileName}): the ministry has not seen these salaries; the payments stand and nothing is sent again`,
  };
}

async function applyRefunds(tx: Queryable, message: WpsAgentAnswer, sif: AnsweredSalaryFile, now: Date): Promise<BankMessageOutcome> {
  let applied = 0;
  let already = 0;
  const exceptions: LineContext['exceptions'] = [];
  for (const refund of message.refunds) {
    const target = await findRefundedPayout(tx, message.salaryFileName, sif.batchId, refund.personId);
    if (!target) return { kind: 'rejected', reason: `no single payout of ${message.salaryFileName} paid the person id ${refund.personId}` };
    if (target.refunded) {
      already++;
      continue;
    }
    const payout = await findPayoutByEndToEndId(tx, endToEndIdOf(target.transferId));
    if (!payout) return { kind: 'rejected', reason: `the payout ${target.transferId} is not in a payment file` };
    if (payout.status === 'PROCESSING' || payout.status === 'PENDING' || payout.status === 'INITIATED')
      throw new RefundBeforeSettlement(`the refund of ${refund.personId} names payout ${payout.transferId}, which the bank has not settled yet`);
    const account = { accountCurrencyId: target.accountCurrencyId, currencyCode: target.currencyCode, decimals: target.decimals };
    const context: LineContext = { tx, msgId: message.msgId, messageKind: 'wps', account, now, exceptions };
    if (payout.status === 'COMPLETED') await applyReturn(context, refundLine(message, refund, target.transferId, now), payout);
    await recordRefund(tx, { fileName: message.salaryFileName, transferId: target.transferId, refundCode: refund.refundCode, amount: refund.amount, at: now });
    applied++;
  }
  if (applied === 0 && already > 0) return { kind: 'already-applied' };
  const recorded = await insertBankExceptions(tx, { msgId: null, statementId: null, at: now }, exceptions);
  return { kind: 'applied', entries: applied, exceptions: recorded };
}

/** A refund as the bank-return rule reads a booked line: money of ours coming back, the refund code its reason. */
function refundLine(message: WpsAgentAnswer, refund: WpsRefund, transferId: string, now: Date): BookedLine {
  const amount = new Money(refund.amount);
  return {
    endToEndId: endToEndIdOf(transferId),
    // The SIF it refunds (Max35Text, as a bank's reference): the person is the payout's.
    bankReference: message.salaryFileName.replace(/\.SIF$/i, '').slice(0, 35),
    entryReference: null,
    creditDebit: 'CRDT',
    amount,
    charges: ZERO,
    net: amount,
    currency: 'AED',
    bookedAt: now,
    returnReason: { code: refund.refundCode, text: `WPS refund of salary file ${message.salaryFileName}` },
    isReturn: true,
    identity: `${message.salaryFileName}:${refund.personId}`,
  };
}
