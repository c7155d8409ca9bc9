/**
 * The benchmark world: the shape of the test and demo worlds, sized for load. One customer with
 * 10,000 active beneficiaries, USD → AED, and two COMPLETED payroll requests of 50 and 1,000
 * splits (each split with its BANK_TO_BENEFICIARY transfer, plus the debit and bank-move transfers
 * and the FX record). The figures follow the fee rules closely enough to read sensibly; they only
 * have to pass the world validation: every USD figure at 2 places, and each payout pays exactly its
 * split's amount at the quote (docs/settlement.md).
 */
import { roundCharge, roundPayout } from '../src/domain/money/minorUnits.js';
import { clamp, Money, ZERO } from '../src/domain/money/money.js';
import type { World, WorldAmountSplit, WorldPayrollRequest, WorldTransfer } from '../src/world/types.js';
import { REPEAT } from './load.js';

/** Beneficiaries of the world: enough for every scenario but payroll-100k, which asks for 100,000. */
export const BENEFICIARIES = 10_000;

const id = (kind: string, n: number): string => `be7c${kind}-0000-4000-8000-${String(n).padStart(12, '0')}`;

export const benchIds = {
  customer: id('0002', 1),
  user: id('0003', 1),
  admin: id('0003', 2),
  accountUsd: id('0004', 1),
  accountPartnerBank: id('0004', 2),
  /** The customer's USD account currency (FIREBLOCKS): the source of every estimate. */
  acUsd: id('0005', 1),
  /** The platform partner bank's AED account currency: the payroll account. */
  acPartnerAed: id('0005', 2),
  beneficiary: (n: number): string => id('0006', n),
  /** COMPLETED, 50 splits: the `read` scenario. */
  request50: id('0007', 1),
  /** COMPLETED, 1,000 splits: the `read-1k` scenario. */
  request1k: id('0007', 2),
  /** COMPLETED, 1,000 splits each, read once each: `read-1k`'s first reads (no read has kept their items). */
  request1kUnread: (n: number): string => id('0007', 10 + n),
  /** Another customer, with a user, a USD account, beneficiaries and a COMPLETED 5-split request (benchWorld's `neighbour`). */
  neighbour: {
    customer: id('0002', 2),
    user: id('0003', 3),
    account: id('0004', 3),
    acUsd: id('0005', 3),
    beneficiary: (n: number): string => id('0006', 1_000_000 + n),
    request: id('0007', 3),
  },
};

/** Whose request a world request is: the bench customer's, or the neighbour's. */
interface Owner {
  customer: string;
  acUsd: string;
  beneficiary: (n: number) => string;
}
const BENCH_OWNER: Owner = { customer: benchIds.customer, acUsd: benchIds.acUsd, beneficiary: benchIds.beneficiary };
const NEIGHBOUR_SPLITS = 5;

const RATE = new Money('3.6725');
/** The quote each request was accepted at, and the FX rate recorded. */
const QUOTE = new Money('3.6720');
const BANK_FEE = new Money('5.00');

function completedRequest(requestNo: number, requestId: string, splitCount: number, owner: Owner = BENCH_OWNER): WorldPayrollRequest {
  // Split n pays beneficiary n a source amount of 100.00 + n (spread 0: eff = base rate).
  const splits: WorldAmountSplit[] = [];
  const payouts: WorldTransfer[] = [];
  let sourceTotal: Money = ZERO;
  let receivedTotal: Money = ZERO;
  for (let n = 1; n <= splitCount; n++) {
    const source = new Money(100 + n);
    const received = roundPayout(source.times(RATE), 2);
    sourceTotal = sourceTotal.plus(source);
    receivedTotal = receivedTotal.plus(received);
    const splitId = id('0008', requestNo * 100_000 + n);
    const transferId = id('0009', requestNo * 100_000 + n);
    splits.push({
      id: splitId,
      beneficiaryId: owner.beneficiary(n),
      sourceCurrencyAmount: source.toFixed(2),
      amount: received.toFixed(2),
      purposeCode: 'SAL',
      payoutTransferId: transferId,
    });
    payouts.push({
      id: transferId,
      transferType: 'BANK_TO_BENEFICIARY',
      status: 'COMPLETED',
      externalId: `PB-BENCH-${requestNo}-${n}`,
      amount: roundPayout(source.times(QUOTE), 2).toFixed(2),
      currencyCode: 'AED',
      amountSplitId: splitId,
      feeDetails: { id: id('000b', requestNo * 100_000 + n), amount: BANK_FEE.toFixed(2), finalInternalFee: BANK_FEE.toFixed(2) },
      executedAt: '2026-11-02T11:10:00Z',
      completedAt: '2026-11-03T08:00:00Z',
      createdAt: '2026-11-02T11:05:00Z',
    });
  }
  const processorFee = clamp(sourceTotal.times('0.001').plus(1), new Money(2), new Money(50));
  const bankFee = roundCharge(BANK_FEE.times(splitCount).dividedBy(RATE), 2);
  const totalFee = processorFee.plus(bankFee);
  const total = sourceTotal.plus(totalFee);
  const base = requestNo * 100_000;
  return {
    id: requestId,
    customerId: owner.customer,
    sourceAccountCurrencyId: owner.acUsd,
    payrollAccountCurrencyId: benchIds.acPartnerAed,
    status: 'COMPLETED',
    totalAmount: total.toFixed(2),
    estimatedFxRate: RATE.toFixed(),
    estimatedReceivedAmount: receivedTotal.toFixed(2),
    sourceAmountForExchange: sourceTotal.toFixed(2),
    quoteRate: QUOTE.toFixed(4),
    quoteExpiresAt: '2026-11-02T17:00:00Z',
    quotedByUserId: benchIds.admin,
    quotedAt: '2026-11-02T09:00:00Z',
    acceptedByCustomerAt: '2026-11-02T09:30:00Z',
    cancellationReason: null,
    failureReason: null,
    feeBreakdown: {
      sourceCurrencyAmount: sourceTotal.toFixed(2),
      spreadFee: '0.00',
      processorFee: processorFee.toFixed(2),
      bankFee: bankFee.toFixed(2),
      totalFee: totalFee.toFixed(2),
      estimatedReceivedAmount: receivedTotal.toFixed(2),
      payrollCurrencyCode: 'AED',
      feeCurrencyCode: 'USD',
      exchangeRate: RATE.toFixed(),
      baseRate: RATE.toFixed(),
    },
    createdAt: '2026-11-02T08:00:00Z',
    updatedAt: '2026-11-03T08:00:00Z',
    amountSplitDetails: splits,
    transfers: [
      {
        id: id('0009', base + 90_001),
        transferType: 'PROCESSOR_INTERNAL_DEBIT',
        status: 'COMPLETED',
        externalId: `FB-BENCH-DEBIT-${requestNo}`,
        amount: total.toFixed(2),
        currencyCode: 'USD',
        feeDetails: { id: id('000b', base + 90_001), amount: processorFee.toFixed(2), finalInternalFee: processorFee.toFixed(2) },
        executedAt: '2026-11-02T09:31:00Z',
        completedAt: '2026-11-02T09:32:00Z',
        createdAt: '2026-11-02T09:30:00Z',
      },
      {
        id: id('0009', base + 90_002),
        transferType: 'PROCESSOR_TO_BANK',
        status: 'COMPLETED',
        externalId: `FB-BENCH-BANK-${requestNo}`,
        amount: sourceTotal.toFixed(2),
        currencyCode: 'USD',
        executedAt: '2026-11-02T09:33:00Z',
        completedAt: '2026-11-02T11:00:00Z',
        createdAt: '2026-11-02T09:30:00Z',
      },
      ...payouts,
    ],
    fxExchange: {
      id: id('000a', requestNo),
      fromCurrencyCode: 'USD',
      toCurrencyCode: 'AED',
      fromAmount: sourceTotal.toFixed(2),
      toAmount: roundPayout(sourceTotal.times(QUOTE), 2).toFixed(2),
      exchangeRate: QUOTE.toFixed(4),
      feeDetails: { id: id('000b', base + 90_003), amount: '0.00', finalInternalFee: '0.00' },
      recordedByUserId: benchIds.admin,
      recordedAt: '2026-11-02T11:05:00Z',
      createdAt: '2026-11-02T11:05:00Z',
    },
  };
}

/** An INDIVIDUAL beneficiary as a customer's HR file holds one: IBAN, bank, nationality and reference. */
const beneficiary = (id: string, customerId: string, n: number, prefix: string): World['beneficiaries'][number] => ({
  id,
  customerId,
  firstName: `Employee${n}`,
  lastName: prefix === 'BENCH' ? 'Bench' : 'Neighbour',
  displayName: `Employee${n} ${prefix === 'BENCH' ? 'Bench' : 'Neighbour'}`,
  type: 'INDIVIDUAL',
  nationality: 'AE',
  bankName: 'Emirates NBD',
  iban: `AE07${String(n).padStart(prefix === 'BENCH' ? 19 : 18, '0')}${prefix === 'BENCH' ? '' : '9'}`,
  reference: `${prefix}-${n}`,
});

/**
 * The bench world of `beneficiaryCount` beneficiaries; with `neighbour`, another customer too (a
 * user, a USD account, five beneficiaries and a COMPLETED 5-split request: the small GET of the
 * slow-readers scenario).
 */
export function benchWorld(beneficiaryCount = BENEFICIARIES, options: { neighbour?: boolean } = {}): World {
  const beneficiaries: World['beneficiaries'] = [];
  for (let n = 1; n <= beneficiaryCount; n++) beneficiaries.push(beneficiary(benchIds.beneficiary(n), benchIds.customer, n, 'BENCH'));
  const world = benchWorldAround(beneficiaryCount, beneficiaries);
  return options.neighbour ? withNeighbour(world) : world;
}

function withNeighbour(world: World): World {
  const n = benchIds.neighbour;
  const owner: Owner = { customer: n.customer, acUsd: n.acUsd, beneficiary: n.beneficiary };
  for (let k = 1; k <= NEIGHBOUR_SPLITS; k++) world.beneficiaries.push(beneficiary(n.beneficiary(k), n.customer, k, 'NEIGHBOUR'));
  world.customers.push({ id: n.customer, firstName: 'Nora', lastName: 'Neighbour', companyLegalName: 'Neighbour Trading LLC', spreadBips: 25 });
  world.users.push({ id: n.user, firstName: 'Nora', lastName: 'Neighbour', email: 'nora@neighbour.example', role: 'customer', customerId: n.customer });
  world.accounts.push({
    id: n.account,
    accountProvider: 'FIREBLOCKS',
    customerId: n.customer,
    currencies: [{ id: n.acUsd, currency: 'USD', balance: '1000000.00' }],
  });
  world.payrollRequests!.push(completedRequest(3, n.request, NEIGHBOUR_SPLITS, owner));
  return world;
}

function benchWorldAround(beneficiaryCount: number, beneficiaries: World['beneficiaries']): World {
  return {
    description: `Benchmark world (bench/world.ts): one customer, ${beneficiaryCount} beneficiaries, COMPLETED requests of 50 and 1,000 splits.`,
    currencies: [
      { code: 'USD', name: 'US Dollar', symbol: '$', decimals: 2 },
      { code: 'AED', name: 'UAE Dirham', symbol: 'د.إ', decimals: 2 },
    ],
    customers: [{ id: benchIds.customer, firstName: 'Bea', lastName: 'Bench', companyLegalName: 'Bench Payroll LLC', spreadBips: 25 }],
    users: [
      { id: benchIds.user, firstName: 'Bea', lastName: 'Bench', email: 'bea@bench.example', role: 'customer', customerId: benchIds.customer },
      { id: benchIds.admin, firstName: 'Otto', lastName: 'Ops', email: 'otto.ops@platform.example', role: 'admin', customerId: null },
    ],
    accounts: [
      {
        id: benchIds.accountUsd,
        accountProvider: 'FIREBLOCKS',
        customerId: benchIds.customer,
        currencies: [{ id: benchIds.acUsd, currency: 'USD', balance: '1000000000.00' }],
      },
      {
        id: benchIds.accountPartnerBank,
        accountProvider: 'PAYROLL_PARTNER_BANK',
        customerId: null,
        // The debtor of the payment files when the bench runs with BANK_RAIL=iso20022 (docs/bank-files.md).
        iban: 'AE420260001015333439101',
        bic: 'EBILAEAD',
        currencies: [{ id: benchIds.acPartnerAed, currency: 'AED', balance: '1000000000.00' }],
      },
    ],
    beneficiaries,
    rates: [{ from: 'USD', to: 'AED', rate: RATE.toFixed() }],
    fees: {
      bankFeePerBeneficiary: { AED: BANK_FEE.toFixed(2) },
      processor: [{ accountProvider: 'FIREBLOCKS', currency: 'USD', percentBps: 10, fixed: '1.00', min: '2.00', max: '50.00' }],
      payout: [{ accountProvider: 'FIREBLOCKS', currency: 'USD', percentBps: 25, fixed: '2.00', min: '3.00', max: '40.00', settlementDays: 2 }],
      internalPayout: [{ customerId: null, currency: 'USD', percentBps: 10, fixed: '0.50' }],
    },
    payrollRequests: [
      completedRequest(1, benchIds.request50, 50),
      completedRequest(2, benchIds.request1k, 1000),
      ...Array.from({ length: REPEAT }, (_, n) => completedRequest(10 + n, benchIds.request1kUnread(n), 1000)),
    ],
  };
}

/**
 * A payroll of `count` lines as the customer's spreadsheet holds it, purpose codes included (so the
 * same file is estimated and then creates the request): every fifth line a PAYROLL (AED) amount, the
 * rest SOURCE (USD), small enough that 100,000 lines stay within the account's balance.
 */
export function payrollCsvBody(count: number): string {
  const rows = ['beneficiaryReference,amount,amountCurrencyType,purposeCode'];
  for (let n = 1; n <= count; n++) rows.push(n % 5 === 0 ? `BENCH-${n},${1000 + (n % 900)}.50,PAYROLL,SAL` : `BENCH-${n},${250 + (n % 500)}.25,SOURCE,SAL`);
  return `${rows.join('\r\n')}\r\n`;
}

/** The same payroll as estimateBody(count) as a CSV file, naming each beneficiary by reference (as a spreadsheet does). */
export function estimateCsvBody(count: number): string {
  const rows = ['beneficiaryReference,amount,amountCurrencyType'];
  for (let n = 1; n <= count; n++) rows.push(n % 5 === 0 ? `BENCH-${n},${3000 + n}.50,PAYROLL` : `BENCH-${n},${1000 + n}.25,SOURCE`);
  return `${rows.join('\r\n')}\r\n`;
}

/** An estimate body of `count` entries: every fifth a PAYROLL (AED) amount, the rest SOURCE (USD). */
export function estimateBody(count: number): string {
  const amountSplitDetails = [];
  for (let n = 1; n <= count; n++) {
    amountSplitDetails.push(
      n % 5 === 0
        ? { beneficiaryId: benchIds.beneficiary(n), amount: `${3000 + n}.50`, amountCurrencyType: 'PAYROLL' }
        : { beneficiaryId: benchIds.beneficiary(n), amount: `${1000 + n}.25` },
    );
  }
  return JSON.stringify({ sourceAccountCurrencyId: benchIds.acUsd, payrollAccountCurrencyId: benchIds.acPartnerAed, amountSplitDetails });
}
