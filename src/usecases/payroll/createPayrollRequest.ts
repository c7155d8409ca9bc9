import { randomUUID } from 'node:crypto';
import type { components } from '../../../generated/api.js';
import { DomainError, fieldNamed, notFound } from '../../domain/errors.js';
import { Money, exactAmountText } from '../../domain/money/money.js';
import { type LockedPayrollFeeEstimate, consumePayrollFeeEstimate } from '../../store/fees/feeEstimates.js';
import type { Queryable } from '../../store/database/db.js';
import { customerRequiresApproval } from '../../store/payroll/payrollApproval.js';
import { insertPayrollRequest } from '../../store/payroll/payrollLifecycle.js';
import { insertSplitsWithSnapshots } from '../../store/payroll/payrollSplits.js';
import { refreshPlannerStatisticsAfterPayrollCreated } from '../../store/database/statistics.js';
import { requireActiveBeneficiaries } from '../beneficiaries/beneficiaries.js';
import type { UseCaseDeps } from '../deps.js';
import { refuseScreeningHits } from '../screening/screenBeneficiaries.js';
import { type PayrollRequestAnswer, payrollRequestChangedAnswered } from '../webhooks/events.js';
import { debitPayrollTotal } from './payrollDebit.js';
import { requireWpsFields } from './wpsPayrollCheck.js';
import { payScheduleOf } from './paySchedule.js';
import { setPaySchedule } from '../../store/payroll/paySchedules.js';
import { type Principal, requireCustomer } from '../access/principal.js';

type CreateRequest = components['schemas']['CreatePayrollRequestRequest'];

/**
 * A draft of a template's run: the request always waits in AWAITING_APPROVAL (whatever the
 * customer's setting) and `claim` records the run in the same transaction, false when this run
 * already has its request (then nothing is written).
 */
export interface DraftOptions {
  claim: (tx: Queryable, requestId: string) => Promise<boolean>;
}

/** The run a draft was for already has its request: another worker's pass made it. */
export class RunAlreadyDrafted extends Error {}

/**
 * Create a payroll request from a feeHash, in one transaction: consume the feeHash, check the
 * body against the estimate it locked, snapshot the beneficiaries and store the splits with the
 * locked lines and fee breakdown, then check and debit the funds. Any failure rolls back, so the feeHash stays
 * unused unless it was already used. For a customer who requires four-eyes approval the request
 * waits in AWAITING_APPROVAL instead and nothing is debited: approvePayrollRequest debits it.
 */
export async function createPayrollRequest(deps: UseCaseDeps, caller: Principal, body: CreateRequest, draft?: DraftOptions): Promise<PayrollRequestAnswer> {
  const customerId = requireCustomer(caller);
  // Lists may have changed since the estimate: screened again before anything is written or debited.
  await refuseScreeningHits(deps, beneficiariesOf(body), 'PAYROLL_REQUEST');
  const answer = await deps.db.transaction(async (tx) => {
    const now = deps.clock();
    const requestId = randomUUID();
    const estimate = await consumeFeeHash(tx, body.feeHash, customerId, requestId, now);
    const locked = estimate.entries;
    assertMatchesEstimate(body, estimate);

    const breakdown = estimate.feeBreakdown;
    const currencies = { source: breakdown.feeCurrencyCode, payroll: breakdown.payrollCurrencyCode };
    const wps = await requireWpsFields(tx, customerId, currencies, body.amountSplitDetails, deps.bankFiles.wpsAccount);
    const paySchedule = await payScheduleOf(tx, deps, breakdown.payrollCurrencyCode, body.payDate);
    const approvalRequired = draft !== undefined || (await customerRequiresApproval(tx, customerId));
    await insertPayrollRequest(tx, {
      id: requestId,
      customerId,
      sourceAccountCurrencyId: estimate.sourceAccountCurrencyId,
      payrollAccountCurrencyId: estimate.payrollAccountCurrencyId,
      totalAmount: estimate.totalAmount,
      estimatedFxRate: breakdown.exchangeRate,
      estimatedReceivedAmount: estimate.estimatedReceivedAmount,
      sourceAmountForExchange: estimate.sourceCurrencyAmount,
      feeBreakdown: breakdown,
      feeHash: estimate.feeHash,
      createdByUserId: caller.userId,
      approvalRequired,
      at: now,
    });
    if (paySchedule) await setPaySchedule(tx, requestId, paySchedule);
    if (draft && !(await draft.claim(tx, requestId))) throw new RunAlreadyDrafted();
    const splitsWritten = await insertSplitsWithSnapshots(tx, { id: requestId, customerId }, splitsOf(locked, body, wps), now);
    // A beneficiary deactivated since the estimate: the 404 names it, and everything rolls back.
    if (!splitsWritten) await refuseInactiveBeneficiaries(tx, customerId, locked);
    // A shortfall rolls everything back; a request awaiting approval is debited when approved.
    if (!approvalRequired) {
      const ledger = {
        sourceAccountCurrencyId: estimate.sourceAccountCurrencyId,
        sourceCurrency: breakdown.feeCurrencyCode,
        payrollAccountCurrencyId: estimate.payrollAccountCurrencyId,
        payrollCurrency: breakdown.payrollCurrencyCode,
      };
      await debitPayrollTotal(tx, ledger, new Money(estimate.totalAmount), requestId, now);
    }
    return payrollRequestChangedAnswered(tx, requestId, now);
  });
  await refreshPlannerStatisticsAfterPayrollCreated(deps.db, body.amountSplitDetails.length);
  return answer;
}

const beneficiariesOf = (body: CreateRequest): string[] => body.amountSplitDetails.map((entry) => entry.beneficiaryId);

/** The splits as the estimate locked their figures, with each entry's purpose and WPS salary details. */
function splitsOf(locked: LockedPayrollFeeEstimate['entries'], body: CreateRequest, wps: Awaited<ReturnType<typeof requireWpsFields>>) {
  return locked.map((entry, index) => ({
    beneficiaryId: entry.beneficiaryId,
    amountCurrencyType: entry.amountCurrencyType,
    sourceCurrencyAmount: entry.sourceCurrencyAmount,
    amount: entry.amountInPayrollCurrency,
    purposeCode: body.amountSplitDetails[index]!.purposeCode,
    wps: wps?.[index],
  }));
}

async function refuseInactiveBeneficiaries(tx: Queryable, customerId: string, locked: LockedPayrollFeeEstimate['entries']): Promise<never> {
  await requireActiveBeneficiaries(
    tx,
    customerId,
    locked.map((entry) => entry.beneficiaryId),
  );
  throw new Error('A split was not written although every beneficiary is active');
}

/** The body must ask for exactly what the feeHash locked: same accounts, same entries in order. */
function assertMatchesEstimate(body: CreateRequest, estimate: LockedPayrollFeeEstimate): void {
  const locked = estimate.entries;
  const mismatch = (field: string, entryIndex?: number) =>
    new DomainError('FEE_HASH_MISMATCH', `${field} differs from the estimate locked by this feeHash`, {
      field: fieldNamed(field),
      ...(entryIndex === undefined ? {} : { entryIndex }),
    });
  if (body.sourceAccountCurrencyId.toLowerCase() !== estimate.sourceAccountCurrencyId) throw mismatch('sourceAccountCurrencyId');
  if (body.payrollAccountCurrencyId.toLowerCase() !== estimate.payrollAccountCurrencyId) throw mismatch('payrollAccountCurrencyId');
  if (body.amountSplitDetails.length !== locked.length) {
    throw new DomainError(
      'FEE_HASH_MISMATCH',
      `amountSplitDetails has ${body.amountSplitDetails.length} entries; the estimate locked by this feeHash has ${locked.length}`,
      { field: fieldNamed('amountSplitDetails') },
    );
  }
  body.amountSplitDetails.forEach((entry, index) => {
    const expected = locked[index]!;
    const field = `amountSplitDetails[${index}]`;
    if (entry.beneficiaryId.toLowerCase() !== expected.beneficiaryId) throw mismatch(`${field}.beneficiaryId`, index);
    if ((entry.amountCurrencyType ?? 'SOURCE') !== expected.amountCurrencyType) throw mismatch(`${field}.amountCurrencyType`, index);
    if (!sameAmount(entry.amount, expected.amount)) throw mismatch(`${field}.amount`, index);
  });
}

/** A body's amount against the locked one (formatExact's text): by their texts first, parsed only when these differ. */
function sameAmount(requested: string, locked: string): boolean {
  return exactAmountText(requested) === locked || new Money(requested).equals(locked);
}

/** Consumes the feeHash for this request, once: expired, already used and unknown each have their error. */
async function consumeFeeHash(tx: Queryable, feeHash: string, customerId: string, requestId: string, now: Date): Promise<LockedPayrollFeeEstimate> {
  const consumed = await consumePayrollFeeEstimate(tx, feeHash, customerId, requestId, now);
  if (!consumed.ok) {
    if (consumed.reason === 'EXPIRED') throw new DomainError('FEE_HASH_EXPIRED', `The feeHash expired at ${consumed.expiresAt.toISOString()}; estimate again`);
    if (consumed.reason === 'ALREADY_USED') throw new DomainError('FEE_HASH_ALREADY_USED', 'This feeHash has already been used to create a payroll request');
    throw notFound('feeHash not found');
  }
  return consumed.estimate;
}
