// The console's one map of status → actions, held to the domain's transition table: it offers no
// move the service refuses, and leaves out no move of a person the service takes.
import { describe, expect, it } from 'vitest';
import { type PayrollAction, type PayrollRequestStatus, assertTransition } from '../../../src/domain/payroll/payrollStatus.js';
import { ACTIONS_FROM, type Actor, type RequestAction, actionsFor } from '../../../console/src/requestActions.js';

const STATUSES = Object.keys(ACTIONS_FROM) as PayrollRequestStatus[];
const PEOPLE: readonly RequestAction[] = ['approve', 'reject', 'quote', 'accept', 'cancel', 'recordFxExchange', 'fail'];

function domainAllows(status: PayrollRequestStatus, action: PayrollAction): boolean {
  try {
    assertTransition('request', status, action);
    return true;
  } catch {
    return false;
  }
}

const DANA: Actor = { userId: 'dana', role: 'customer' };
const RANIA: Actor = { userId: 'rania', role: 'customer' };
const OMAR: Actor = { userId: 'omar', role: 'admin' };
const approval = { createdByUserId: 'dana', approvers: [{ id: 'rania', firstName: 'Rania', lastName: 'Saleh', email: 'rania@example.com' }] };
const request = (status: PayrollRequestStatus) => ({ status, approval: { ...approval } }) as Parameters<typeof actionsFor>[0];

describe('the console’s actions of a payroll request', () => {
  it('offers no action the domain refuses from the status', () => {
    for (const status of STATUSES) for (const action of ACTIONS_FROM[status]) expect(domainAllows(status, action), `${action} from ${status}`).toBe(true);
  });

  it('offers every move of a person the domain allows, but failing once the payouts have started (the fail use case takes EXECUTING only)', () => {
    for (const status of STATUSES) {
      for (const action of PEOPLE) {
        const offered = ACTIONS_FROM[status].includes(action);
        const expected = domainAllows(status, action) && !(action === 'fail' && status === 'PAYOUT_INITIATED');
        expect(offered, `${action} from ${status}`).toBe(expected);
      }
    }
  });

  it('lets the request say who acts: its approvers approve, its creator withdraws, the admin quotes and fails', () => {
    expect(actionsFor(request('AWAITING_APPROVAL'), DANA)).toEqual(['cancel']);
    expect(actionsFor(request('AWAITING_APPROVAL'), RANIA)).toEqual(['approve', 'reject']);
    expect(actionsFor(request('AWAITING_APPROVAL'), OMAR)).toEqual([]);
    expect(actionsFor(request('QUOTE_PROVIDED'), DANA)).toEqual(['accept', 'cancel']);
    expect(actionsFor(request('QUOTE_PROVIDED'), OMAR)).toEqual(['quote']);
    expect(actionsFor(request('EXECUTING'), OMAR)).toEqual(['recordFxExchange', 'fail']);
    expect(actionsFor(request('EXECUTING'), DANA)).toEqual([]);
    expect(actionsFor(request('COMPLETED'), OMAR)).toEqual([]);
  });
});
