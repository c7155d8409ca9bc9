/** The funds a world's payroll requests hold on their source account currencies. */
import type { components } from '../../generated/api.js';
import { parseAmount, ZERO, type Money } from '../domain/money/money.js';
import type { WorldPayrollRequest } from './types.js';

/** Requests in these statuses hold no funds any more (their history returned the debit). */
const UNDEBITED_STATUSES: ReadonlySet<components['schemas']['PayrollRequestStatus']> = new Set(['CANCELLED', 'FAILED']);

interface Debit {
  request: WorldPayrollRequest;
  /** The request's position in world.payrollRequests. */
  position: number;
  /** All debits of the request's source account currency so far, this one included. */
  accountTotal: Money;
}

/** The requests that hold funds, in file order, each with the running total of its account currency. */
export function runningDebits(requests: readonly WorldPayrollRequest[]): Debit[] {
  const totals = new Map<string, Money>();
  return requests.flatMap((request, position) => {
    if (UNDEBITED_STATUSES.has(request.status)) return [];
    const accountTotal = (totals.get(request.sourceAccountCurrencyId) ?? ZERO).plus(parseAmount(request.totalAmount));
    totals.set(request.sourceAccountCurrencyId, accountTotal);
    return [{ request, position, accountTotal }];
  });
}
