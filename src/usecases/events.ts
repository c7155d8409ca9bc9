import { randomUUID } from 'node:crypto';
import type { components } from '../../generated/api.js';
import { DomainError } from '../domain/errors.js';
import type { PayrollRequestStatus } from '../domain/payrollStatus.js';
import { metrics } from '../observability/telemetry.js';
import type { Queryable } from '../store/db.js';
import { changeStatus } from '../store/payrollRequestUpdates.js';
import { findReturnedAmounts, insertPayrollRequestEvent } from '../store/payrollRequestJson.js';
import { findTransferOwner } from '../store/payrollRequests.js';
import { findPayout } from '../store/payouts.js';
import { insertDeliveries, recordEvent } from '../store/events.js';
import { payrollRequestJsonText } from './getPayrollRequest.js';
import type { JsonText } from './jsonText.js';
import { toPayout } from './views/payout.js';
import { returnedAmountOf } from './views/payrollRequest.js';
import { loadTransfer } from './views/transfer.js';

type PayrollRequest = components['schemas']['PayrollRequest'];

/**
 * Status changes and their events, in one transaction: the event is written to the event log (and
 * the webhook outbox) with the change, so none is lost and none outlives a rollback. Every change
 * writes its event, whether or not an endpoint subscribes: `listEvents` serves the whole log.
 */

/**
 * Moves a request the caller holds locked from the status it was read in to `to`, and records
 * its payroll_request.status_changed event. Fields that change with the status are set before
 * (typed setters of the store), so that the event carries them.
 */
export async function recordStatusChange(
  tx: Queryable,
  request: { id: string; status: PayrollRequestStatus },
  to: PayrollRequestStatus,
  at: Date,
): Promise<void> {
  await moveStatus(tx, request, to, at);
  await payrollRequestChanged(tx, request.id, at);
}

/** The same, for an operation that answers with the request: its JSON is built once, for the event and the answer. */
export async function recordStatusChangeAnswered(
  tx: Queryable,
  request: { id: string; status: PayrollRequestStatus },
  to: PayrollRequestStatus,
  at: Date,
): Promise<JsonText<PayrollRequest>> {
  await moveStatus(tx, request, to, at);
  return payrollRequestChangedAnswered(tx, request.id, at);
}

async function moveStatus(tx: Queryable, request: { id: string; status: PayrollRequestStatus }, to: PayrollRequestStatus, at: Date): Promise<void> {
  if (!(await changeStatus(tx, request.id, request.status, to, at))) {
    throw new DomainError('INVALID_STATE', `Payroll request ${request.id} is no longer ${request.status}`);
  }
  tx.afterCommit(() => metrics.payrollTransition(request.status, to));
}

/**
 * payroll_request.status_changed: on creation (PENDING) and after every move. The payload (the
 * request as its GET returns it, every split and transfer included) is built and stored by
 * PostgreSQL; only returnedAmount, a money rule, is computed here.
 */
async function payrollRequestChanged(tx: Queryable, requestId: string, at: Date): Promise<void> {
  await writePayrollRequestEvent(tx, requestId, at, false);
}

/** The same event, and the request's JSON (built once for both) as the operation's answer. */
export async function payrollRequestChangedAnswered(tx: Queryable, requestId: string, at: Date): Promise<JsonText<PayrollRequest>> {
  const answer = await writePayrollRequestEvent(tx, requestId, at, true);
  if (!answer) throw new Error(`Payroll request ${requestId} vanished inside its own transaction`);
  return answer;
}

async function writePayrollRequestEvent(tx: Queryable, requestId: string, at: Date, answer: boolean): Promise<JsonText<PayrollRequest> | null> {
  const returned = await findReturnedAmounts(tx, requestId);
  const event = { id: randomUUID(), type: 'payroll_request.status_changed' as const, occurredAt: at };
  const returnedAmount = returnedAmountOf(returned.returnedAmounts, returned.sourceDecimals);
  const written = await insertPayrollRequestEvent(tx, { ...event, requestId, returnedAmount }, answer);
  if (written.customerId) await insertDeliveries(tx, { ...event, customerId: written.customerId });
  return written.answer && payrollRequestJsonText(written.answer);
}

export async function transferChanged(tx: Queryable, transferId: string, at: Date): Promise<void> {
  await notify(tx, await findTransferOwner(tx, transferId), 'transfer.status_changed', at, () => loadTransfer(tx, transferId));
}

export async function payoutChanged(tx: Queryable, payoutId: string, at: Date): Promise<void> {
  const payout = await findPayout(tx, payoutId);
  if (payout) await notify(tx, payout.customerId, 'payout.status_changed', at, async () => toPayout(payout));
}

async function notify(
  tx: Queryable,
  customerId: string | null,
  type: components['schemas']['WebhookEventType'],
  at: Date,
  payload: () => Promise<{ id: string }>,
): Promise<void> {
  if (!customerId) return;
  // The payload is the resource as its GET returns it; its id (canonical, lower case) names the resource.
  const data = await payload();
  await recordEvent(tx, { id: randomUUID(), customerId, type, resourceId: data.id, occurredAt: at, payload: data });
}
