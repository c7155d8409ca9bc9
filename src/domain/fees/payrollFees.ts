import type { Decimal } from 'decimal.js';
import { bipsFraction, clamp, parseAmount } from '../money/money.js';

/**
 * Fee schedules (the processor's debit fee, a payout provider's fee): clamp(amount × bps/10000 +
 * fixed, min, max). The estimate's arithmetic that uses them is estimateFigures.ts.
 */

/** The documented maximum number of beneficiaries in one payroll estimate or request. */
export const MAX_SPLIT_ENTRIES = 100_000;

export interface FeeSchedule {
  percentBps: Decimal;
  fixed: Decimal;
  min: Decimal;
  max: Decimal;
}

/** A schedule read as exact decimal strings, parsed once. */
export function parseFeeSchedule(text: Record<keyof FeeSchedule, string>): FeeSchedule {
  return { percentBps: parseAmount(text.percentBps), fixed: parseAmount(text.fixed), min: parseAmount(text.min), max: parseAmount(text.max) };
}

/** clamp(amount × percentBps/10000 + fixed, min, max), unrounded: callers round to their scale. */
export function scheduleFee(schedule: FeeSchedule, amount: Decimal): Decimal {
  return clamp(amount.times(bipsFraction(schedule.percentBps)).plus(schedule.fixed), schedule.min, schedule.max);
}
