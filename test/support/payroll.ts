/**
 * The payroll two-step of the interface document (estimate, then create from the feeHash) and the
 * lifecycle steps after it, through the typed client: bodies and answers are the generated types,
 * so a spec change breaks these helpers where it breaks a real client.
 */
import { expect } from 'vitest';
import type { PayrollClient, components } from '../../packages/client/src/index.js';
import { ids } from '../fixtures/world.js';
import type { TestServer } from './server.js';

type Schemas = components['schemas'];
export type PayrollRequest = Schemas['PayrollRequest'];
export type PayrollFeeEstimate = Schemas['PayrollFeeEstimate'];
export type EstimatePayrollFeeRequest = Schemas['EstimatePayrollFeeRequest'];
export type CreatePayrollRequestRequest = Schemas['CreatePayrollRequestRequest'];

/** A payroll line as the tests write it: an estimate entry, with a purpose code for the create (SAL when absent). */
export type PayrollEntry = Schemas['EstimateAmountSplitEntry'] & { purposeCode?: Schemas['PurposeCode'] };
export type PayrollAccounts = Pick<EstimatePayrollFeeRequest, 'sourceAccountCurrencyId' | 'payrollAccountCurrencyId'>;

/** `approval` of a request that needed none (its customer had not opted in to four-eyes approval). */
export const noApproval: PayrollRequest['approval'] = {
  required: false,
  approvers: [],
  createdByUserId: null,
  approvedByUserId: null,
  approvedAt: null,
  rejectedByUserId: null,
  rejectedAt: null,
  rejectionReason: null,
};

/** Customer A's USD account currency paying into the partner bank's AED account: the usual pair. */
export const usdToAed: PayrollAccounts = { sourceAccountCurrencyId: ids.acAUsd, payrollAccountCurrencyId: ids.acPartnerAed };

/** The two bodies of the two-step: the estimate's (no purpose codes) and the create's for its feeHash. */
export function payrollBodies(
  entries: PayrollEntry[],
  accounts: Partial<PayrollAccounts> = {},
): { estimate: EstimatePayrollFeeRequest; create: (feeHash: string) => CreatePayrollRequestRequest } {
  const pair = { ...usdToAed, ...accounts };
  return {
    estimate: { ...pair, amountSplitDetails: entries.map(({ purposeCode: _purpose, ...entry }) => entry) },
    create: (feeHash) => ({
      ...pair,
      feeHash,
      amountSplitDetails: entries.map(({ purposeCode, ...entry }) => ({ ...entry, purposeCode: purposeCode ?? 'SAL' })),
    }),
  };
}

/**
 * Estimate (which must succeed), then create from its feeHash. Returns the estimate and the
 * create's whole answer, so that a test can check a refusal too.
 */
export async function estimateAndCreate(
  client: PayrollClient,
  entries: PayrollEntry[],
  options: { accounts?: Partial<PayrollAccounts>; idempotencyKey?: string } = {},
) {
  const bodies = payrollBodies(entries, options.accounts);
  const estimated = await client.POST('/v1/customers/payroll/estimate', { body: bodies.estimate });
  expect(estimated.response.status, JSON.stringify(estimated.error)).toBe(200);
  const estimate: PayrollFeeEstimate = estimated.data!.data;
  const created = await client.POST('/v1/customers/payroll/requests', {
    body: bodies.create(estimate.feeHash),
    ...(options.idempotencyKey && { idempotencyKey: options.idempotencyKey }),
  });
  return { estimate, created, feeHash: estimate.feeHash };
}

/** The admin's quote, valid for `validForSeconds` from the server's clock. */
export const quote = (server: TestServer, requestId: string, exchangeRate = '3.6530', validForSeconds = 3600) =>
  server.as(ids.admin).POST('/v1/admin/payroll/requests/{requestId}/quote', {
    params: { path: { requestId } },
    body: { exchangeRate, expiresAt: new Date(server.clock.now().getTime() + validForSeconds * 1000).toISOString() },
  });

export const accept = (server: TestServer, requestId: string, userId: string = ids.userA) =>
  server.as(userId).POST('/v1/customers/payroll/requests/{requestId}/accept', { params: { path: { requestId } } });

export const cancel = (server: TestServer, requestId: string, reason = 'Payroll run postponed', userId: string = ids.userA) =>
  server.as(userId).POST('/v1/customers/payroll/requests/{requestId}/cancel', { params: { path: { requestId } }, body: { reason } });

/** The admin records the exchange actually made: the payouts are created. */
export const recordFx = (server: TestServer, requestId: string, exchangeRate = '3.6520') =>
  server.as(ids.admin).POST('/v1/admin/payroll/requests/{requestId}/fx-exchange', { params: { path: { requestId } }, body: { exchangeRate } });

export async function readRequest(server: TestServer, requestId: string, userId: string = ids.userA): Promise<PayrollRequest> {
  const { data, response } = await server.as(userId).GET('/v1/customers/payroll/requests/{requestId}', { params: { path: { requestId } } });
  if (!data) throw new Error(`GET payroll request ${requestId}: ${response.status}`);
  return data.data;
}
