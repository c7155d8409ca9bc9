import type { components } from '../../generated/api.js';
import { DomainError, validationError } from '../domain/errors.js';
import { Money, formatExact } from '../domain/money.js';
import { assertTransition } from '../domain/payrollStatus.js';
import { refundPayrollRequest } from '../store/ledger.js';
import { setAcceptance, setCancellationReason, setQuote } from '../store/payrollRequestUpdates.js';
import type { UseCaseDeps } from './deps.js';
import { recordStatusChange } from './events.js';
import { lockRequestFor } from './payrollAccess.js';
import { type Principal, requireAdmin, requireCustomer } from './principal.js';
import { reloadPayrollRequest } from './views/payrollRequest.js';

type PayrollRequest = components['schemas']['PayrollRequest'];

/** The longest an admin quote may stay open. */
const MAX_QUOTE_LIFETIME_MS = 24 * 60 * 60 * 1000;

/**
 * Admin: quote the FX rate of a PENDING request, or re-quote a QUOTE_PROVIDED one whose quote
 * has expired (a quote the customer can still accept is never replaced under them).
 */
export async function providePayrollQuote(
  deps: UseCaseDeps,
  caller: Principal,
  requestId: string,
  body: components['schemas']['ProvideQuoteRequest'],
): Promise<PayrollRequest> {
  requireAdmin(caller);
  const rate = new Money(body.exchangeRate);
  if (!rate.greaterThan(0)) throw validationError('body.exchangeRate must be greater than zero');
  return deps.db.transaction(async (tx) => {
    const now = deps.clock();
    const expiresAt = new Date(body.expiresAt);
    if (expiresAt <= now) throw validationError('body.expiresAt must be in the future');
    if (expiresAt.getTime() - now.getTime() > MAX_QUOTE_LIFETIME_MS) throw validationError('body.expiresAt must be at most 24 hours ahead');
    const request = await lockRequestFor(tx, caller, requestId);
    assertTransition(requestId, request.status, 'quote');
    if (request.status === 'QUOTE_PROVIDED' && request.quote_expires_at && request.quote_expires_at > now) {
      throw new DomainError('INVALID_STATE', `Payroll request ${requestId} is QUOTE_PROVIDED with a quote valid until ${request.quote_expires_at.toISOString()}; re-quote after it expires`);
    }
    await setQuote(tx, requestId, { rate: formatExact(rate), expiresAt, quotedByUserId: caller.userId, quotedAt: now });
    await recordStatusChange(tx, request, 'QUOTE_PROVIDED', now);
    return reloadPayrollRequest(tx, requestId);
  });
}

/** Customer: accept the quote before it expires; execution then starts on its own. */
export async function acceptPayrollQuote(deps: UseCaseDeps, caller: Principal, requestId: string): Promise<PayrollRequest> {
  requireCustomer(caller);
  return deps.db.transaction(async (tx) => {
    const now = deps.clock();
    const request = await lockRequestFor(tx, caller, requestId);
    assertTransition(requestId, request.status, 'accept');
    if (!request.quote_expires_at || request.quote_expires_at <= now) {
      throw new DomainError('QUOTE_EXPIRED', `The quote expired at ${request.quote_expires_at?.toISOString()}; ask for a new quote`);
    }
    await setAcceptance(tx, requestId, now);
    await recordStatusChange(tx, request, 'QUOTE_ACCEPTED', now);
    return reloadPayrollRequest(tx, requestId);
  });
}

/** Customer: cancel before acceptance; the debited total returns to the source account. */
export async function cancelPayrollRequest(
  deps: UseCaseDeps,
  caller: Principal,
  requestId: string,
  body: components['schemas']['CancelPayrollRequestRequest'],
): Promise<PayrollRequest> {
  requireCustomer(caller);
  return deps.db.transaction(async (tx) => {
    const now = deps.clock();
    const request = await lockRequestFor(tx, caller, requestId);
    assertTransition(requestId, request.status, 'cancel');
    await refundPayrollRequest(tx, request, now);
    await setCancellationReason(tx, requestId, body.reason);
    await recordStatusChange(tx, request, 'CANCELLED', now);
    return reloadPayrollRequest(tx, requestId);
  });
}
