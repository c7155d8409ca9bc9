import { randomUUID } from 'node:crypto';
import type { components } from '../../../generated/api.js';
import { DomainError } from '../../domain/errors.js';
import type { PayrollRequestStatus } from '../../domain/payroll/payrollStatus.js';
import { metrics } from '../../observability/telemetry.js';
import type { Queryable } from '../../store/database/db.js';
import { changeStatus } from '../../store/payroll/payrollRequestUpdates.js';
import { findTransferRows } from '../../store/payroll/payrollItems.js';
import { countSplits } from '../../store/payroll/payrollRequests.js';
import { findPayout } from '../../store/payouts/payouts.js';
import { type WrittenEvent, recordEvent, recordEvents } from '../../store/webhooks/events.js';
import { PackedJson } from '../answers/packedJson.js';
import { type PayrollRequestReading, readPayrollRequest } from '../payroll/payrollRequestReading.js';
import { payrollRequestItemsOmitted } from '../views/payrollRequest.js';
import { initiatedTransferText, transferText } from '../views/transfer.js';
import { toPayout } from '../views/payout.js';

type PayrollRequest = components['schemas']['PayrollRequest'];

/** An operation's answer with the request, as it stood when the operation committed. */
export type PayrollRequestAnswer = PackedJson<PayrollRequest>;

/**
 * A payroll_request.status_changed event carries the request's splits and transfers up to this many
 * splits; beyond, it says `itemsOmitted` instead (the spec's PayrollRequestItemsOmitted). A rule of
 * the payload the interface document states, not a choice of how the request is read.
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
 * transfers), written by the request's one writer.
 */
async function payrollRequestChanged(tx: Queryable, requestId: string, at: Date): Promise<void> {
  const { reading, carried } = await readForEvent(tx, requestId);
  if (carried) for await (const part of reading.text()) carried.push(part);
  await recordRequestEvent(tx, reading, carried, at);
}

/** The same event, and the request as the operation's answer: one text, written once, in the same transaction. */
export async function payrollRequestChangedAnswered(tx: Queryable, requestId: string, at: Date): Promise<PayrollRequestAnswer> {
  const { reading, carried } = await readForEvent(tx, requestId);
  const answer = await PackedJson.pack<PayrollRequest>(carried ? collecting(reading.text(), carried) : reading.text());
  await recordRequestEvent(tx, reading, carried, at);
  return answer;
}

/** The request being read, and where its text is kept for the event when the event carries its items. */
async function readForEvent(tx: Queryable, requestId: string): Promise<{ reading: PayrollRequestReading; carried: string[] | null }> {
  const reading = await readPayrollRequest(tx, requestId, null);
  if (!reading) throw new Error(`Payroll request ${requestId} vanished inside its own transaction`);
  return { reading, carried: (await countSplits(tx, requestId)) <= EVENT_ITEMS_LIMIT ? [] : null };
}

async function recordRequestEvent(tx: Queryable, reading: PayrollRequestReading, carried: string[] | null, at: Date): Promise<void> {
  const payloadJson = carried ? carried.join('') : JSON.stringify(payrollRequestItemsOmitted(reading.top));
  const { id: resourceId, customer } = reading.top;
  await recordEvents(tx, [{ id: randomUUID(), customerId: customer.id, type: 'payroll_request.status_changed', resourceId, payloadJson }], at);
}

/** The parts as they pass, kept in `into`. */
async function* collecting(parts: AsyncIterable<string>, into: string[]): AsyncGenerator<string, void, undefined> {
  for await (const part of parts) {
    into.push(part);
    yield part;
  }
}

/** transfer.status_changed of a payroll request's transfer, carrying the Transfer as the request's reads show it. */
export async function transferChanged(tx: Queryable, transferId: string, at: Date): Promise<void> {
  await transfersChanged(tx, [{ id: transferId, wasPending: false }], at);
}

/** Transfers whose events are written by one statement: the process holds their rows and payloads, a few MB. */
const TRANSFER_EVENTS_PER_STATEMENT = 1000;

/**
 * transfer.status_changed of several transfers moved together, in the request's order; one that
 * went from PENDING to PROCESSING in one update (`wasPending`) shows INITIATED first.
 */
export async function transfersChanged(tx: Queryable, moved: ReadonlyArray<{ id: string; wasPending: boolean }>, at: Date): Promise<void> {
  const pending = new Set(moved.filter((item) => item.wasPending).map((item) => item.id));
  for (let start = 0; start < moved.length; start += TRANSFER_EVENTS_PER_STATEMENT) {
    const ids = moved.slice(start, start + TRANSFER_EVENTS_PER_STATEMENT).map((item) => item.id);
    const events: WrittenEvent[] = [];
    for (const transfer of await findTransferRows(tx, ids)) {
      const event = { customerId: transfer.customerId, type: 'transfer.status_changed' as const, resourceId: transfer.id };
      if (pending.has(transfer.id)) events.push({ ...event, id: randomUUID(), payloadJson: initiatedTransferText(transfer) });
      events.push({ ...event, id: randomUUID(), payloadJson: transferText(transfer) });
    }
    await recordEvents(tx, events, at);
  }
}

/** transfer.screening_held of payouts screening held out of their bank file, carrying each Transfer with its screeningHold. */
export async function transfersHeld(tx: Queryable, transferIds: readonly string[], at: Date): Promise<void> {
  for (let start = 0; start < transferIds.length; start += TRANSFER_EVENTS_PER_STATEMENT) {
    const rows = await findTransferRows(tx, transferIds.slice(start, start + TRANSFER_EVENTS_PER_STATEMENT));
    const events: WrittenEvent[] = rows.map((transfer) => ({
      id: randomUUID(),
      customerId: transfer.customerId,
      type: 'transfer.screening_held' as const,
      resourceId: transfer.id,
      payloadJson: transferText(transfer),
    }));
    await recordEvents(tx, events, at);
  }
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
