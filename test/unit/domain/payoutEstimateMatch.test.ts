import { describe, expect, it } from 'vitest';
import { DomainError } from '../../../src/domain/errors.js';
import { type PayoutTarget, assertPayoutMatchesEstimate } from '../../../src/domain/fees/payoutEstimateMatch.js';

const STORED: PayoutTarget = { accountId: 'A-1', currencyCode: 'USD', beneficiaryId: 'B-1', amount: '1500.00' };

describe('createPayout compares the stored estimate with the request', () => {
  it('accepts the same payout (ids in any case, amounts as exact decimals)', () => {
    expect(() => assertPayoutMatchesEstimate(STORED, { accountId: 'a-1', currencyCode: 'USD', beneficiaryId: 'b-1', amount: '1500' })).not.toThrow();
  });

  it.each([
    ['another account', { accountId: 'A-2' }],
    ['another currency', { currencyCode: 'USDC' }],
    ['another beneficiary', { beneficiaryId: 'B-2' }],
    ['another amount', { amount: '1500.01' }],
  ])('refuses %s with 400 FEE_HASH_MISMATCH', (_what, change) => {
    try {
      assertPayoutMatchesEstimate(STORED, { ...STORED, ...change });
      throw new Error('expected FEE_HASH_MISMATCH');
    } catch (error) {
      expect(error).toBeInstanceOf(DomainError);
      expect((error as DomainError).code).toBe('FEE_HASH_MISMATCH');
    }
  });
});
