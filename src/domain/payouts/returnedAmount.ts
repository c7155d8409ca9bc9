import { formatAtScale, sourceScaleOf } from '../money/minorUnits.js';
import { Money, sum } from '../money/money.js';

/**
 * A payroll request's `returnedAmount`: what its failed (or returned) payouts credited back to the
 * source account currency, the sum of their splits' returned source amounts at the source
 * currency's scale ("0.00" when none).
 */
export function returnedAmountOf(returnedAmounts: readonly string[], sourceDecimals: number): string {
  return formatAtScale(sum(returnedAmounts.map((amount) => new Money(amount))), sourceScaleOf(sourceDecimals));
}
