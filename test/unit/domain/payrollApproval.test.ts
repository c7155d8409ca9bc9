import { describe, expect, it } from 'vitest';
import { assertMayApprove, assertMayReject, assertMayWithdraw } from '../../../src/domain/payroll/payrollApproval.js';

const requestId = '7b1e0007-0000-4000-8000-000000000001';
const creator = '7b1e0003-0000-4000-8000-000000000001';
const approver = { userId: '7b1e0003-0000-4000-8000-000000000004', permissions: ['approver'] };
const clerk = { userId: '7b1e0003-0000-4000-8000-000000000005', permissions: [] };
const forbidden = (reason: string) => expect.objectContaining({ code: 'FORBIDDEN', reason });

describe('four-eyes approval rules', () => {
  it('an approver other than the creator approves; the creator is refused first, even as an approver, saying why', () => {
    expect(() => assertMayApprove(requestId, creator, approver)).not.toThrow();
    expect(() => assertMayApprove(requestId, creator, { userId: creator, permissions: ['approver'] })).toThrow(forbidden('SELF_APPROVAL'));
    expect(() => assertMayApprove(requestId, creator, clerk)).toThrow(forbidden('APPROVER_PERMISSION_REQUIRED'));
  });

  it('any approver rejects, the creator included; a user without the permission does not', () => {
    expect(() => assertMayReject({ userId: creator, permissions: ['approver'] })).not.toThrow();
    expect(() => assertMayReject(clerk)).toThrow(forbidden('APPROVER_PERMISSION_REQUIRED'));
  });

  it('only the creator withdraws a request awaiting approval', () => {
    expect(() => assertMayWithdraw(requestId, creator, creator)).not.toThrow();
    expect(() => assertMayWithdraw(requestId, creator, approver.userId)).toThrow(forbidden('CREATOR_ONLY'));
    expect(() => assertMayWithdraw(requestId, null, creator)).toThrow(forbidden('CREATOR_ONLY'));
  });
});
