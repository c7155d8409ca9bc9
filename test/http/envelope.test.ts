import { describe, expect, it } from 'vitest';
import { DomainError } from '../../src/domain/errors.js';
import { Money } from '../../src/domain/money.js';
import { AcceptShortfallError } from '../../src/domain/settlement.js';
import { errorResponse } from '../../src/http/envelope.js';

describe('errorResponse: a domain error as it is answered', () => {
  it("takes its code's status and says only code, message and details", () => {
    const error = new DomainError('VALIDATION_ERROR', 'amountSplitDetails[2].amount must be greater than zero', {
      field: 'amountSplitDetails[2].amount',
      entryIndex: 2,
    });
    expect(errorResponse(error)).toEqual({
      status: 400,
      body: { success: false, error: { code: 'VALIDATION_ERROR', message: 'amountSplitDetails[2].amount must be greater than zero' } },
    });
    const withDetails = new DomainError('VALIDATION_ERROR', 'two problems', { details: [{ row: 2, message: 'a' }] });
    expect(errorResponse(withDetails).body.error.details).toEqual([{ row: 2, message: 'a' }]);
  });

  it('answers a variant with its own status: INSUFFICIENT_FUNDS is 400 at creation, 409 at accept', () => {
    expect(errorResponse(new DomainError('INSUFFICIENT_FUNDS', 'short')).status).toBe(400);
    expect(errorResponse(new AcceptShortfallError(new Money('1.13'), 'short by 1.13 USD')).status).toBe(409);
  });
});
