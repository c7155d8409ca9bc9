import type { ApplyBankBooks, BankToCustomerMessage } from '../../domain/bankBooks.js';
import { type Handled, RejectedFile } from './inboxFile.js';

/**
 * What the bank booked, one camt.053.001.08 statement or camt.054.001.08 notification of the inbox,
 * already validated against its XSD and read (by the report reader's thread, streaming: a payroll
 * day's statement is tens of megabytes): handed to the bank-books use case, which applies it once
 * (by its MsgId) or says why it cannot (RejectedFile, the file goes to rejected/). Any error the use
 * case throws is a failure of ours (the database away): the file stays to be tried again.
 */
export async function applyBankBooksFile(
  apply: ApplyBankBooks,
  file: { name: string; sha256: string; receivedAt: Date },
  message: BankToCustomerMessage,
): Promise<Handled> {
  const outcome = await apply(message, { fileName: file.name, sha256: file.sha256, receivedAt: file.receivedAt });
  const fields = { file: file.name, msgId: message.msgId, kind: message.kind };
  if (outcome.kind === 'rejected') throw new RejectedFile(outcome.reason);
  if (outcome.kind === 'already-applied') return { level: 'info', fields, message: 'bank inbox: bank books already applied; nothing changed' };
  return { level: 'info', fields: { ...fields, entries: outcome.entries, exceptions: outcome.exceptions }, message: 'bank inbox: bank books applied' };
}
