import { createHash } from 'node:crypto';
import type { ApplyBankBooks, BankToCustomerMessage } from '../../domain/bankBooks.js';
import { CamtError, parseBankToCustomer } from './camtParse.js';
import { type Handled, RejectedFile } from './inboxFile.js';
import { xsdErrors } from './xsd.js';

/**
 * What the bank booked, one camt.053.001.08 statement or camt.054.001.08 notification of the inbox:
 * validated against its XSD, read, and handed to the bank-books use case, which applies it once
 * (by its MsgId) or says why it cannot (RejectedFile, the file goes to rejected/). Any error the use
 * case throws is a failure of ours (the database away): the file stays to be tried again.
 */
export async function applyBankBooksFile(
  apply: ApplyBankBooks | undefined,
  file: { name: string; bytes: Uint8Array; receivedAt: Date },
  schema: 'camt.053.001.08' | 'camt.054.001.08',
): Promise<Handled> {
  // Rejected, not left in the inbox: an operator moves it back once the service applies what the bank books.
  if (!apply) throw new RejectedFile(`a ${schema} message, and this service has no bank-books use case wired to apply it`);
  const message = await readBankBooks(file.bytes, schema);
  const sha256 = createHash('sha256').update(file.bytes).digest('hex');
  const outcome = await apply(message, { fileName: file.name, sha256, receivedAt: file.receivedAt });
  const fields = { file: file.name, msgId: message.msgId, kind: message.kind };
  if (outcome.kind === 'rejected') throw new RejectedFile(outcome.reason);
  if (outcome.kind === 'already-applied') return { level: 'info', fields, message: 'bank inbox: bank books already applied; nothing changed' };
  return { level: 'info', fields: { ...fields, entries: outcome.entries, exceptions: outcome.exceptions }, message: 'bank inbox: bank books applied' };
}

/**
 * A camt.053/054 file validated against its XSD (streaming: a payroll day's statement is tens of
 * megabytes) and read; RejectedFile when it is not a valid message of that schema.
 */
async function readBankBooks(bytes: Uint8Array, schema: 'camt.053.001.08' | 'camt.054.001.08'): Promise<BankToCustomerMessage> {
  const errors = await xsdErrors(bytes, schema);
  if (errors.length > 0) throw new RejectedFile(`not a valid ${schema} document: ${errors[0]}`);
  try {
    return parseBankToCustomer(bytes);
  } catch (error) {
    if (error instanceof CamtError) throw new RejectedFile(error.message);
    throw error;
  }
}
