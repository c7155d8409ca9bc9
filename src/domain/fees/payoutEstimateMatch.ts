import { DomainError } from '../errors.js';
import { Money } from '../money/money.js';

/** What a payout estimate was made for, as stored and as the create request asks. */
export interface PayoutTarget {
  accountId: string;
  currencyCode: string;
  beneficiaryId: string;
  /** A decimal string; compared exactly ("1500" equals "1500.00"). */
  amount: string;
}

/**
 * createPayout never trusts the feeHash's signature alone: the stored estimate it
 * names must have been made for this account, currency, beneficiary and amount, else 400
 * FEE_HASH_MISMATCH — never a 500 further down.
 */
export function assertPayoutMatchesEstimate(stored: PayoutTarget, requested: PayoutTarget): void {
  const same =
    stored.accountId.toLowerCase() === requested.accountId.toLowerCase() &&
    stored.currencyCode === requested.currencyCode &&
    stored.beneficiaryId.toLowerCase() === requested.beneficiaryId.toLowerCase() &&
    new Money(stored.amount).equals(requested.amount);
  if (!same) throw new DomainError('FEE_HASH_MISMATCH', 'The estimate of this feeHash was made for another account, currency, beneficiary or amount');
}
