import type { ApplyBankMessage, BankFile, BankMessage, BankMessageOutcome } from '../../domain/bank/bankMessages.js';
import { type BankBooksDeps, applyBankBooks } from './applyBankBooks.js';
import { applyStatusReport } from './applyStatusReport.js';
import { applyWpsAnswer } from './applyWpsAnswer.js';

/** The use case as the inbox calls it (the composition root wires one to the other). */
export function bankMessageApplier(deps: BankBooksDeps): ApplyBankMessage {
  return (message, file) => applyBankMessage(deps, message, file);
}

/**
 * Whatever the bank sent, applied in one transaction: a status report settles the payouts of the
 * payment file it answers, a notification or a statement applies what the bank booked. The one
 * entry point for every file of the inbox.
 */
function applyBankMessage(deps: BankBooksDeps, message: BankMessage, file: BankFile): Promise<BankMessageOutcome> {
  return deps.db.transaction(async (tx) => {
    const now = deps.clock();
    if (message.kind === 'pain.002') return applyStatusReport(tx, message, file, now);
    if (message.kind === 'wps') return applyWpsAnswer(tx, message, file, now);
    return applyBankBooks(tx, deps, message, file, now);
  });
}
