import { randomUUID } from 'node:crypto';
import type { components } from '../../../generated/api.js';
import { DomainError, notFound } from '../../domain/errors.js';
import { verifyPayoutFeeHash } from '../../domain/fees/feeHash.js';
import { singlePayoutDebited } from '../../domain/ledger/journalEntries.js';
import { Money, formatAmount } from '../../domain/money/money.js';
import { assertPayoutMatchesEstimate } from '../../domain/fees/payoutEstimateMatch.js';
import type { Queryable } from '../../store/database/db.js';
import { consumePayoutFeeEstimate } from '../../store/fees/feeEstimates.js';
import { debitWithin } from '../../store/ledger/ledger.js';
import { findPayout, getAccountCurrencyOf, getPayout as getPayoutRecord, insertPayout } from '../../store/payouts/payouts.js';
import { findAccount, getCurrency } from '../../store/reference/referenceData.js';
import { requireActiveBeneficiaries } from '../beneficiaries/beneficiaries.js';
import type { UseCaseDeps } from '../deps.js';
import { payoutChanged } from '../webhooks/events.js';
import { lockedPayoutFigures } from '../fees/estimatePayoutFees.js';
import { type Principal, requireCustomer } from '../access/principal.js';
import { toPayout } from '../views/payout.js';

type Payout = components['schemas']['Payout'];

/**
 * Create a payout from a payout feeHash. The signature is checked against the body before any
 * database read (a forged, altered or expired hash costs nothing); then, in one transaction, the
 * estimate is consumed once, the funds are checked and debited, and the payout waits for the worker.
 */
export async function createPayout(
  deps: UseCaseDeps,
  caller: Principal,
  accountId: string,
  body: components['schemas']['CreatePayoutRequest'],
): Promise<Payout> {
  const customerId = requireCustomer(caller);
  const now = deps.clock();
  const estimateId = verifiedEstimateId(deps.config.feeHashSecret, accountId, body, now);

  return deps.db.transaction(async (tx) => {
    const account = await findAccount(tx, accountId);
    if (!account || account.customerId !== customerId) throw notFound(`Account ${accountId} not found`);
    await requireActiveBeneficiaries(tx, customerId, [body.beneficiaryId.toLowerCase()]);
    const estimate = await consumeEstimate(tx, estimateId, customerId, now);
    // The signature covers the figures, not whose estimate the id names: compare the stored one.
    assertPayoutMatchesEstimate(
      { accountId: estimate.accountId, currencyCode: estimate.currencyCode, beneficiaryId: estimate.beneficiaryId, amount: estimate.amount },
      { accountId: account.id, currencyCode: body.currency, beneficiaryId: body.beneficiaryId, amount: body.amount },
    );
    if (!estimate.isEstimateAvailable) {
      throw new DomainError('FEE_ESTIMATE_UNAVAILABLE', `No payout fee schedule covers ${estimate.currencyCode} for this account; no payout can be made`);
    }
    const accountCurrencyId = await getAccountCurrencyOf(tx, account.id, estimate.currencyCode);
    const { decimals } = await getCurrency(tx, estimate.currencyCode);
    const payoutId = randomUUID();
    const amount = (value: string) => formatAmount(new Money(value), decimals);
    await insertPayout(tx, {
      id: payoutId,
      customerId,
      accountId: account.id,
      accountCurrencyId,
      beneficiaryId: estimate.beneficiaryId,
      feeEstimateId: estimate.id,
      currencyCode: estimate.currencyCode,
      amount: amount(estimate.amount),
      fee: amount(estimate.fee),
      internalFee: amount(estimate.internalFee),
      totalFee: amount(estimate.totalFee),
      totalAmount: amount(estimate.totalAmount),
      at: now,
    });
    // available ≥ the total (amount and fees), then the total is held on the bank leg until the outcome.
    const debited = {
      accountCurrencyId,
      currency: estimate.currencyCode,
      amount: new Money(estimate.amount),
      fee: new Money(estimate.fee),
      internalFee: new Money(estimate.internalFee),
    };
    await debitWithin(tx, accountCurrencyId, new Money(estimate.totalAmount), singlePayoutDebited(debited, { payoutId }), now);
    await payoutChanged(tx, payoutId, now);
    return toPayout(await getPayoutRecord(tx, payoutId));
  });
}

/** The estimate id a payout feeHash names, once its signature is checked against the body (no database read). */
function verifiedEstimateId(secret: string, accountId: string, body: components['schemas']['CreatePayoutRequest'], now: Date): string {
  const figures = lockedPayoutFigures({
    accountId: accountId.toLowerCase(),
    beneficiaryId: body.beneficiaryId.toLowerCase(),
    currency: body.currency,
    amount: new Money(body.amount),
  });
  const check = verifyPayoutFeeHash(secret, body.feeHash, figures, now);
  if (!check.ok && check.reason === 'EXPIRED') throw new DomainError('FEE_HASH_EXPIRED', 'The feeHash has expired; estimate again');
  if (!check.ok) throw new DomainError('FEE_HASH_MISMATCH', 'The feeHash does not match this payout');
  return check.estimateId;
}

/** Consumes the stored payout estimate once: missing, already used and expired each have their error. */
async function consumeEstimate(tx: Queryable, estimateId: string, customerId: string, now: Date) {
  const consumed = await consumePayoutFeeEstimate(tx, estimateId, customerId, now);
  if (consumed.ok) return consumed.estimate;
  if (consumed.reason === 'NOT_FOUND') throw notFound('feeHash not found');
  if (consumed.reason === 'ALREADY_USED') throw new DomainError('FEE_HASH_ALREADY_USED', 'This feeHash has already been used to create a payout');
  throw new DomainError('FEE_HASH_EXPIRED', 'The feeHash has expired; estimate again');
}

/** Read one payout of the caller's account; another customer's reads as missing. */
export async function getPayout(deps: UseCaseDeps, caller: Principal, accountId: string, payoutId: string): Promise<Payout> {
  const customerId = requireCustomer(caller);
  return deps.db.transaction(async (tx: Queryable) => {
    const payout = await findPayout(tx, payoutId);
    if (!payout || payout.customerId !== customerId || payout.accountId !== accountId.toLowerCase()) throw notFound(`Payout ${payoutId} not found`);
    return toPayout(payout);
  });
}
