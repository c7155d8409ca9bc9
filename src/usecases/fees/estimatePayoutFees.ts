import { BankCalendar } from '../../domain/calendar/bankCalendar.js';
import { calendarRulesOf } from '../../store/calendar/bankCalendars.js';
import { randomUUID } from 'node:crypto';
import type { components } from '../../../generated/api.js';
import { notFound, validationError } from '../../domain/errors.js';
import { feeHashExpiry, signPayoutFeeHash } from '../../domain/fees/feeHash.js';
import { assertJsonExact } from '../../domain/money/minorUnits.js';
import { Money, formatExact } from '../../domain/money/money.js';
import { type PayoutFeeFigures, checkPayoutAmount, computePayoutFees } from '../../domain/fees/payoutFees.js';
import { parseFeeSchedule } from '../../domain/fees/payrollFees.js';
import { insertPayoutFeeEstimate } from '../../store/fees/feeEstimates.js';
import { findAccount, findBeneficiaries, findInternalPayoutRule, getCurrency, findPayoutSchedule } from '../../store/reference/referenceData.js';
import type { Queryable } from '../../store/database/db.js';
import type { UseCaseDeps } from '../deps.js';
import { type Principal, requireCustomer } from '../access/principal.js';
import { toPayoutFeeEstimate } from '../views/payoutFeeEstimate.js';

type PayoutFeeEstimate = components['schemas']['PayoutFeeEstimate'];

export interface PayoutEstimateQuery {
  accountId: string;
  amount: string;
  currency: string;
  beneficiaryId: string;
}

/**
 * Estimate the fees of one payout from the caller's account and sign them into a feeHash
 * that Create Payout Request can check without a database read and consume once.
 */
export async function estimatePayoutFees(deps: UseCaseDeps, caller: Principal, query: PayoutEstimateQuery): Promise<PayoutFeeEstimate> {
  const customerId = requireCustomer(caller);
  return deps.db.transaction(async (tx) => {
    const { account, beneficiaryId, currency } = await payoutParties(tx, customerId, query);
    const amount = new Money(query.amount);
    checkPayoutAmount(amount, currency.code, currency.decimals);
    const schedule = await findPayoutSchedule(tx, account.accountProvider, currency.code);
    const rule = await findInternalPayoutRule(tx, customerId, currency.code);
    const now = deps.clock();
    const figures = computePayoutFees({
      amount,
      minorUnits: currency.decimals,
      schedule: schedule && { ...parseFeeSchedule(schedule), settlementDays: schedule.settlementDays },
      internalRule: rule && { percentBps: new Money(rule.percentBps), fixed: new Money(rule.fixed), customerSpecific: rule.customerSpecific },
      now,
      calendar: new BankCalendar(await calendarRulesOf(tx, currency.code)),
    });
    // The figures go out as JSON numbers: each must be exact as one (at most 15 significant digits).
    assertJsonExact(figures.amount, 'query.amount', { field: 'amount' });
    assertJsonExact(figures.totalAmount, 'totalAmount');

    const id = randomUUID();
    const expiresAt = feeHashExpiry(now, deps.config.feeHashTtlSeconds);
    await insertPayoutFeeEstimate(tx, {
      id,
      customerId,
      accountId: account.id,
      beneficiaryId,
      currencyCode: currency.code,
      ...exactFigures(figures),
      ruleSet: figures.ruleSet,
      isEstimateAvailable: figures.isEstimateAvailable,
      estimatedDate: figures.estimatedDate,
      createdAt: now,
      expiresAt,
    });
    const locked = lockedPayoutFigures({ accountId: account.id, beneficiaryId, currency: currency.code, amount: figures.amount });
    return toPayoutFeeEstimate(figures, currency.code, signPayoutFeeHash(deps.config.feeHashSecret, id, expiresAt, locked), expiresAt);
  });
}

/** The caller's account, an active beneficiary of the caller's and a currency the account holds. */
async function payoutParties(tx: Queryable, customerId: string, query: PayoutEstimateQuery) {
  const account = await findAccount(tx, query.accountId);
  if (!account || account.customerId !== customerId) throw notFound(`Account ${query.accountId} not found`);
  const [beneficiary] = await findBeneficiaries(tx, customerId, [query.beneficiaryId]);
  if (!beneficiary || !beneficiary.active) throw notFound(`Beneficiary ${query.beneficiaryId} not found or inactive`);
  if (!account.currencyCodes.includes(query.currency)) {
    throw validationError(`query.currency ${query.currency} is not held by account ${account.id}`, { reason: 'CURRENCY_NOT_HELD', field: 'currency' });
  }
  const currency = await getCurrency(tx, query.currency);
  return { account, beneficiaryId: beneficiary.id, currency };
}

/** The locked figures as exact strings: each keeps every decimal it has. */
function exactFigures(figures: PayoutFeeFigures) {
  return {
    amount: formatExact(figures.amount),
    fee: formatExact(figures.fee),
    internalFee: formatExact(figures.internalFee),
    totalFee: formatExact(figures.totalFee),
    totalAmount: formatExact(figures.totalAmount),
  };
}

/**
 * What the payout feeHash signs: the payout it was estimated for. Create Payout Request checks
 * the body against it without a database read; the fees themselves stay locked in the estimate row.
 */
export function lockedPayoutFigures(payout: { accountId: string; beneficiaryId: string; currency: string; amount: Money }): string {
  return [payout.accountId, payout.beneficiaryId, payout.currency, formatExact(payout.amount)].join('|');
}
