import type { components } from '../../../generated/api.js';
import { DomainError } from '../../domain/errors.js';
import { type RateSnapshot, rateAsOf, usableRate } from '../../domain/reference/rates.js';
import {
  type EstimateFigures,
  type NormalisedEntry,
  completeWithSchedule,
  convertEntries,
  estimateRates,
  normaliseEstimateEntries,
} from '../../domain/fees/estimateFigures.js';
import { lockedEstimateEntries, payrollFeeEstimateView } from '../../domain/fees/estimateView.js';
import { feeHashExpiry, newPayrollFeeHash } from '../../domain/fees/feeHash.js';
import { type CurrencyUnits, type SettlementScales, settlementScales } from '../../domain/money/minorUnits.js';
import { Money } from '../../domain/money/money.js';
import { insertPayrollFeeEstimateIfCurrent } from '../../store/fees/feeEstimates.js';
import type { EstimateAccountCurrency } from '../../store/reference/referenceData.js';
import { requireActiveBeneficiaries } from '../beneficiaries/beneficiaries.js';
import type { UseCaseDeps } from '../deps.js';
import { payScheduleOf } from '../payroll/paySchedule.js';
import { toPaySchedule } from '../views/paySchedule.js';
import { refuseScreeningHits } from '../screening/screenBeneficiaries.js';
import { type EstimateReference, estimateReference, forgetEstimateReferences } from './estimateReference.js';
import { type Principal, requireCustomer } from '../access/principal.js';

type EstimateRequest = components['schemas']['EstimatePayrollFeeRequest'];
type EstimateAccounts = Pick<EstimateRequest, 'sourceAccountCurrencyId' | 'payrollAccountCurrencyId' | 'payDate'>;

/**
 * The entries to estimate, validated as normaliseEstimateEntries validates a body's, at the scales
 * of the reference read (a CSV file's rows were already read into entries at those scales).
 */
export type EntriesAtScales = (scales: SettlementScales) => readonly NormalisedEntry[];
type PayrollFeeEstimate = components['schemas']['PayrollFeeEstimate'];

/**
 * `beneficiariesVerified`: the caller has just looked every beneficiary up as the customer's and
 * active (a CSV file's rows are resolved so), and the store need not check them again. An estimate
 * promises no beneficiary stays active: the creation checks them again as it writes the splits.
 */
interface EstimateOptions {
  beneficiariesVerified: boolean;
}

/** Reloads after a stale reference version before giving up (an admin moving rates in a tight loop). */
const MAX_ATTEMPTS = 5;

/**
 * Estimate the fees of a payroll distribution and lock them behind a single-use feeHash: check
 * the accounts and the entries (each within its currency's minor units), take the rate (none for
 * a same-currency payroll) and the fee schedules from the reference data cached in the process,
 * let the domain compute every figure (the fee rules written in the spec), and store the lines
 * and the breakdown it locked in one statement that also checks the beneficiaries and that the
 * reference data is still current. When it is not, the reference is read again and the figures
 * computed again.
 */
export async function estimatePayrollFee(deps: UseCaseDeps, caller: Principal, request: EstimateRequest): Promise<PayrollFeeEstimate> {
  const entriesAt: EntriesAtScales = (scales) => normaliseEstimateEntries(request.amountSplitDetails, scales);
  return estimatePayrollEntries(deps, caller, request, entriesAt, { beneficiariesVerified: false });
}

/** The estimate of the entries `entriesAt` gives at the reference's scales (see EntriesAtScales), for the accounts named. */
export async function estimatePayrollEntries(
  deps: UseCaseDeps,
  caller: Principal,
  accounts: EstimateAccounts,
  entriesAt: EntriesAtScales,
  options: EstimateOptions,
): Promise<PayrollFeeEstimate> {
  const customerId = requireCustomer(caller);
  for (let attempt = 1; ; attempt += 1) {
    const reference = await estimateReference(deps, customerId, accounts);
    const now = deps.clock();
    const { figures, beneficiaryIds } = await figuresOf(deps, customerId, reference, entriesAt, now);
    if (attempt === 1) await refuseScreeningHits(deps, beneficiaryIds, 'ESTIMATE');
    const schedule = await payScheduleOf(deps.db, deps, reference.payroll.currencyCode, accounts.payDate);
    const expiresAt = feeHashExpiry(now, deps.config.feeHashTtlSeconds);
    const estimate: PayrollFeeEstimate = payrollFeeEstimateView(figures, {
      sourceAccountCurrencyId: reference.source.id,
      payrollAccountCurrencyId: reference.payroll.id,
      feeHash: newPayrollFeeHash(),
      expiresAt: expiresAt.toISOString(),
      rateSource: figures.rate.source,
      rateAsOf: rateAsOf(figures.rate, now).toISOString(),
    });
    if (schedule) estimate.schedule = toPaySchedule(schedule);
    const record = {
      ...estimate,
      customerId,
      createdByUserId: caller.userId,
      entries: lockedEstimateEntries(figures, estimate.lines),
      createdAt: now,
      expiresAt,
    };
    const stored = await insertPayrollFeeEstimateIfCurrent(deps.db, record, {
      beneficiaryIds: options.beneficiariesVerified ? null : beneficiaryIds,
      referenceVersion: reference.referenceVersion,
    });
    // The 404 names the missing beneficiaries; this read happens only on that error path.
    if (!stored.beneficiariesOk) await requireActiveBeneficiaries(deps.db, customerId, beneficiaryIds);
    if (stored.beneficiariesOk && stored.referenceCurrent) return estimate;
    if (!stored.referenceCurrent) forgetEstimateReferences(deps.db);
    if (attempt >= MAX_ATTEMPTS) throw new Error('The reference data kept changing while the estimate was computed');
  }
}

/**
 * Validates the entries and computes every figure. Errors keep their order of before the cache:
 * a bad body (400) first, then missing beneficiaries (404), then the rate and the conversion (400),
 * so a failure after validation looks the beneficiaries up before it is reported.
 */
async function figuresOf(
  deps: UseCaseDeps,
  customerId: string,
  reference: EstimateReference,
  entriesAt: EntriesAtScales,
  now: Date,
): Promise<{ figures: EstimateFigures & { rate: RateSnapshot }; beneficiaryIds: string[] }> {
  const scales = settlementScales(unitsOf(reference.source), unitsOf(reference.payroll));
  const entries = entriesAt(scales);
  const beneficiaryIds = entries.map((entry) => entry.beneficiaryId);
  try {
    return { figures: compute(reference, scales, entries, now), beneficiaryIds };
  } catch (error) {
    if (error instanceof DomainError) await requireActiveBeneficiaries(deps.db, customerId, beneficiaryIds);
    throw error;
  }
}

function unitsOf(accountCurrency: EstimateAccountCurrency): CurrencyUnits {
  return { code: accountCurrency.currencyCode, decimals: accountCurrency.decimals };
}

/** The figures at the pair's rate, when the service stands behind it now (else EXCHANGE_RATE_UNAVAILABLE, usableRate). */
function compute(
  reference: EstimateReference,
  scales: SettlementScales,
  entries: readonly NormalisedEntry[],
  now: Date,
): EstimateFigures & { rate: RateSnapshot } {
  const { source, payroll } = reference;
  const rate = usableRate({ from: source.currencyCode, to: payroll.currencyCode }, reference.rate, now);
  const rates = estimateRates(unitsOf(source), unitsOf(payroll), rate.rate, reference.spreadBips);
  const converted = convertEntries(entries, scales, rates);
  return { ...completeWithSchedule(converted, reference.processorSchedule, new Money(reference.bankFeePerBeneficiary ?? 0)), rate };
}
