import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { components } from '../../generated/api.js';
import { beneficiaryA1Snapshot, ids } from '../fixtures/world.js';
import { updateBeneficiary, worldWith } from '../support/builders.js';
import { type TestServer, serveApp, startTestServer, testConfig } from '../support/server.js';
import { noApproval } from '../support/payroll.js';

let server: TestServer;
beforeAll(async () => (server = await startTestServer()));
afterAll(() => server.close());

type PayrollRequest = components['schemas']['PayrollRequest'];

describe('GET /v1/customers/payroll/requests/{requestId}', () => {
  it('200 with every field of the request, its splits, transfers, FX record and fee breakdown', async () => {
    const { data, error, response } = await server.as(ids.userA).GET('/v1/customers/payroll/requests/{requestId}', {
      params: { path: { requestId: ids.requestACompleted } },
    });
    expect(error).toBeUndefined();
    expect(response.status).toBe(200);
    expect(data?.success).toBe(true);
    const request = data!.data as PayrollRequest;
    expect(Object.keys(request).sort()).toEqual(
      [
        'id',
        'sourceAccountCurrencyId',
        'sourceAccountCurrency',
        'payrollAccountCurrencyId',
        'payrollAccountCurrency',
        'totalAmount',
        'status',
        'estimatedFxRate',
        'estimatedReceivedAmount',
        'sourceAmountForExchange',
        'quotedFxRate',
        'quoteExpiresAt',
        'quotedByUserId',
        'quotedByUser',
        'quotedAt',
        'acceptedByCustomerAt',
        'cancellationReason',
        'failureReason',
        'metadata',
        'amountSplitDetails',
        'transfers',
        'fxExchange',
        'customer',
        'createdAt',
        'updatedAt',
        // The figures at the quote and what failed payouts credited back.
        'quote',
        'returnedAmount',
        // Four-eyes approval.
        'approval',
      ].sort(),
    );
    // A world request of a customer who did not opt in: no approval, and none recorded.
    expect(request.approval).toEqual(noApproval);
    expect(request).toMatchObject({
      id: ids.requestACompleted,
      status: 'COMPLETED',
      totalAmount: '3524.74',
      estimatedFxRate: '3.6541375',
      estimatedReceivedAmount: '12789.47',
      sourceAmountForExchange: '3500.00',
      quotedFxRate: '3.6520',
      quotedByUserId: ids.admin,
      quotedByUser: { id: ids.admin, firstName: 'Olivia', lastName: 'Ops', email: 'olivia.ops@platform.example' },
      quoteExpiresAt: '2026-11-02T17:00:00.000Z',
      // Quoted at 3.6520: 1000.00 → 3652.00 and 2500.00 → 9130.00 AED; SOURCE entries only, so no adjustment.
      quote: {
        exchangeRate: '3.6520',
        sourceAmountForExchange: '3500.00',
        feeAmount: '24.74',
        totalAmount: '3524.74',
        receivedAmount: '12782.00',
        debitedAmount: '3524.74',
        adjustmentAmount: '0.00',
      },
      returnedAmount: '0.00',
      cancellationReason: null,
      failureReason: null,
      customer: { id: ids.customerA, firstName: 'Alice', lastName: 'Anders', company: { legalName: 'Alpha Trading LLC' } },
      sourceAccountCurrency: {
        id: ids.acAUsd,
        accountId: ids.accountAUsd,
        currency: { id: ids.currencyUsd, currencyCode: 'USD', currencyName: 'US Dollar', currencySymbol: '$', decimals: 2 },
        account: { id: ids.accountAUsd, accountProvider: 'FIREBLOCKS', customerId: ids.customerA },
      },
      payrollAccountCurrency: {
        id: ids.acPartnerAed,
        currency: { currencyCode: 'AED', currencyName: 'UAE Dirham', decimals: 2 },
        account: { accountProvider: 'PAYROLL_PARTNER_BANK' },
      },
      metadata: {
        feeBreakdown: {
          sourceCurrencyAmount: '3500.00',
          totalFee: '24.74',
          exchangeRate: '3.6541375',
          baseRate: '3.6725',
          feeCurrencyCode: 'USD',
          payrollCurrencyCode: 'AED',
        },
      },
      fxExchange: {
        id: ids.fxExchangeA,
        fromAmount: '3500.00',
        toAmount: '12782.00',
        exchangeRate: '3.6520',
        payoutAmount: '12782.00',
        fxResultAmount: '0.00',
        recordedByUser: { id: ids.admin },
      },
    });
    expect(
      request.amountSplitDetails.map((split) => [
        split.amountCurrencyType,
        split.quotedSourceCurrencyAmount,
        split.quotedAmount,
        split.returnedSourceCurrencyAmount,
      ]),
    ).toEqual([
      ['SOURCE', '1000.00', '3652.00', null],
      ['SOURCE', '2500.00', '9130.00', null],
    ]);
    // The world's balance is reduced by the request's debit, and the ledger says so.
    expect(request.sourceAccountCurrency.balance).toBe('996475.26');
    expect(request.transfers.map((transfer) => transfer.transferType)).toEqual([
      'PROCESSOR_INTERNAL_DEBIT',
      'PROCESSOR_TO_BANK',
      'BANK_TO_BENEFICIARY',
      'BANK_TO_BENEFICIARY',
    ]);
    expect(request.transfers[0]).toMatchObject({ externalId: 'FB-TEST-DEBIT-1', feeDetails: { id: ids.feeDetailsADebit, amount: '4.50' } });
    expect(request.transfers[1]).not.toHaveProperty('payoutInstruction');
  });

  it('links every split to its payout transfer and back (rule 4), with immutable snapshots', async () => {
    const { data } = await server.as(ids.userA).GET('/v1/customers/payroll/requests/{requestId}', {
      params: { path: { requestId: ids.requestACompleted } },
    });
    const request = data!.data;
    for (const split of request.amountSplitDetails) {
      const payout = request.transfers.find((transfer) => transfer.id === split.payoutTransferId);
      expect(payout?.transferType).toBe('BANK_TO_BENEFICIARY');
      expect(payout?.payoutInstruction).toMatchObject({
        id: split.id,
        beneficiaryId: split.beneficiaryId,
        sourceCurrencyAmount: split.sourceCurrencyAmount,
        beneficiarySnapshot: { id: split.beneficiarySnapshot.id, displayName: split.beneficiarySnapshot.displayName },
      });
    }
    expect(request.amountSplitDetails[0]!.beneficiarySnapshot).toEqual(beneficiaryA1Snapshot);
    // A later change of the beneficiary does not reach the snapshot.
    await updateBeneficiary(server.as(ids.userA), ids.beneficiaryA1, { bankName: 'Changed Bank' });
    const again = await server.as(ids.userA).GET('/v1/customers/payroll/requests/{requestId}', { params: { path: { requestId: ids.requestACompleted } } });
    expect(again.data!.data.amountSplitDetails[0]!.beneficiarySnapshot.bankName).toBe('Emirates NBD');
  });

  it('a PENDING request has every quote-stage field null', async () => {
    const { data } = await server.as(ids.userB).GET('/v1/customers/payroll/requests/{requestId}', { params: { path: { requestId: ids.requestBPending } } });
    expect(data!.data).toMatchObject({
      status: 'PENDING',
      quoteExpiresAt: null,
      quotedByUserId: null,
      quotedByUser: null,
      quotedAt: null,
      acceptedByCustomerAt: null,
      quote: null,
      returnedAmount: '0.00',
      fxExchange: null,
      transfers: [],
    });
    expect(data!.data.amountSplitDetails[0]!.payoutTransferId).toBeNull();
  });

  it("404 for another customer's request, exactly as for a missing one", async () => {
    const foreign = await server.as(ids.userB).GET('/v1/customers/payroll/requests/{requestId}', { params: { path: { requestId: ids.requestACompleted } } });
    const missing = await server.as(ids.userB).GET('/v1/customers/payroll/requests/{requestId}', {
      params: { path: { requestId: '7b1e0000-0000-4000-8000-000000000000' } },
    });
    expect(foreign.response.status).toBe(404);
    expect(missing.response.status).toBe(404);
    // Another customer's request reads as one that does not exist: nothing tells them apart.
    expect(foreign.error).toEqual({ success: false, error: { code: 'NOT_FOUND', message: expect.any(String) } });
    expect(missing.error?.error.code).toBe('NOT_FOUND');
  });

  it('400 VALIDATION_ERROR for a non-UUID id, naming the parameter', async () => {
    const { error, response } = await server.as(ids.userA).GET('/v1/customers/payroll/requests/{requestId}', { params: { path: { requestId: 'not-a-uuid' } } });
    expect(response.status).toBe(400);
    expect(error).toEqual({ success: false, error: { code: 'VALIDATION_ERROR', message: expect.any(String), field: 'requestId' } });
  });

  it('with response validation off (production), the same answer, written in parts as it is read (chunked)', async () => {
    // Non-ASCII names make the UTF-8 byte count differ from the character count: customer A's legal name in the world file.
    const world = worldWith({ customers: { [ids.customerA]: { companyLegalName: 'Société Générale d’Émirats 😀' } } });
    const validating = await startTestServer({ world });
    // The same database served as production serves it: responses not validated.
    const production = await serveApp({ ...testConfig, validateResponses: false }, validating.db, { now: validating.clock.now });
    try {
      const path = `/v1/customers/payroll/requests/${ids.requestACompleted}`;
      const read = async (baseUrl: string) => {
        const response = await fetch(baseUrl + path, { headers: { authorization: `Bearer ${await validating.token(ids.userA)}` } });
        const bytes = Buffer.from(await response.arrayBuffer());
        expect(response.status).toBe(200);
        expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
        return JSON.parse(bytes.toString('utf8')) as { data: PayrollRequest };
      };
      const [validated, unvalidated] = [await read(validating.baseUrl), await read(production.url)];
      expect(unvalidated.data.customer.company.legalName).toBe('Société Générale d’Émirats 😀');
      expect(unvalidated.data.transfers.length).toBeGreaterThan(0);
      expect(unvalidated.data).toEqual(validated.data);
      const streamed = await fetch(production.url + path, { headers: { authorization: `Bearer ${await validating.token(ids.userA)}` } });
      expect(streamed.headers.get('transfer-encoding')).toBe('chunked');
      await streamed.arrayBuffer();
    } finally {
      await production.close();
      await validating.close();
    }
  });
});
