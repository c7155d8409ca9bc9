import { payrollCreated, type PayrollLedger } from '../../domain/ledger/journalEntries.js';
import type { Money } from '../../domain/money/money.js';
import type { Queryable } from '../../store/database/db.js';
import { debitWithin } from '../../store/ledger/ledger.js';

/**
 * The debit of a payroll request's total: available ≥ total (else 400 INSUFFICIENT_FUNDS, nothing
 * written), then the total moves to the processor leg (journal PAYROLL_CREATED). The one debit
 * path of a payroll request, taken at creation or, for a customer who requires four-eyes
 * approval, at the approval. After the request row, which the journal entry refers to.
 */
export async function debitPayrollTotal(tx: Queryable, ledger: PayrollLedger, total: Money, requestId: string, at: Date): Promise<void> {
  await debitWithin(tx, ledger.sourceAccountCurrencyId, total, payrollCreated(ledger, total, { payrollRequestId: requestId }), at);
}
