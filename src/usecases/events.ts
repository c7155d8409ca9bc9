import { randomUUID } from 'node:crypto';
import type { Queryable } from '../store/db.js';
import { updatePayrollRequest } from '../store/payrollLifecycle.js';
import { findPayout } from '../store/payouts.js';
import { hasSubscribers, recordEvent } from '../store/webhooks.js';
import { loadPayrollRequest, loadTransfer } from './getPayrollRequest.js';
import { toPayout } from './payoutView.js';

/**
 * Status changes and their events, in one transaction: the event is written to the outbox with
 * the change, so none is lost and none outlives a rollback. A payload is built only when some
 * endpoint of the customer subscribes to the event type.
 */
export async function updateRequest(tx: Queryable, requestId: string, at: Date, fields: Record<string, unknown>): Promise<void> {
  await updatePayrollRequest(tx, requestId, at, fields);
  if ('status' in fields) await payrollRequestChanged(tx, requestId, at);
}

export async function payrollRequestChanged(tx: Queryable, requestId: string, at: Date): Promise<void> {
  const [owner] = await tx.query<{ customer_id: string }>('SELECT customer_id FROM payroll_requests WHERE id = $1', [requestId]);
  const type = 'payroll_request.status_changed';
  if (!owner || !(await hasSubscribers(tx, owner.customer_id, type))) return;
  await recordEvent(tx, { id: randomUUID(), customerId: owner.customer_id, type, occurredAt: at, payload: await loadPayrollRequest(tx, requestId) });
}

export async function transferChanged(tx: Queryable, transferId: string, at: Date): Promise<void> {
  const [owner] = await tx.query<{ customer_id: string }>(
    'SELECT r.customer_id FROM transfers t JOIN payroll_requests r ON r.id = t.payroll_request_id WHERE t.id = $1',
    [transferId],
  );
  const type = 'transfer.status_changed';
  if (!owner || !(await hasSubscribers(tx, owner.customer_id, type))) return;
  await recordEvent(tx, { id: randomUUID(), customerId: owner.customer_id, type, occurredAt: at, payload: (await loadTransfer(tx, transferId))!.transfer });
}

export async function payoutChanged(tx: Queryable, payoutId: string, at: Date): Promise<void> {
  const payout = await findPayout(tx, payoutId);
  const type = 'payout.status_changed';
  if (!payout || !(await hasSubscribers(tx, payout.customer_id, type))) return;
  await recordEvent(tx, { id: randomUUID(), customerId: payout.customer_id, type, occurredAt: at, payload: toPayout(payout) });
}
