import { randomUUID } from 'node:crypto';
import type { components } from '../../generated/api.js';
import { notFound, validationError } from '../domain/errors.js';
import { feeHashExpiry, signPayoutFeeHash } from '../domain/feeHash.js';
import { Money, formatExact, toJsonNumber } from '../domain/money.js';
import { checkPayoutAmount, computePayoutFees } from '../domain/payoutFees.js';
import { parseFeeSchedule } from '../domain/payrollFees.js';
import { insertPayoutFeeEstimate } from '../store/feeEstimates.js';
import { findAccount, findBeneficiaries, findCurrency, findInternalPayoutRule, findPayoutSchedule } from '../store/referenceData.js';
import type { UseCaseDeps } from './deps.js';
import { type Principal, requireCustomer } from './principal.js';

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
    const account = await findAccount(tx, query.accountId);
    if (!account || account.customer_id !== customerId) throw notFound(`Account ${query.accountId} not found`);
    const [beneficiary] = await findBeneficiaries(tx, customerId, [query.beneficiaryId]);
    if (!beneficiary || !beneficiary.active) throw notFound(`Beneficiary ${query.beneficiaryId} not found or inactive`);
    if (!account.currency_codes.includes(query.currency)) {
      throw validationError(`query.currency ${query.currency} is not held by account ${account.id}`);
    }
    const currency = (await findCurrency(tx, query.currency))!;
    const amount = new Money(query.amount);
    checkPayoutAmount(amount, currency.code, currency.decimals);

    const schedule = await findPayoutSchedule(tx, account.account_provider, currency.code);
    const rule = await findInternalPayoutRule(tx, customerId, currency.code);
    const now = deps.clock();
    const figures = computePayoutFees({
      amount,
      minorUnits: currency.decimals,
      schedule: schedule && { ...parseFeeSchedule(schedule), settlementDays: schedule.settlementDays },
      internalRule: rule && { percentBps: new Money(rule.percent_bps), fixed: new Money(rule.fixed), customerSpecific: rule.customer_specific },
      now,
    });

    const id = randomUUID();
    const expiresAt = feeHashExpiry(now, deps.config.feeHashTtlSeconds);
    await insertPayoutFeeEstimate(tx, {
      id,
      customerId,
      accountId: account.id,
      beneficiaryId: beneficiary.id,
      currencyCode: currency.code,
      amount: formatExact(figures.amount),
      fee: formatExact(figures.fee),
      internalFee: formatExact(figures.internalFee),
      totalFee: formatExact(figures.totalFee),
      totalAmount: formatExact(figures.totalAmount),
      ruleSet: figures.ruleSet,
      isEstimateAvailable: figures.isEstimateAvailable,
      estimatedDate: figures.estimatedDate,
      createdAt: now,
      expiresAt,
    });
    return {
      amount: toJsonNumber(figures.amount),
      currency: currency.code,
      fee: toJsonNumber(figures.fee),
      feeCurrency: currency.code,
      estimatedDate: figures.estimatedDate.toISOString(),
      isEstimateAvailable: figures.isEstimateAvailable,
      totalAmount: toJsonNumber(figures.totalAmount),
      internalFee: toJsonNumber(figures.internalFee),
      ruleSet: figures.ruleSet,
      totalFee: toJsonNumber(figures.totalFee),
      feeHash: signPayoutFeeHash(deps.config.feeHashSecret, id, expiresAt, lockedPayoutFigures({ accountId: account.id, beneficiaryId: beneficiary.id, currency: currency.code, amount: figures.amount })),
      expiresAt: expiresAt.toISOString(),
    };
  });
}

/**
 * What the payout feeHash signs: the payout it was estimated for. Create Payout Request checks
 * the body against it without a database read; the fees themselves stay locked in the estimate row.
 */
export function lockedPayoutFigures(payout: { accountId: string; beneficiaryId: string; currency: string; amount: Money }): string {
  return [payout.accountId, payout.beneficiaryId, payout.currency, formatExact(payout.amount)].join('|');
}
