import { randomUUID } from 'node:crypto';
import type { components } from '../../generated/api.js';
import { DomainError } from '../domain/errors.js';
import type { PayrollRequestStatus } from '../domain/payrollStatus.js';
import { metrics } from '../observability/telemetry.js';
import type { Queryable } from '../store/db.js';
import { changeStatus } from '../store/payrollRequestUpdates.js';
import { findReturnedAmounts } from '../store/payrollRequestJson.js';
import { insertPayrollRequestAnswer, insertPayrollRequestEvent } from '../store/payrollRequestJsonWrites.js';
import { findTransferOwner } from '../store/payrollRequests.js';
import { findPayout } from '../store/payouts.js';
import { insertDeliveries, recordEvent } from '../store/events.js';
import { ITEMS_PER_PART, StoredJson } from './storedJson.js';
import { toPayout } from './views/payout.js';
import { returnedAmountOf } from './views/payrollRequest.js';
import { loadTransfer } from './views/transfer.js';

type PayrollRequest = components['schemas']['PayrollRequest'];

/**
 * A payroll_request.status_changed event carries the request's splits and transfers up to this many
 * splits; beyond, it says `itemsOmitted` instead (the spec's PayrollRequestItemsOmitted).
 */
const EVENT_ITEMS_LIMIT = 1000;

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

/** The same, for an operation that answers with the request: the answer is stored for the route to send (StoredJson). */
export async function recordStatusChangeAnswered(
  tx: Queryable,
  request: { id: string; status: PayrollRequestStatus },
  to: PayrollRequestStatus,
  at: Date,
): Promise<StoredJson<PayrollRequest>> {
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
 * request as its GET returns it; above EVENT_ITEMS_LIMIT splits, without its splits and transfers)
 * is built and stored by PostgreSQL; only returnedAmount, a money rule, is computed here.
 */
async function payrollRequestChanged(tx: Queryable, requestId: string, at: Date): Promise<string> {
  const returned = await findReturnedAmounts(tx, requestId);
  const event = { id: randomUUID(), type: 'payroll_request.status_changed' as const, occurredAt: at };
  const returnedAmount = returnedAmountOf(returned.returnedAmounts, returned.sourceDecimals);
  const customerId = await insertPayrollRequestEvent(tx, { ...event, requestId, returnedAmount }, EVENT_ITEMS_LIMIT);
  if (customerId) await insertDeliveries(tx, { ...event, customerId });
  return returnedAmount;
}

/**
 * The same event, and the request's JSON as the operation's answer: written by PostgreSQL as a
 * stored answer in the same transaction, for the route to send after the commit.
 */
export async function payrollRequestChangedAnswered(tx: Queryable, requestId: string, at: Date): Promise<StoredJson<PayrollRequest>> {
  const returnedAmount = await payrollRequestChanged(tx, requestId, at);
  const answerId = randomUUID();
  const size = await insertPayrollRequestAnswer(tx, { answerId, requestId, returnedAmount, at, itemsPerPart: ITEMS_PER_PART });
  if (!size) throw new Error(`Payroll request ${requestId} vanished inside its own transaction`);
  return new StoredJson(answerId, size.bytes);
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
