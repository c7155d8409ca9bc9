import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Money } from '../../src/domain/money/money.js';
import type { ExecutionDeps } from '../../src/usecases/payroll/execution.js';
import { ids } from '../fixtures/world.js';
import { balancesOf, expectBooksBalanced } from '../support/balances.js';
import { addBeneficiary, closedAccountBeneficiary } from '../support/builders.js';
import { type PayrollAccounts, type PayrollEntry, accept, estimateAndCreate, quote, readRequest, recordFx, usdToAed } from '../support/payroll.js';
import { type TestServer, anyQuoteConfig, startTestServer } from '../support/server.js';
import { drain, workerFor } from '../support/worker.js';

/**
 * Settlement that keeps every promise, through the typed client with response
 * validation on: the honoured quote and its adjustment at accept, payouts equal to the quoted
 * amounts whatever the FX record, the FX result, a failed payout credited back, a same-currency
 * payroll. The figures are the spec's worked examples (PayrollQuoteFigures, recordFxExchange).
 */

let server: TestServer;
let worker: ExecutionDeps;
beforeAll(async () => {
  server = await startTestServer({ config: anyQuoteConfig });
  worker = workerFor(server);
});
afterAll(() => server.close());
// Every balance equals its postings and every currency's postings sum to zero, after every scenario.
afterEach(async () => expectBooksBalanced(server.db));

/** The lifecycle steps of test/support/payroll.ts on this file's server; `create` asserts its 201. */
const flow = {
  async create(userId: string, accounts: PayrollAccounts, entries: PayrollEntry[]) {
    const { estimate, created } = await estimateAndCreate(server.as(userId), entries, { accounts });
    expect(created.response.status).toBe(201);
    return { estimate, request: created.data!.data };
  },
  quote: (requestId: string, exchangeRate: string) => quote(server, requestId, exchangeRate),
  accept: (requestId: string, userId?: string) => accept(server, requestId, userId),
  recordFx: (requestId: string, exchangeRate: string) => recordFx(server, requestId, exchangeRate),
  read: (requestId: string, userId?: string) => readRequest(server, requestId, userId),
  /** An account currency's balance (its available equal to it, as no hold exists). */
  async balance(accountCurrencyId: string): Promise<Money> {
    const { balance, available } = await balancesOf(server.db, accountCurrencyId);
    expect(available.equals(balance)).toBe(true);
    return balance;
  },
};

/** The spec's example: 1000.00 USD (SOURCE) and 2000.00 AED (PAYROLL) at 3.6541375, debited 1547.33 + 13.03 = 1560.36 USD. */
const specEntries = (sourceBeneficiary: string, payrollBeneficiary: string): PayrollEntry[] => [
  { beneficiaryId: sourceBeneficiary, amount: '1000.00', purposeCode: 'SAL' as const },
  { beneficiaryId: payrollBeneficiary, amount: '2000.00', amountCurrencyType: 'PAYROLL' as const, purposeCode: 'SAL' as const },
];

describe('the honoured quote (POST …/quote, …/accept)', () => {
  it('a better quote refunds the excess at accept; FX recorded below it changes no payout; a failed payout is credited back', async () => {
    const closed = await addBeneficiary(server.as(ids.userA), closedAccountBeneficiary());
    const before = await flow.balance(ids.acAUsd);
    const { estimate, request } = await flow.create(ids.userA, usdToAed, specEntries(ids.beneficiaryA1, closed));
    expect(estimate).toMatchObject({ totalAmount: '1560.36', sourceCurrencyAmount: '1547.33', feeAmount: '13.03' });
    expect(request).toMatchObject({ totalAmount: '1560.36', quote: null, returnedAmount: '0.00' });

    // 1000.00 × 3.67 = 3670.00 AED; 2000 ÷ 3.67 = 544.9591… → 544.96 USD.
    const quoted = (await flow.quote(request.id, '3.6700')).data!.data;
    expect(quoted.quote).toEqual({
      exchangeRate: '3.67',
      sourceAmountForExchange: '1544.96',
      feeAmount: '13.03',
      totalAmount: '1557.99',
      receivedAmount: '5670.00',
      debitedAmount: '1560.36',
      adjustmentAmount: '-2.37',
    });
    expect(quoted.amountSplitDetails.map((split) => [split.amountCurrencyType, split.quotedSourceCurrencyAmount, split.quotedAmount])).toEqual([
      ['SOURCE', '1000.00', '3670.00'],
      ['PAYROLL', '544.96', '2000.00'],
    ]);
    const accepted = (await flow.accept(request.id)).data!.data;
    expect(accepted).toMatchObject({ status: 'QUOTE_ACCEPTED', totalAmount: '1557.99', sourceAmountForExchange: '1544.96' });
    expect((await flow.balance(ids.acAUsd)).equals(before.minus('1557.99'))).toBe(true); // 1560.36 debited, 2.37 refunded

    await drain(worker);
    // The FX record is bounded by FX_RECORD_TOLERANCE_BPS (500) around 3.67: 3.4865 to 3.8535.
    for (const typo of ['36700', '0.0001', '3.48']) {
      const refused = await flow.recordFx(request.id, typo);
      expect(refused.response.status).toBe(400);
      expect(refused.error!.error).toMatchObject({ code: 'VALIDATION_ERROR', reason: 'FX_RECORD_OUT_OF_TOLERANCE', field: '/exchangeRate' });
    }
    // Recorded at 3.665: toAmount 1544.96 × 3.665 = 5662.2784 → 5662.27; the payouts stay 3670.00 and 2000.00.
    const paying = (await flow.recordFx(request.id, '3.665')).data!.data;
    expect(paying.fxExchange).toMatchObject({ fromAmount: '1544.96', toAmount: '5662.27', payoutAmount: '5670.00', fxResultAmount: '-7.73' });
    expect(paying.transfers.filter((t) => t.transferType === 'BANK_TO_BENEFICIARY').map((t) => t.amount)).toEqual(['3670.00', '2000.00']);

    await drain(worker);
    const done = await flow.read(request.id);
    expect(done.status).toBe('PARTIALLY_COMPLETED');
    // The PAYROLL split's payout bounced: its 544.96 USD at the accepted quote returns; fees do not.
    expect(done.amountSplitDetails.map((split) => split.returnedSourceCurrencyAmount)).toEqual([null, '544.96']);
    expect(done.returnedAmount).toBe('544.96');
    expect((await flow.balance(ids.acAUsd)).equals(before.minus('1557.99').plus('544.96'))).toBe(true);
  });

  it('a worse quote is topped up at accept, and the payouts pay exactly the quoted amounts', async () => {
    const before = await flow.balance(ids.acAUsd);
    const { request } = await flow.create(ids.userA, usdToAed, specEntries(ids.beneficiaryA4, ids.beneficiaryA5));
    // 1000.00 × 3.64 = 3640.00 AED; 2000 ÷ 3.64 = 549.4505… → 549.46 USD; 1549.46 + 13.03 = 1562.49.
    const quoted = (await flow.quote(request.id, '3.6400')).data!.data;
    expect(quoted.quote).toMatchObject({ sourceAmountForExchange: '1549.46', totalAmount: '1562.49', receivedAmount: '5640.00', adjustmentAmount: '2.13' });
    expect((await flow.accept(request.id)).data!.data).toMatchObject({ status: 'QUOTE_ACCEPTED', totalAmount: '1562.49' });
    expect((await flow.balance(ids.acAUsd)).equals(before.minus('1562.49'))).toBe(true);
    await drain(worker);
    // Recorded above the quote: 1549.46 × 3.675 = 5694.2655 → 5694.26, a gain of 54.26 for the platform.
    const paying = (await flow.recordFx(request.id, '3.675')).data!.data;
    expect(paying.fxExchange).toMatchObject({ toAmount: '5694.26', payoutAmount: '5640.00', fxResultAmount: '54.26' });
    await drain(worker);
    const done = await flow.read(request.id);
    expect(done.status).toBe('COMPLETED');
    for (const split of done.amountSplitDetails) {
      expect(done.transfers.find((t) => t.id === split.payoutTransferId)).toMatchObject({ status: 'COMPLETED', amount: split.quotedAmount });
    }
  });

  it('409 INSUFFICIENT_FUNDS at accept names the shortfall; the request stays QUOTE_PROVIDED and nothing moves', async () => {
    const accounts = { sourceAccountCurrencyId: ids.acBUsd, payrollAccountCurrencyId: ids.acPartnerAed };
    // B (no fee profile, eff 3.6725): 3000 ÷ 3.6725 = 816.88… → 816.89, fees 2.00 + 1.37: 820.26 of 946.63 debited.
    const { request } = await flow.create(ids.userB, accounts, [
      { beneficiaryId: ids.beneficiaryB2, amount: '3000.00', amountCurrencyType: 'PAYROLL', purposeCode: 'SAL' },
    ]);
    expect(request.totalAmount).toBe('820.26');
    // Quoted at 3.00: 3000 ÷ 3 = 1000.00, total 1003.37, a top-up of 183.11 against 126.37 available.
    expect((await flow.quote(request.id, '3.00')).data!.data.quote).toMatchObject({ totalAmount: '1003.37', adjustmentAmount: '183.11' });
    const before = await flow.balance(ids.acBUsd);
    const refused = await flow.accept(request.id, ids.userB);
    expect(refused.response.status).toBe(409);
    expect(refused.error!.error).toEqual({ code: 'INSUFFICIENT_FUNDS', message: expect.any(String) });
    const after = await flow.read(request.id, ids.userB);
    expect(after).toMatchObject({ status: 'QUOTE_PROVIDED', acceptedByCustomerAt: null, totalAmount: '820.26' });
    expect((await flow.balance(ids.acBUsd)).equals(before)).toBe(true);
    const [entries] = await server.db.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM journal_entries WHERE payroll_request_id = $1 AND kind <> 'PAYROLL_CREATED'",
      [request.id],
    );
    expect(entries!.n).toBe(0);
  });
});

describe('same-currency payroll (AED → AED)', () => {
  it('rate 1, no spread and no rate lookup; the quote and the FX record must be 1; payouts equal the amounts', async () => {
    const accounts = { sourceAccountCurrencyId: ids.acAAed, payrollAccountCurrencyId: ids.acPartnerAed };
    const before = await flow.balance(ids.acAAed);
    const { estimate, request } = await flow.create(ids.userA, accounts, [
      { beneficiaryId: ids.beneficiaryA1, amount: '1000.00', purposeCode: 'SAL' },
      { beneficiaryId: ids.beneficiaryA2, amount: '500.00', amountCurrencyType: 'PAYROLL', purposeCode: 'SAL' },
    ]);
    // No spread although A has 50 BIPS; no processor schedule for BANK_AE; bank fee 2 × 5.00 AED ÷ 1.
    expect(estimate.feeBreakdown).toEqual({
      sourceCurrencyAmount: '1500.00',
      spreadFee: '0.00',
      processorFee: '0.00',
      bankFee: '10.00',
      totalFee: '10.00',
      estimatedReceivedAmount: '1500.00',
      payrollCurrencyCode: 'AED',
      feeCurrencyCode: 'AED',
      exchangeRate: '1',
      baseRate: '1',
      rateSource: 'SAME_CURRENCY',
      rateAsOf: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/),
    });
    expect(estimate.lines.map((line) => [line.sourceCurrencyAmount, line.amount])).toEqual([
      ['1000.00', '1000.00'],
      ['500.00', '500.00'],
    ]);
    expect(estimate.totalAmount).toBe('1510.00');
    const notOne = await flow.quote(request.id, '1.01');
    expect(notOne.response.status).toBe(400);
    expect(notOne.error!.error).toMatchObject({ code: 'VALIDATION_ERROR', reason: 'RATE_NOT_ONE', field: '/exchangeRate' });
    expect((await flow.quote(request.id, '1')).data!.data.quote).toMatchObject({ totalAmount: '1510.00', adjustmentAmount: '0.00' });
    await flow.accept(request.id);
    await drain(worker);
    expect((await flow.recordFx(request.id, '1.0001')).response.status).toBe(400);
    expect((await flow.recordFx(request.id, '1')).data!.data.fxExchange).toMatchObject({
      toAmount: '1500.00',
      payoutAmount: '1500.00',
      fxResultAmount: '0.00',
    });
    await drain(worker);
    const done = await flow.read(request.id);
    expect(done.status).toBe('COMPLETED');
    expect(done.transfers.filter((t) => t.transferType === 'BANK_TO_BENEFICIARY').map((t) => t.amount)).toEqual(['1000.00', '500.00']);
    expect((await flow.balance(ids.acAAed)).equals(before.minus('1510.00'))).toBe(true);
  });
});
