import type { components } from '../../../generated/api.js';
import { DomainError } from '../../domain/errors.js';
import type { JournalEntry } from '../../domain/ledger/journal.js';
import { bankLegFailed, bankLegReturned, processorLegFailed } from '../../domain/ledger/journalEntries.js';
import { Money } from '../../domain/money/money.js';
import type { TransferType } from '../../domain/payroll/transfers.js';
import { postJournalEntry } from '../../store/ledger/ledger.js';
import { transfersOf } from '../../store/payroll/payrollLifecycle.js';
import { type LockedPayrollRequest, setFailureReason } from '../../store/payroll/payrollRequestUpdates.js';
import { advanceWork } from '../../store/operations/work.js';
import type { UseCaseDeps } from '../deps.js';
import { type PayrollRequestAnswer, recordStatusChangeAnswered, transferChanged } from '../webhooks/events.js';
import { lockRequestFor } from './payrollAccess.js';
import { lockedFeesOf, payrollLedgerOf, requestRefs } from './payrollSettlement.js';
import { type Principal, requireAdmin } from '../access/principal.js';

type Leg = Awaited<ReturnType<typeof transfersOf>>[number];

/**
 * Admin: fail an EXECUTING request that cannot go on (the FX record cannot be made), returning
 * the customer's funds. Refused while a leg is at the processor (its outcome is unknown); a leg
 * not yet sent is failed with the reason so the worker never sends it. What the legs left held for
 * the request returns to the source account in one balanced entry (docs/settlement.md).
 */
export async function failPayrollRequest(
  deps: UseCaseDeps,
  caller: Principal,
  requestId: string,
  body: components['schemas']['FailPayrollRequestRequest'],
): Promise<PayrollRequestAnswer> {
  requireAdmin(caller);
  return deps.db.transaction(async (tx) => {
    const now = deps.clock();
    const request = await lockRequestFor(tx, caller, requestId);
    if (request.status !== 'EXECUTING') {
      throw new DomainError('INVALID_STATE', `Payroll request ${requestId} is ${request.status}; an operator may fail it only while EXECUTING`, {
        reason: 'TRANSITION_NOT_ALLOWED',
      });
    }
    const legs = await transfersOf(tx, requestId);
    const inFlight = legs.find((leg) => leg.status === 'INITIATED' || leg.status === 'PROCESSING');
    if (inFlight) {
      throw new DomainError(
        'INVALID_STATE',
        `Payroll request ${requestId}: ${inFlight.transferType} is ${inFlight.status} at the processor; retry once it has settled`,
        { reason: 'TRANSFER_IN_FLIGHT' },
      );
    }
    for (const leg of legs.filter((candidate) => candidate.status === 'PENDING')) {
      await advanceWork(tx, { queue: 'PAYROLL_LEGS', id: leg.id }, 'PENDING', 'FAILED', now, { failureReason: body.reason });
      await transferChanged(tx, leg.id, now);
    }
    await postJournalEntry(tx, fundsBack(request, legs), now);
    await setFailureReason(tx, requestId, body.reason);
    return recordStatusChangeAnswered(tx, request, 'FAILED', now);
  });
}

/** Whatever the completed legs left held for the request, back to the customer (fees earned given back). */
function fundsBack(request: LockedPayrollRequest, legs: readonly Leg[]): JournalEntry {
  const completed = (type: TransferType) => legs.some((leg) => leg.transferType === type && leg.status === 'COMPLETED');
  const ledger = payrollLedgerOf(request);
  const refs = requestRefs(request);
  const forExchange = new Money(request.sourceAmountForExchange);
  if (!completed('PROCESSOR_INTERNAL_DEBIT')) return processorLegFailed(ledger, new Money(request.totalAmount), refs);
  if (!completed('PROCESSOR_TO_BANK')) return bankLegFailed(ledger, lockedFeesOf(request), forExchange, refs);
  return bankLegReturned(ledger, lockedFeesOf(request), forExchange, refs);
}
