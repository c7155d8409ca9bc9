import type { components } from '../../generated/api.js';
import { DomainError, notFound } from '../domain/errors.js';
import { feeHashExpiry, newPayrollFeeHash } from '../domain/feeHash.js';
import { Money, formatAmount, formatExact } from '../domain/money.js';
import { computePayrollFees, convertEntries, effectiveRate, normaliseEntries, payrollScale } from '../domain/payrollFees.js';
import { insertPayrollFeeEstimate } from '../store/feeEstimates.js';
import { findEstimateReferenceData } from '../store/referenceData.js';
import { requireActiveBeneficiaries } from './beneficiaries.js';
import type { UseCaseDeps } from './deps.js';
import { type Principal, requireCustomer } from './principal.js';

type EstimateRequest = components['schemas']['EstimatePayrollFeeRequest'];
type PayrollFeeEstimate = components['schemas']['PayrollFeeEstimate'];

/**
 * Estimate the fees of a payroll distribution and lock them behind a single-use feeHash.
 * The figures follow the fee rules written in the spec (estimatePayrollFee).
 */
export async function estimatePayrollFee(deps: UseCaseDeps, caller: Principal, request: EstimateRequest): Promise<PayrollFeeEstimate> {
  const customerId = requireCustomer(caller);
  return deps.db.transaction(async (tx) => {
    // Both account currencies, the customer's spread and the bank fee: one round trip.
    const reference = await findEstimateReferenceData(tx, customerId, request.sourceAccountCurrencyId, request.payrollAccountCurrencyId);
    const source = reference.source;
    if (!source || source.customer_id !== customerId) {
      throw notFound(`Source account currency ${request.sourceAccountCurrencyId} not found`);
    }
    const payroll = reference.payroll;
    // The caller's own account, or a platform partner-bank account (customer_id NULL).
    if (!payroll || (payroll.customer_id !== null && payroll.customer_id !== customerId)) {
      throw notFound(`Payroll account currency ${request.payrollAccountCurrencyId} not found`);
    }

    const scale = payrollScale(payroll.decimals);
    const entries = normaliseEntries(request.amountSplitDetails, scale);
    await requireActiveBeneficiaries(tx, customerId, entries.map((entry) => entry.beneficiaryId));

    const baseRate = await deps.rates.getRate(tx, source.currency_code, payroll.currency_code);
    if (!baseRate) {
      throw new DomainError(
        'EXCHANGE_RATE_UNAVAILABLE',
        `No exchange rate is available for ${source.currency_code} to ${payroll.currency_code}`,
      );
    }
    const spreadBips = reference.spreadBips ?? 0;
    const eff = effectiveRate(baseRate, spreadBips);
    const converted = convertEntries(entries, eff, scale);
    const sourceTotal = converted.reduce((total, entry) => total.plus(entry.sourceCurrencyAmount), new Money(0));
    const processorFee = await deps.processor.estimateDebitFee(tx, {
      accountProvider: source.account_provider,
      currencyCode: source.currency_code,
      amount: sourceTotal,
    });
    const bankFeePerBeneficiary = new Money(reference.bankFeePerBeneficiary ?? 0);
    const fees = computePayrollFees({ entries: converted, eff, spreadBips, processorFee, bankFeePerBeneficiary });

    const sourceAmount = (value: Money) => formatAmount(value, source.decimals);
    const payrollAmount = (value: Money) => formatAmount(value, payroll.decimals);
    const feeBreakdown: components['schemas']['FeeBreakdown'] = {
      sourceCurrencyAmount: sourceAmount(fees.sourceCurrencyAmount),
      spreadFee: sourceAmount(fees.spreadFee),
      processorFee: sourceAmount(fees.processorFee),
      bankFee: sourceAmount(fees.bankFee),
      totalFee: sourceAmount(fees.feeAmount),
      estimatedReceivedAmount: payrollAmount(fees.estimatedReceivedAmount),
      payrollCurrencyCode: payroll.currency_code,
      feeCurrencyCode: source.currency_code,
      exchangeRate: formatExact(eff),
      baseRate: formatExact(baseRate),
    };
    const now = deps.clock();
    const estimate: PayrollFeeEstimate = {
      totalAmount: sourceAmount(fees.totalAmount),
      sourceCurrencyAmount: feeBreakdown.sourceCurrencyAmount,
      feeAmount: feeBreakdown.totalFee,
      estimatedReceivedAmount: feeBreakdown.estimatedReceivedAmount,
      sourceAccountCurrencyId: source.id,
      payrollAccountCurrencyId: payroll.id,
      feeHash: newPayrollFeeHash(),
      expiresAt: feeHashExpiry(now, deps.config.feeHashTtlSeconds).toISOString(),
    };
    await insertPayrollFeeEstimate(tx, {
      feeHash: estimate.feeHash,
      customerId,
      createdByUserId: caller.userId,
      sourceAccountCurrencyId: source.id,
      payrollAccountCurrencyId: payroll.id,
      entries: converted.map((entry) => ({
        beneficiaryId: entry.beneficiaryId,
        amount: formatExact(entry.amount),
        amountCurrencyType: entry.amountCurrencyType,
        sourceCurrencyAmount: sourceAmount(entry.sourceCurrencyAmount),
        amountInPayrollCurrency: payrollAmount(entry.payrollAmount),
      })),
      feeBreakdown,
      sourceCurrencyAmount: estimate.sourceCurrencyAmount,
      feeAmount: estimate.feeAmount,
      totalAmount: estimate.totalAmount,
      estimatedReceivedAmount: estimate.estimatedReceivedAmount,
      createdAt: now,
      expiresAt: new Date(estimate.expiresAt),
    });
    return estimate;
  });
}
