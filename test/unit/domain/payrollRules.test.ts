import { describe, expect, it } from 'vitest';
import { DomainError } from '../../../src/domain/errors.js';
import { thrownBy } from '../../support/errors.js';
import { assertFundsCover } from '../../../src/domain/ledger/ledger.js';
import { Money } from '../../../src/domain/money/money.js';
import { assertTransition, statusAfterPayouts } from '../../../src/domain/payroll/payrollStatus.js';

const id = '7b1e0007-0000-4000-8000-000000000001';

describe('payroll request transitions', () => {
  it('allows each action only from the statuses of the spec', () => {
    const refused = expect.objectContaining({ code: 'INVALID_STATE', reason: 'TRANSITION_NOT_ALLOWED' });
    expect(() => assertTransition(id, 'PENDING', 'quote')).not.toThrow();
    expect(() => assertTransition(id, 'QUOTE_PROVIDED', 'quote')).not.toThrow();
    expect(() => assertTransition(id, 'QUOTE_PROVIDED', 'accept')).not.toThrow();
    expect(() => assertTransition(id, 'EXECUTING', 'recordFxExchange')).not.toThrow();
    expect(() => assertTransition(id, 'QUOTE_ACCEPTED', 'cancel')).toThrow(refused);
    // Four-eyes approval: approve and reject only from AWAITING_APPROVAL, which allows nothing else but cancel.
    expect(() => assertTransition(id, 'AWAITING_APPROVAL', 'approve')).not.toThrow();
    expect(() => assertTransition(id, 'AWAITING_APPROVAL', 'reject')).not.toThrow();
    expect(() => assertTransition(id, 'AWAITING_APPROVAL', 'cancel')).not.toThrow();
    expect(() => assertTransition(id, 'AWAITING_APPROVAL', 'quote')).toThrow(refused);
    expect(() => assertTransition(id, 'AWAITING_APPROVAL', 'startExecution')).toThrow(refused);
    expect(() => assertTransition(id, 'PENDING', 'approve')).toThrow(refused);
    expect(() => assertTransition(id, 'COMPLETED', 'fail')).toThrow(refused);
    expect(() => assertTransition(id, 'PENDING', 'accept')).toThrow(refused);
  });

  it('ends COMPLETED when every payout paid, PARTIALLY_COMPLETED when some did, FAILED when none did', () => {
    expect(statusAfterPayouts(['COMPLETED', 'COMPLETED'])).toBe('COMPLETED');
    expect(statusAfterPayouts(['COMPLETED', 'FAILED'])).toBe('PARTIALLY_COMPLETED');
    expect(statusAfterPayouts(['FAILED', 'FAILED'])).toBe('FAILED');
  });
});

describe('ledger: a debit never takes available below zero', () => {
  const account = { available: new Money('946.63852961'), currencyCode: 'USD', decimals: 2 };

  it('passes when available covers the amount, to the last digit', () => {
    expect(() => assertFundsCover(account, new Money('946.63852961'))).not.toThrow();
  });

  it('refuses a debit beyond available with INSUFFICIENT_FUNDS', () => {
    const error = thrownBy(() => assertFundsCover(account, new Money('2000')));
    expect(error).toBeInstanceOf(DomainError);
    expect(error).toMatchObject({ code: 'INSUFFICIENT_FUNDS' });
  });
});
