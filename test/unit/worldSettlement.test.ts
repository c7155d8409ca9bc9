import { describe, expect, it } from 'vitest';
import type { World } from '../../src/world/types.js';
import { settleWorld } from '../../src/world/settlement.js';
import { WorldValidationError } from '../../src/world/validationError.js';
import { testWorld } from '../fixtures/world.js';
import { thrownBy } from '../support/errors.js';

/** The world's payroll requests settled by the API's rules: what the loader refuses before writing. */

/** The error settleWorld throws for `world` (the test fails when it throws none, or another). */
function refusal(world: World): WorldValidationError {
  const error = thrownBy(() => settleWorld(world));
  expect(error).toBeInstanceOf(WorldValidationError);
  return error as WorldValidationError;
}

describe('settleWorld', () => {
  it('settles the test world: the completed request’s quoted figures, its FX result and one journal entry per movement', () => {
    const { requests, journal } = settleWorld(testWorld);
    const completed = requests[0]!;
    expect(completed.quote!.splits.map((split) => split.quotedAmount.toFixed(2))).toEqual(['3652.00', '9130.00']);
    expect(completed.fx!.fxResultAmount.toFixed()).toBe('0');
    // 6 openings; COMPLETED: created, processor leg, bank leg, FX, 2 payouts; PENDING: created.
    expect(journal.map(({ entry }) => entry.kind)).toEqual([
      ...Array(6).fill('OPENING_BALANCE'),
      'PAYROLL_CREATED',
      'PROCESSOR_LEG_COMPLETED',
      'BANK_LEG_COMPLETED',
      'FX_CONVERSION',
      'PAYOUT_SENT',
      'PAYOUT_SENT',
      'PAYROLL_CREATED',
    ]);
  });

  it('refuses a figure beyond its currency’s minor units (an 8-place USD fee, as older rules wrote them)', () => {
    const world = structuredClone(testWorld);
    world.payrollRequests![1]!.feeBreakdown.bankFee = '1.36147039';
    expect(refusal(world).message).toBe('world.payrollRequests[1].feeBreakdown.bankFee: 1.36147039 has 8 decimal places; a figure in USD allows at most 2');
  });

  it('refuses a settled payout that does not pay its split’s quoted amount', () => {
    const world = structuredClone(testWorld);
    world.payrollRequests![0]!.transfers![2]!.amount = '3651.99';
    expect(refusal(world).message).toMatch(/^world\.payrollRequests\[0\]\.transfers\[2\]\.amount: must be the split's quoted amount 3652 /);
  });

  it('refuses an FX record without an accepted quote, and a quote rate out of bounds', () => {
    const noAccept = structuredClone(testWorld);
    delete noAccept.payrollRequests![0]!.acceptedByCustomerAt;
    expect(refusal(noAccept).path).toBe('world.payrollRequests[0].fxExchange');
    const typo = structuredClone(testWorld);
    typo.payrollRequests![0]!.quoteRate = '365200000';
    expect(refusal(typo).path).toBe('world.payrollRequests[0].quoteRate');
  });
});
