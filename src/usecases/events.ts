import { randomUUID } from 'node:crypto';
import type { components } from '../../generated/api.js';
import { DomainError } from '../domain/errors.js';
import type { PayrollRequestStatus } from '../domain/payrollStatus.js';
import { metrics } from '../observability/telemetry.js';
import type { Queryable } from '../store/db.js';
import { changeStatus } from '../store/payrollRequestUpdates.js';
import { returnedAmountOf } from '../domain/returnedAmount.js';
import { getPayrollRequestHead } from '../store/payrollRequestJson.js';
import { findPayrollItemsUpTo, insertPayrollRequestAnswer, insertPayrollRequestEvent } from '../store/payrollRequestJsonWrites.js';
import { type PayrollRequestTopLevel, payrollRequestTopLevel } from '../store/payrollRequestTopLevel.js';
import { findPayout } from '../store/payouts.js';
import { recordEvent, recordTransferEvent } from '../store/events.js';
import { JsonText } from './jsonText.js';
import { ITEMS_PER_PART, StoredJson } from './storedJson.js';
import { toPayout } from './views/payout.js';

type PayrollRequest = components['schemas']['PayrollRequest'];

/** An operation's answer with the request: its text when small, a stored answer streamed after the commit when big. */
export type PayrollRequestAnswer = JsonText<PayrollRequest> | StoredJson<PayrollRequest>;

/**
 * Up to this many splits, an operation's answer is the request's text read in the transaction (one
 * statement); beyond, it is stored in parts and streamed after the commit, never whole in the process.
 */
const STORED_ANSWER_ABOVE_SPLITS = 1000;

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

/** The same, for an operation that answers with the request (PayrollRequestAnswer). */
export async function recordStatusChangeAnswered(
  tx: Queryable,
  request: { id: string; status: PayrollRequestStatus },
  to: PayrollRequestStatus,
  at: Date,
): Promise<PayrollRequestAnswer> {
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
 * payroll_request.status_changed: on creation (PENDING) and after every move. The payload is the
 * request as its GET returns it (above EVENT_ITEMS_LIMIT splits, without its splits and
 * transfers), its items joined by PostgreSQL; returnedAmount, a money rule, is computed here.
 * Returns the request's top level, for an answer written in the same transaction.
 */
async function payrollRequestChanged(tx: Queryable, requestId: string, at: Date): Promise<PayrollRequestTopLevel> {
  const found = await getPayrollRequestHead(tx, requestId);
  const top = payrollRequestTopLevel(returnedAmountOf(found.returnedAmounts, found.sourceDecimals), found.head);
  await insertPayrollRequestEvent(tx, { id: randomUUID(), requestId, occurredAt: at, top }, EVENT_ITEMS_LIMIT);
  return top;
}

/**
 * The same event, and the request's JSON as the operation's answer, read in the same transaction:
 * a small request's text in one statement; a big one's written by PostgreSQL as a stored answer,
 * for the route to stream after the commit. The same bytes either way.
 */
export async function payrollRequestChangedAnswered(tx: Queryable, requestId: string, at: Date): Promise<PayrollRequestAnswer> {
  const top = await payrollRequestChanged(tx, requestId, at);
  const items = await findPayrollItemsUpTo(tx, requestId, STORED_ANSWER_ABOVE_SPLITS);
  if (items) return new JsonText([top.opening, ...items.splits, top.between, ...items.transfers, top.closing]);
  const answerId = randomUUID();
  const size = await insertPayrollRequestAnswer(tx, { answerId, requestId, top, at, itemsPerPart: ITEMS_PER_PART });
  if (!size) throw new Error(`Payroll request ${requestId} vanished inside its own transaction`);
  return new StoredJson(answerId, size.bytes);
}

/** transfer.status_changed of a payroll request's transfer, carrying the Transfer as the request's reads show it. */
export async function transferChanged(tx: Queryable, transferId: string, at: Date): Promise<void> {
  await recordTransferEvent(tx, transferId, at);
}

export async function payoutChanged(tx: Queryable, payoutId: string, at: Date): Promise<void> {
  const payout = await findPayout(tx, payoutId);
  // The payload is the payout as its GET returns it; its id (canonical, lower case) names the resource.
  if (payout)
    await recordEvent(tx, {
      id: randomUUID(),
      customerId: payout.customerId,
      type: 'payout.status_changed',
      resourceId: payout.id,
      occurredAt: at,
      payload: toPayout(payout),
    });
}
