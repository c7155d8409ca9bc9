import { describe, expect, it } from 'vitest';
import { DomainError, bodyField, fieldNamed, validationProblems } from '../../../src/domain/errors.js';
import { Money } from '../../../src/domain/money/money.js';
import { AcceptShortfallError } from '../../../src/domain/payroll/settlement.js';
import { errorResponse } from '../../../src/http/pipeline/envelope.js';

describe('errorResponse: a domain error as it is answered', () => {
  it("takes its code's status and says code, message, reason, field, entryIndex and details, nothing else", () => {
    const error = new DomainError('VALIDATION_ERROR', 'amountSplitDetails[2].amount must be greater than zero', {
      reason: 'AMOUNT_NOT_POSITIVE',
      field: '/amountSplitDetails/2/amount',
      entryIndex: 2,
    });
    expect(errorResponse(error)).toEqual({
      status: 400,
      body: {
        success: false,
        error: { code: 'VALIDATION_ERROR', message: error.message, reason: 'AMOUNT_NOT_POSITIVE', field: '/amountSplitDetails/2/amount', entryIndex: 2 },
      },
    });
    const details = [{ row: 2, message: 'a' }];
    expect(errorResponse(new DomainError('VALIDATION_ERROR', 'two problems', { details })).body.error.details).toEqual(details);
    const gone = new DomainError('NOT_FOUND', 'gone');
    expect(errorResponse(gone).body.error).toEqual({ code: 'NOT_FOUND', message: gone.message });
  });

  it('says where several problems are as where one is: the place of the first on the error', () => {
    const error = validationProblems('The request body', [
      { field: '/amountSplitDetails/0/amount', entryIndex: 0, message: 'amountSplitDetails[0].amount must be greater than zero' },
      { field: '/amountSplitDetails/3/amount', entryIndex: 3, message: 'amountSplitDetails[3].amount must be greater than zero' },
    ]);
    expect(errorResponse(error).body.error).toMatchObject({ field: '/amountSplitDetails/0/amount', entryIndex: 0 });
  });

  it('answers a variant with its own status: INSUFFICIENT_FUNDS is 400 at creation, 409 at accept', () => {
    expect(errorResponse(new DomainError('INSUFFICIENT_FUNDS', 'short')).status).toBe(400);
    expect(errorResponse(new AcceptShortfallError(new Money('1.13'), 'short by 1.13 USD')).status).toBe(409);
  });
});

describe('ErrorField: one convention for where a problem is', () => {
  it('writes a field of the body as a JSON Pointer and a parameter as its name', () => {
    expect(bodyField('amountSplitDetails', 3, 'amount')).toBe('/amountSplitDetails/3/amount');
    expect(bodyField('a/b', 'c~d')).toBe('/a~1b/c~0d');
    expect(fieldNamed('body.amountSplitDetails[3].amount')).toBe('/amountSplitDetails/3/amount');
    expect(fieldNamed('amountSplitDetails[3].amount')).toBe('/amountSplitDetails/3/amount');
    expect(fieldNamed('body.exchangeRate')).toBe('/exchangeRate');
    expect(fieldNamed('query.limit')).toBe('limit');
    expect(fieldNamed('path.requestId')).toBe('requestId');
    expect(fieldNamed('header.Idempotency-Key')).toBe('Idempotency-Key');
  });
});
