import { DomainError } from './errors.js';

export type PayrollRequestStatus =
  | 'PENDING'
  | 'QUOTE_PROVIDED'
  | 'QUOTE_ACCEPTED'
  | 'EXECUTING'
  | 'PAYOUT_INITIATED'
  | 'COMPLETED'
  | 'PARTIALLY_COMPLETED'
  | 'FAILED'
  | 'CANCELLED';

export type PayrollAction = 'quote' | 'accept' | 'cancel' | 'startExecution' | 'recordFxExchange' | 'fail' | 'finishPayouts';

/**
 * The transition table of the spec (PayrollRequestStatus): which statuses each action may start
 * from. Where an action leads depends on facts (quote expiry, payout outcomes) that the use case
 * checks; this table only says whether the move is allowed at all.
 */
const ALLOWED_FROM: Record<PayrollAction, readonly PayrollRequestStatus[]> = {
  quote: ['PENDING', 'QUOTE_PROVIDED'],
  accept: ['QUOTE_PROVIDED'],
  cancel: ['PENDING', 'QUOTE_PROVIDED'],
  startExecution: ['QUOTE_ACCEPTED'],
  recordFxExchange: ['EXECUTING'],
  fail: ['EXECUTING', 'PAYOUT_INITIATED'],
  finishPayouts: ['PAYOUT_INITIATED'],
};

/** Throws 409 INVALID_STATE naming the current status when `action` is not allowed from it. */
export function assertTransition(requestId: string, current: PayrollRequestStatus, action: PayrollAction): void {
  const allowed = ALLOWED_FROM[action];
  if (!allowed.includes(current)) {
    throw new DomainError('INVALID_STATE', `Payroll request ${requestId} is ${current}; ${action} is allowed from ${allowed.join(' or ')}`);
  }
}

export type TransferOutcome = 'COMPLETED' | 'FAILED';

/** The final status once every payout has settled: all paid, some paid, none paid. */
export function statusAfterPayouts(outcomes: readonly TransferOutcome[]): PayrollRequestStatus {
  const completed = outcomes.filter((outcome) => outcome === 'COMPLETED').length;
  if (completed === outcomes.length) return 'COMPLETED';
  return completed === 0 ? 'FAILED' : 'PARTIALLY_COMPLETED';
}
