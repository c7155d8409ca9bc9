import type { ApplyBankMessage, BankFile, BankMessage } from '../../../domain/bank/bankMessages.js';
import { type Handled, RejectedFile } from './inboxFile.js';

const NAMES = { 'pain.002': 'status report', 'camt.053': 'bank books', 'camt.054': 'bank books', wps: 'WPS agent answer' } as const;

/**
 * One file of the inbox, already validated against its XSD and read into a message (by the report
 * reader's thread, streaming: a payroll day's statement is tens of megabytes), handed to the
 * bank-messages use case, which applies it once (by its MsgId) or says why it cannot (RejectedFile,
 * the file goes to rejected/). What it did is what the worker logs. Any error the use case throws is
 * a failure of ours (the database away): the file stays to be tried again.
 */
export async function applyBankMessageFile(apply: ApplyBankMessage, file: BankFile, message: BankMessage): Promise<Handled> {
  const outcome = await apply(message, file);
  const fields = { file: file.fileName, msgId: message.msgId, kind: message.kind };
  const name = NAMES[message.kind];
  switch (outcome.kind) {
    case 'rejected':
      throw new RejectedFile(outcome.reason);
    case 'already-applied':
      return { level: 'info', fields, message: `bank inbox: ${name} already applied; nothing changed` };
    case 'ignored':
      return { level: 'warn', fields: { ...fields, reason: outcome.reason }, message: `bank inbox: ${name} changes nothing: ${outcome.reason}` };
    case 'settled':
      return { level: 'info', fields: { ...fields, settled: outcome.payouts }, message: `bank inbox: ${name} applied` };
    case 'applied':
      return { level: 'info', fields: { ...fields, entries: outcome.entries, exceptions: outcome.exceptions }, message: `bank inbox: ${name} applied` };
  }
}
