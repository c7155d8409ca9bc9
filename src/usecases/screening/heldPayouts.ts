import type { Queryable } from '../../store/database/db.js';
import { getLockedPayrollRequest, touchPayrollRequest } from '../../store/payroll/payrollRequestUpdates.js';
import { failConfirmedPayouts, payrollRequestsOfTransfers } from '../../store/screening/screening.js';
import { postPayoutsSettled } from '../payroll/settlementPostings.js';
import { transfersChanged } from '../webhooks/events.js';

/**
 * Held payouts of a confirmed hit fail and are credited back through the ledger, as a payout the
 * bank rejects is: each request's under its lock, with their events. The request takes its final
 * status when its batch closes (the worker's next pass), as after the bank's report.
 */
export async function failHeldPayouts(tx: Queryable, transferIds: readonly string[], reason: string, now: Date): Promise<void> {
  if (transferIds.length === 0) return;
  const held = await payrollRequestsOfTransfers(tx, transferIds);
  for (const requestId of new Set(held.map((hold) => hold.payrollRequestId))) {
    const request = await getLockedPayrollRequest(tx, requestId);
    const ids = held.filter((hold) => hold.payrollRequestId === requestId).map((hold) => hold.transferId);
    const items = await failConfirmedPayouts(tx, ids, reason, now);
    await transfersChanged(
      tx,
      items.map((item) => ({ id: item.id, wasPending: false })),
      now,
    );
    await postPayoutsSettled(tx, request, items, now);
    await touchPayrollRequest(tx, request.id, now);
  }
}
