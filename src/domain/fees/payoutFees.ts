import type { Decimal } from 'decimal.js';
import type { BankCalendar } from '../calendar/bankCalendar.js';
import { validationError } from '../errors.js';
import { roundCharge } from '../money/minorUnits.js';
import { ZERO, bipsFraction, decimalPlacesText } from '../money/money.js';
import { type FeeSchedule, scheduleFee } from './payrollFees.js';

/** The largest payout amount accepted: keeps every figure exact as a JSON number. */
const MAX_PAYOUT_AMOUNT = '999999999999';

export interface PayoutSchedule extends FeeSchedule {
  settlementDays: number;
}

export interface InternalFeeRule {
  percentBps: Decimal;
  fixed: Decimal;
  /** true when the rule is the customer's own rule set, false for the platform default. */
  customerSpecific: boolean;
}

export interface PayoutFeeFigures {
  amount: Decimal;
  fee: Decimal;
  internalFee: Decimal;
  totalFee: Decimal;
  totalAmount: Decimal;
  estimatedDate: Date;
  isEstimateAvailable: boolean;
  ruleSet: boolean;
}

/** amount: at most the currency's minor units, above zero, at most MAX_PAYOUT_AMOUNT. */
export function checkPayoutAmount(amount: Decimal, currencyCode: string, minorUnits: number): void {
  const field = 'amount';
  if (!amount.greaterThan(0)) throw validationError('query.amount must be greater than zero', { reason: 'AMOUNT_NOT_POSITIVE', field });
  if (amount.greaterThan(MAX_PAYOUT_AMOUNT))
    throw validationError(`query.amount must be at most ${MAX_PAYOUT_AMOUNT}`, { reason: 'AMOUNT_LIMIT_EXCEEDED', field });
  if (amount.decimalPlaces() > minorUnits) {
    throw validationError(`query.amount has ${decimalPlacesText(amount.decimalPlaces())}; ${currencyCode} allows at most ${minorUnits}`, {
      reason: 'TOO_MANY_DECIMALS',
      field,
    });
  }
}

/**
 * Payout fee rules. Every fee is rounded up to the currency's minor units (what the customer
 * pays); totals are exact sums of rounded parts. The estimated date counts the settlement days on
 * the partner bank's calendar from the first day it can act (today before its cut-off). Without a schedule no estimate is available:
 * the fees are 0 and the date is now.
 */
export function computePayoutFees(input: {
  amount: Decimal;
  minorUnits: number;
  schedule: PayoutSchedule | null;
  internalRule: InternalFeeRule | null;
  now: Date;
  /** The payout currency's partner bank calendar: the settlement days are its business days. */
  calendar: BankCalendar;
}): PayoutFeeFigures {
  const { amount, minorUnits, schedule, internalRule, now, calendar } = input;
  if (!schedule) {
    return { amount, fee: ZERO, internalFee: ZERO, totalFee: ZERO, totalAmount: amount, estimatedDate: now, isEstimateAvailable: false, ruleSet: false };
  }
  const fee = roundCharge(scheduleFee(schedule, amount), minorUnits);
  const internalFee = internalRule ? roundCharge(amount.times(bipsFraction(internalRule.percentBps)).plus(internalRule.fixed), minorUnits) : ZERO;
  const totalFee = fee.plus(internalFee);
  return {
    amount,
    fee,
    internalFee,
    totalFee,
    totalAmount: amount.plus(totalFee),
    estimatedDate: calendar.afterBusinessDays(now, schedule.settlementDays),
    isEstimateAvailable: true,
    ruleSet: internalRule?.customerSpecific ?? false,
  };
}
