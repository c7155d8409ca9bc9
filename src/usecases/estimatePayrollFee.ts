import type { Decimal } from 'decimal.js';
import type { components } from '../../generated/api.js';
import { DomainError, notFound } from '../domain/errors.js';
import { completeWithSchedule, convertEntries, estimateRates, normaliseEstimateEntries } from '../domain/estimateFigures.js';
import { lockedEstimateEntries, payrollFeeEstimateView } from '../domain/estimateView.js';
import { feeHashExpiry, newPayrollFeeHash } from '../domain/feeHash.js';
import { settlementScales } from '../domain/minorUnits.js';
import { Money } from '../domain/money.js';
import type { Queryable } from '../store/db.js';
import { insertPayrollFeeEstimate } from '../store/feeEstimates.js';
import { type AccountCurrencyRow, findEstimateReferenceData } from '../store/referenceData.js';
import { requireActiveBeneficiaries } from './beneficiaries.js';
import type { UseCaseDeps } from './deps.js';
import { type Principal, requireCustomer } from './principal.js';

type EstimateRequest = components['schemas']['EstimatePayrollFeeRequest'];
type PayrollFeeEstimate = components['schemas']['PayrollFeeEstimate'];

/**
 * Estimate the fees of a payroll distribution and lock them behind a single-use feeHash: check
 * the accounts and the entries (each within its currency's minor units), gather the rate (none
 * for a same-currency payroll) and the fee schedules, let the domain compute every figure (the
 * fee rules written in the spec), and store the lines and the breakdown it locked.
 */
export async function estimatePayrollFee(deps: UseCaseDeps, caller: Principal, request: EstimateRequest): Promise<PayrollFeeEstimate> {
  const customerId = requireCustomer(caller);
  return deps.db.transaction(async (tx) => {
    const { source, payroll, spreadBips, bankFeePerBeneficiary } = await accountsOf(tx, customerId, request);
    const currencies = { source: { code: source.currency_code, decimals: source.decimals }, payroll: { code: payroll.currency_code, decimals: payroll.decimals } };
    const scales = settlementScales(currencies.source, currencies.payroll);
    const entries = normaliseEstimateEntries(request.amountSplitDetails, scales);
    await requireActiveBeneficiaries(tx, customerId, entries.map((entry) => entry.beneficiaryId));
    const baseRate = await baseRateOf(deps, tx, source.currency_code, payroll.currency_code);
    const converted = convertEntries(entries, scales, estimateRates(currencies.source, currencies.payroll, baseRate, spreadBips));
    const processorSchedule = await deps.processor.debitFeeSchedule(tx, { accountProvider: source.account_provider, currencyCode: source.currency_code });
    const figures = completeWithSchedule(converted, processorSchedule, new Money(bankFeePerBeneficiary ?? 0));

    const now = deps.clock();
    const expiresAt = feeHashExpiry(now, deps.config.feeHashTtlSeconds);
    const estimate = payrollFeeEstimateView(figures, {
      sourceAccountCurrencyId: source.id,
      payrollAccountCurrencyId: payroll.id,
      feeHash: newPayrollFeeHash(),
      expiresAt: expiresAt.toISOString(),
    });
    await insertPayrollFeeEstimate(tx, {
      ...estimate,
      customerId,
      createdByUserId: caller.userId,
      entries: lockedEstimateEntries(figures),
      feeBreakdown: estimate.feeBreakdown,
      createdAt: now,
      expiresAt,
    });
    return estimate;
  });
}

/** The rate source's rate; none is needed (nor looked up) when both sides hold the same currency. */
async function baseRateOf(deps: UseCaseDeps, tx: Queryable, from: string, to: string): Promise<Decimal | null> {
  if (from === to) return null;
  const rate = await deps.rates.getRate(tx, from, to);
  if (!rate) throw new DomainError('EXCHANGE_RATE_UNAVAILABLE', `No exchange rate is available for ${from} to ${to}`);
  return rate;
}

interface EstimateAccounts {
  source: AccountCurrencyRow;
  payroll: AccountCurrencyRow;
  /** 0 without a fee profile. */
  spreadBips: number;
  bankFeePerBeneficiary: string | null;
}

/**
 * Both account currencies, the customer's spread and the bank fee, in one round trip. The source
 * must be the caller's; the payroll account the caller's own or a platform partner-bank account.
 */
async function accountsOf(tx: Queryable, customerId: string, request: EstimateRequest): Promise<EstimateAccounts> {
  const reference = await findEstimateReferenceData(tx, customerId, request.sourceAccountCurrencyId, request.payrollAccountCurrencyId);
  const { source, payroll } = reference;
  if (!source || source.customer_id !== customerId) {
    throw notFound(`Source account currency ${request.sourceAccountCurrencyId} not found`);
  }
  // A platform partner-bank account has no customer (customer_id NULL).
  if (!payroll || (payroll.customer_id !== null && payroll.customer_id !== customerId)) {
    throw notFound(`Payroll account currency ${request.payrollAccountCurrencyId} not found`);
  }
  return { source, payroll, spreadBips: reference.spreadBips ?? 0, bankFeePerBeneficiary: reference.bankFeePerBeneficiary };
}
