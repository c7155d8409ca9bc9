import type { components } from '../../../generated/api.js';
import { DomainError } from '../errors.js';
import type { TransferOutcome } from './transfers.js';

/** The spec's statuses: a status added to the spec fails to compile until ACTIONS_FROM covers it. */
export type PayrollRequestStatus = components['schemas']['PayrollRequestStatus'];

export type PayrollAction = 'approve' | 'reject' | 'quote' | 'accept' | 'cancel' | 'startExecution' | 'recordFxExchange' | 'fail' | 'finishPayouts';

/**
 * The transition table of the spec (PayrollRequestStatus): which actions each status allows.
 * Where an action leads depends on facts (quote expiry, payout outcomes) that the use case
 * checks; this table only says whether the move is allowed at all.
 */
const ACTIONS_FROM: Record<PayrollRequestStatus, readonly PayrollAction[]> = {
  // Only for customers who require four-eyes approval; nothing is debited until 'approve'.
  AWAITING_APPROVAL: ['approve', 'reject', 'cancel'],
  PENDING: ['quote', 'cancel'],
  QUOTE_PROVIDED: ['quote', 'accept', 'cancel'],
  QUOTE_ACCEPTED: ['startExecution'],
  EXECUTING: ['recordFxExchange', 'fail'],
  PAYOUT_INITIATED: ['fail', 'finishPayouts'],
  COMPLETED: [],
  PARTIALLY_COMPLETED: [],
  FAILED: [],
  CANCELLED: [],
};

const STATUSES = Object.keys(ACTIONS_FROM) as PayrollRequestStatus[];

/** Throws 409 INVALID_STATE naming the current status when `action` is not allowed from it. */
export function assertTransition(requestId: string, current: PayrollRequestStatus, action: PayrollAction): void {
  if (ACTIONS_FROM[current].includes(action)) return;
  const allowed = STATUSES.filter((status) => ACTIONS_FROM[status].includes(action));
  throw new DomainError('INVALID_STATE', `Payroll request ${requestId} is ${current}; ${action} is allowed from ${allowed.join(' or ')}`, {
    reason: 'TRANSITION_NOT_ALLOWED',
  });
}

/** The final status once every payout has settled: all paid, some paid, none paid. */
export function statusAfterPayouts(outcomes: readonly TransferOutcome[]): PayrollRequestStatus {
  const completed = outcomes.filter((outcome) => outcome === 'COMPLETED').length;
  return statusAfterPayoutCounts(completed, outcomes.length - completed);
}

/** The same rule from the counts (a payroll of 100,000 payouts counts them in SQL). */
export function statusAfterPayoutCounts(completed: number, failed: number): PayrollRequestStatus {
  if (failed === 0) return 'COMPLETED';
  return completed === 0 ? 'FAILED' : 'PARTIALLY_COMPLETED';
}

/**
 * A paid payout returned by the bank revises a request that had taken its final status: null when
 * the request is still paying out (its final status will count the return) or keeps its status.
 */
export function statusAfterReturn(current: PayrollRequestStatus, completed: number, notPaid: number): PayrollRequestStatus | null {
  if (current !== 'COMPLETED' && current !== 'PARTIALLY_COMPLETED') return null;
  const revised = statusAfterPayoutCounts(completed, notPaid);
  return revised === current ? null : revised;
}
