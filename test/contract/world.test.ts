import { readFileSync } from 'node:fs';
import { Decimal } from 'decimal.js';
import { afterAll, describe, expect, it } from 'vitest';
import type { Database } from '../../src/store/database/db.js';
import { isDatabaseEmpty, loadWorld, seedIfEmpty } from '../../src/world/load.js';
import { worldSchema } from '../../src/world/schema/worldSchema.js';
import type { World, WorldPayrollRequest } from '../../src/world/types.js';
import { validateWorld } from '../../src/world/validate.js';
import { WorldValidationError } from '../../src/world/validationError.js';
import { freshDatabase } from '../support/database.js';
import { beneficiaryA1Snapshot, ids, testWorld } from '../fixtures/world.js';
import { emptyDatabase as freshEmptyDatabase } from '../support/database.js';

const DEMO_FILE = new URL('../../worlds/demo.json', import.meta.url);
const demoWorld = JSON.parse(readFileSync(DEMO_FILE, 'utf8')) as World;
const D = Decimal.clone({ precision: 50 });

const clone = <T>(value: T): T => structuredClone(value);

function expectInvalid(input: unknown, path: string, message?: RegExp): WorldValidationError {
  let caught: unknown;
  try {
    validateWorld(input);
  } catch (error) {
    caught = error;
  }
  expect(caught).toBeInstanceOf(WorldValidationError);
  const error = caught as WorldValidationError;
  expect(error.path).toBe(path);
  expect(error.message.startsWith(`${path}: `)).toBe(true);
  if (message) expect(error.message).toMatch(message);
  return error;
}

// A migrated empty database per test that loads, cloned from the run's template (test/support/globalSetup.ts).
const drops: Array<() => Promise<void>> = [];
async function emptyDatabase(): Promise<Database> {
  const { db, drop } = await freshEmptyDatabase();
  drops.push(drop);
  return db;
}

afterAll(async () => {
  for (const drop of drops) await drop();
});

describe('the world schema', () => {
  it('src/world/world.schema.json, which world files name in $schema, is the TypeScript schema', () => {
    const schemaFile = new URL('../../src/world/world.schema.json', import.meta.url);
    const json: unknown = JSON.parse(readFileSync(schemaFile, 'utf8'));
    const regenerate =
      'regenerate it: npx tsx -e "import(\'./src/world/schema/worldSchema.ts\').then((m) => console.log(JSON.stringify(m.worldSchema, null, 2)))" > src/world/world.schema.json';
    expect(json, regenerate).toEqual(worldSchema);
    expect(new URL(demoWorld.$schema!, DEMO_FILE).href).toBe(schemaFile.href);
  });
});

describe('validateWorld', () => {
  it('accepts the demo world and the test world', () => {
    expect(validateWorld(demoWorld)).toBe(demoWorld);
    expect(validateWorld(testWorld)).toBe(testWorld);
  });

  it('names the path of a bad nationality', () => {
    const world = clone(demoWorld);
    world.beneficiaries[3]!.nationality = 'UAE';
    const error = expectInvalid(world, 'world.beneficiaries[3].nationality');
    expect(error.message).toBe('world.beneficiaries[3].nationality: must match pattern "^[A-Z]{2}$"');
  });

  it('names the path of an unknown customerId', () => {
    const world = clone(testWorld);
    world.beneficiaries[6]!.customerId = '7e570002-0000-4000-8000-000000000099';
    expectInvalid(world, 'world.beneficiaries[6].customerId', /unknown customer/);

    const account = clone(testWorld);
    account.accounts[1]!.customerId = '7e570002-0000-4000-8000-000000000099';
    expectInvalid(account, 'world.accounts[1].customerId', /unknown customer/);
  });

  it('requires customerId on a customer user and forbids it on an admin', () => {
    const world = clone(testWorld);
    delete world.users[1]!.customerId;
    expectInvalid(world, 'world.users[1].customerId', /required for a user with role customer/);

    const admin = clone(testWorld);
    admin.users[2]!.customerId = ids.customerA;
    expectInvalid(admin, 'world.users[2].customerId', /admin/);
  });

  it('rejects a duplicate id', () => {
    const world = clone(testWorld);
    world.beneficiaries[4]!.id = ids.beneficiaryA2;
    expectInvalid(world, 'world.beneficiaries[4].id', /duplicate beneficiary id .*world\.beneficiaries\[1\]\.id/);

    const accountCurrency = clone(testWorld);
    accountCurrency.accounts[3]!.currencies[1]!.id = ids.acAUsd;
    expectInvalid(accountCurrency, 'world.accounts[3].currencies[1].id', /duplicate account currency id/);
  });

  it('rejects a bad decimal', () => {
    const world = clone(testWorld);
    world.accounts[0]!.currencies[0]!.balance = '1,000.00';
    expectInvalid(world, 'world.accounts[0].currencies[0].balance', /must match pattern/);

    const leadingZero = clone(demoWorld);
    leadingZero.payrollRequests![2]!.feeBreakdown.spreadFee = '088.25';
    expectInvalid(leadingZero, 'world.payrollRequests[2].feeBreakdown.spreadFee', /must match pattern/);

    const number = clone(testWorld) as unknown as { rates: { rate: unknown }[] };
    number.rates[0]!.rate = 3.6725;
    expectInvalid(number, 'world.rates[0].rate', /must be string/);
  });

  it('names missing and unexpected properties themselves', () => {
    const missing = clone(testWorld) as unknown as { customers: Record<string, unknown>[] };
    delete missing.customers[0]!.companyLegalName;
    expectInvalid(missing, 'world.customers[0].companyLegalName', /must have required property/);

    const extra = clone(testWorld) as unknown as { fees: { processor: Record<string, unknown>[] } };
    extra.fees.processor[1]!.currencyCode = 'USDC';
    expectInvalid(extra, 'world.fees.processor[1].currencyCode', /must NOT have additional properties/);
  });

  it("takes an account's optional legalName, the debtor name of the payment files, up to 140 characters", () => {
    const named = clone(testWorld);
    named.accounts[3]!.legalName = 'Payroll Partner Bank Client Funds Account';
    expect(validateWorld(named)).toBe(named);
    const empty = clone(testWorld);
    empty.accounts[3]!.legalName = '';
    expectInvalid(empty, 'world.accounts[3].legalName', /must NOT have fewer than 1 characters/);
    const long = clone(testWorld);
    long.accounts[3]!.legalName = 'N'.repeat(141);
    expectInvalid(long, 'world.accounts[3].legalName', /must NOT have more than 140 characters/);
  });

  it("takes the partner banks' calendars: a known currency, a real time zone, a day added or removed", () => {
    const calendars = clone(testWorld);
    calendars.calendars = [{ currency: 'AED', timeZone: 'Asia/Dubai', weekend: ['SAT', 'SUN'], cutOff: '14:30', addedHolidays: ['2026-12-03'] }];
    expect(validateWorld(calendars)).toBe(calendars);
    const unknown = clone(testWorld);
    unknown.calendars = [{ currency: 'XYZ' }];
    expectInvalid(unknown, 'world.calendars[0].currency');
    const zone = clone(testWorld);
    zone.calendars = [{ currency: 'AED', timeZone: 'Gulf/Nowhere' }];
    expectInvalid(zone, 'world.calendars[0].timeZone', /IANA time zone/);
    const cutOff = clone(testWorld);
    cutOff.calendars = [{ currency: 'AED', cutOff: '25:00' }];
    expectInvalid(cutOff, 'world.calendars[0].cutOff');
    const both = clone(testWorld);
    both.calendars = [{ currency: 'AED', addedHolidays: ['2026-12-03'], removedHolidays: ['2026-12-03'] }];
    expectInvalid(both, 'world.calendars[0].addedHolidays[0]', /also in removedHolidays/);
  });

  it('checks currency and payroll request references', () => {
    const rate = clone(testWorld);
    rate.rates.push({ from: 'USD', to: 'GBP', rate: '0.79' });
    expectInvalid(rate, 'world.rates[3].to', /unknown currency GBP/);

    const accountCurrency = clone(testWorld);
    accountCurrency.accounts[0]!.currencies[0]!.currency = 'CHF';
    expectInvalid(accountCurrency, 'world.accounts[0].currencies[0].currency', /unknown currency CHF/);

    const beneficiary = clone(testWorld);
    beneficiary.payrollRequests![1]!.amountSplitDetails[0]!.beneficiaryId = ids.beneficiaryA1;
    expectInvalid(beneficiary, 'world.payrollRequests[1].amountSplitDetails[0].beneficiaryId', /does not belong to customer/);

    const transfer = clone(testWorld);
    transfer.payrollRequests![0]!.amountSplitDetails[1]!.payoutTransferId = ids.transferAToBank;
    expectInvalid(transfer, 'world.payrollRequests[0].amountSplitDetails[1].payoutTransferId', /not a BANK_TO_BENEFICIARY/);

    const overdraft = clone(testWorld);
    overdraft.accounts[2]!.currencies[0]!.balance = '50.00';
    expectInvalid(overdraft, 'world.payrollRequests[1].totalAmount', /exceed its balance/);
  });
});

/** Re-derives every figure of a payroll request from the world's rates and fees. */
function checkMoneyInvariants(world: World, request: WorldPayrollRequest): void {
  const accountCurrencies = world.accounts.flatMap((account) => account.currencies.map((c) => ({ ...c, account })));
  const source = accountCurrencies.find((c) => c.id === request.sourceAccountCurrencyId)!;
  const payroll = accountCurrencies.find((c) => c.id === request.payrollAccountCurrencyId)!;
  const payrollDecimals = world.currencies.find((c) => c.code === payroll.currency)!.decimals;
  const scale = Math.min(2, payrollDecimals);
  // Every source figure at the source currency's minor units (at most 8).
  const sourceScale = Math.min(8, world.currencies.find((c) => c.code === source.currency)!.decimals);
  const bips = world.customers.find((c) => c.id === request.customerId)!.spreadBips ?? 0;
  const base = new D(world.rates.find((r) => r.from === source.currency && r.to === payroll.currency)!.rate);
  const eff = base.times(new D(1).minus(new D(bips).div(10000)));
  const fb = request.feeBreakdown;

  let S = new D(0);
  let P = new D(0);
  for (const split of request.amountSplitDetails) {
    const s = new D(split.sourceCurrencyAmount);
    const p = s.times(eff).toDecimalPlaces(scale, Decimal.ROUND_DOWN);
    expect(new D(split.amount).equals(p), `split ${split.id} amount`).toBe(true);
    S = S.plus(s);
    P = P.plus(p);
  }
  const spreadFee = S.times(bips).div(10000).toDecimalPlaces(sourceScale, Decimal.ROUND_UP);
  const schedule = world.fees.processor.find((p) => p.accountProvider === source.account.accountProvider && p.currency === source.currency)!;
  const rawProcessor = S.times(schedule.percentBps).div(10000).plus(schedule.fixed);
  const processorFee = Decimal.min(Decimal.max(rawProcessor, schedule.min), schedule.max).toDecimalPlaces(sourceScale, Decimal.ROUND_UP);
  const perBeneficiary = new D(world.fees.bankFeePerBeneficiary[payroll.currency]!);
  const bankFee = perBeneficiary.times(request.amountSplitDetails.length).div(eff).toDecimalPlaces(sourceScale, Decimal.ROUND_UP);
  const totalFee = spreadFee.plus(processorFee).plus(bankFee);
  const totalAmount = S.plus(totalFee);

  const same = (actual: string, expected: Decimal, what: string): void => {
    expect(new D(actual).toFixed(), `${request.id} ${what}`).toBe(expected.toFixed());
  };
  same(fb.sourceCurrencyAmount, S, 'feeBreakdown.sourceCurrencyAmount');
  same(fb.estimatedReceivedAmount, P, 'feeBreakdown.estimatedReceivedAmount');
  same(request.estimatedReceivedAmount, P, 'estimatedReceivedAmount');
  same(fb.spreadFee, spreadFee, 'spreadFee');
  same(fb.processorFee, processorFee, 'processorFee');
  same(fb.bankFee, bankFee, 'bankFee');
  same(fb.totalFee, totalFee, 'totalFee');
  same(request.totalAmount, totalAmount, 'totalAmount');
  same(request.sourceAmountForExchange, new D(request.totalAmount).minus(fb.totalFee), 'sourceAmountForExchange');
  same(request.sourceAmountForExchange, S, 'sourceAmountForExchange = S');
  same(request.estimatedFxRate, eff, 'estimatedFxRate');
  same(fb.exchangeRate, eff, 'exchangeRate');
  same(fb.baseRate, base, 'baseRate');
  expect(fb.payrollCurrencyCode).toBe(payroll.currency);
  expect(fb.feeCurrencyCode).toBe(source.currency);

  const transfers = request.transfers ?? [];
  for (const transfer of transfers) {
    if (transfer.transferType === 'PROCESSOR_INTERNAL_DEBIT') {
      same(transfer.amount, totalAmount, 'PROCESSOR_INTERNAL_DEBIT amount');
      expect(transfer.currencyCode).toBe(source.currency);
    } else if (transfer.transferType === 'PROCESSOR_TO_BANK') {
      same(transfer.amount, S, 'PROCESSOR_TO_BANK amount');
      expect(transfer.currencyCode).toBe(source.currency);
    } else {
      expect(transfer.currencyCode).toBe(payroll.currency);
    }
  }

  const fx = request.fxExchange;
  if (fx) {
    const actual = new D(fx.exchangeRate);
    same(fx.fromAmount, S, 'fxExchange.fromAmount');
    same(fx.toAmount, S.times(actual).toDecimalPlaces(scale, Decimal.ROUND_DOWN), 'fxExchange.toAmount');
    expect(fx.fromCurrencyCode).toBe(source.currency);
    expect(fx.toCurrencyCode).toBe(payroll.currency);
    let payouts = new D(0);
    for (const split of request.amountSplitDetails) {
      const payout = transfers.find((t) => t.id === split.payoutTransferId || t.amountSplitId === split.id);
      expect(payout?.transferType, `payout of split ${split.id}`).toBe('BANK_TO_BENEFICIARY');
      // Each payout pays its split's quoted amount (source × quote, down), whatever the recorded rate.
      same(payout!.amount, new D(split.sourceCurrencyAmount).times(request.quoteRate!).toDecimalPlaces(scale, Decimal.ROUND_DOWN), 'payout amount');
      payouts = payouts.plus(payout!.amount);
    }
    expect(payouts.lessThanOrEqualTo(fx.toAmount)).toBe(true);
  }
}

describe("money invariants of the worlds' payroll requests", () => {
  it('demo world: five requests of Acme, in the documented statuses', () => {
    const requests = demoWorld.payrollRequests ?? [];
    expect(requests.map((r) => r.status)).toEqual(['PENDING', 'QUOTE_PROVIDED', 'COMPLETED', 'PARTIALLY_COMPLETED', 'CANCELLED']);
    for (const request of requests) checkMoneyInvariants(demoWorld, request);

    const partial = requests[3]!;
    const failed = partial.transfers!.filter((t) => t.status === 'FAILED');
    expect(failed).toHaveLength(1);
    expect(failed[0]!.failureReason).toBe('Beneficiary account closed');
    const split = partial.amountSplitDetails.find((s) => s.id === failed[0]!.amountSplitId)!;
    const beneficiary = demoWorld.beneficiaries.find((b) => b.id === split.beneficiaryId)!;
    expect(beneficiary.reference?.startsWith('FAIL')).toBe(true);

    const completed = requests[2]!;
    expect(completed.fxExchange!.exchangeRate).not.toBe(completed.estimatedFxRate);
  });

  it('test world', () => {
    for (const request of testWorld.payrollRequests ?? []) checkMoneyInvariants(testWorld, request);
  });
});

interface BalanceRow extends Record<string, unknown> {
  id: string;
  balance: string;
  available: string;
  posting_sum: string;
  openings: number;
}

/** What a world's failed payouts credited back to a source account currency (each split's source amount at the quote). */
function creditedBack(world: World, accountCurrencyId: string): Decimal {
  let total = new D(0);
  for (const request of world.payrollRequests ?? []) {
    if (request.sourceAccountCurrencyId !== accountCurrencyId) continue;
    for (const transfer of request.transfers ?? []) {
      if (transfer.transferType !== 'BANK_TO_BENEFICIARY' || transfer.status !== 'FAILED') continue;
      const split = request.amountSplitDetails.find((s) => s.id === transfer.amountSplitId || s.payoutTransferId === transfer.id)!;
      total = total.plus(split.sourceCurrencyAmount);
    }
  }
  return total;
}

/** What a world's failed payouts left in a partner-bank account currency: each one's amount, which the bank never paid. */
function leftUnpaid(world: World, accountCurrencyId: string): Decimal {
  let total = new D(0);
  for (const request of world.payrollRequests ?? []) {
    if (request.payrollAccountCurrencyId !== accountCurrencyId) continue;
    for (const transfer of request.transfers ?? [])
      if (transfer.transferType === 'BANK_TO_BENEFICIARY' && transfer.status === 'FAILED') total = total.plus(transfer.amount);
  }
  return total;
}

/** Balances equal their postings (one opening entry each), the journal sums to zero per currency, one creation debit per request. */
async function expectLedgerMatches(db: Database, world: World): Promise<void> {
  const rows = await db.query<BalanceRow>(
    `SELECT ac.id, ac.balance::text AS balance, ac.available::text AS available,
            COALESCE(SUM(p.amount), 0)::text AS posting_sum,
            COUNT(p.id) FILTER (WHERE je.kind = 'OPENING_BALANCE')::int AS openings
       FROM account_currencies ac
       LEFT JOIN postings p ON p.account_currency_id = ac.id
       LEFT JOIN journal_entries je ON je.id = p.journal_entry_id
      GROUP BY ac.id`,
  );
  const accountCurrencies = world.accounts.flatMap((a) => a.currencies);
  expect(rows).toHaveLength(accountCurrencies.length);
  for (const row of rows) {
    const opening = accountCurrencies.find((c) => c.id === row.id)!.balance;
    const debits = (world.payrollRequests ?? [])
      .filter((r) => r.sourceAccountCurrencyId === row.id && r.status !== 'CANCELLED' && r.status !== 'FAILED')
      .reduce((total, r) => total.plus(r.totalAmount), new D(0));
    expect(row.openings).toBe(1);
    expect(new D(row.balance).equals(row.posting_sum)).toBe(true);
    expect(new D(row.available).equals(row.posting_sum)).toBe(true);
    expect(
      new D(row.balance).equals(new D(opening).minus(debits).plus(creditedBack(world, row.id)).plus(leftUnpaid(world, row.id))),
      `balance of ${row.id}`,
    ).toBe(true);
    expect(new D(row.available).equals(row.balance)).toBe(true);
  }
  expect(await db.query('SELECT currency_code FROM postings GROUP BY currency_code HAVING sum(amount) <> 0')).toEqual([]);
  const debitRows = await db.query<{ payroll_request_id: string; kind: string; amount: string }>(
    `SELECT je.payroll_request_id, je.kind, p.amount::text AS amount FROM journal_entries je JOIN postings p ON p.journal_entry_id = je.id
      WHERE je.kind IN ('PAYROLL_CREATED', 'PAYROLL_CANCELLED') AND p.account_key LIKE 'CUSTOMER:%'`,
  );
  const requests = world.payrollRequests ?? [];
  const created = debitRows.filter((r) => r.kind === 'PAYROLL_CREATED');
  expect(created.map((r) => r.payroll_request_id).sort()).toEqual(requests.map((r) => r.id).sort());
  for (const row of created) {
    const request = requests.find((r) => r.id === row.payroll_request_id)!;
    expect(new D(row.amount).equals(new D(request.totalAmount).negated())).toBe(true);
  }
  const cancelled = debitRows.filter((r) => r.kind === 'PAYROLL_CANCELLED');
  expect(cancelled.map((r) => r.payroll_request_id).sort()).toEqual(
    requests
      .filter((r) => r.status === 'CANCELLED')
      .map((r) => r.id)
      .sort(),
  );
}

describe('loadWorld', () => {
  it('loads the demo world: every row, one opening entry per account currency, postings sum to balances', async () => {
    const db = await emptyDatabase();
    expect(await isDatabaseEmpty(db)).toBe(true);
    await loadWorld(db, demoWorld);
    expect(await isDatabaseEmpty(db)).toBe(false);

    const count = async (table: string): Promise<number> => (await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${table}`))[0]!.n;
    const requests = demoWorld.payrollRequests ?? [];
    expect(await count('currencies')).toBe(demoWorld.currencies.length);
    expect(await count('customers')).toBe(demoWorld.customers.length);
    expect(await count('users')).toBe(demoWorld.users.length);
    expect(await count('accounts')).toBe(demoWorld.accounts.length);
    expect(await count('beneficiaries')).toBe(demoWorld.beneficiaries.length);
    expect(await count('exchange_rates')).toBe(demoWorld.rates.length);
    expect(await count('bank_fees')).toBe(Object.keys(demoWorld.fees.bankFeePerBeneficiary).length);
    expect(await count('processor_fee_schedules')).toBe(demoWorld.fees.processor.length);
    expect(await count('payout_fee_schedules')).toBe(demoWorld.fees.payout.length);
    expect(await count('internal_payout_fee_rules')).toBe(demoWorld.fees.internalPayout!.length);
    expect(await count('payroll_requests')).toBe(requests.length);
    expect(await count('amount_splits')).toBe(requests.reduce((n, r) => n + r.amountSplitDetails.length, 0));
    expect(await count('transfers')).toBe(requests.reduce((n, r) => n + (r.transfers?.length ?? 0), 0));
    expect(await count('fx_exchanges')).toBe(requests.filter((r) => r.fxExchange).length);

    await expectLedgerMatches(db, demoWorld);

    const [customer] = await db.query<{ spread_bips: number | null }>('SELECT spread_bips FROM customers WHERE company_legal_name = $1', ['Globex FZ-LLC']);
    expect(customer!.spread_bips).toBeNull();
    const inactive = await db.query('SELECT id FROM beneficiaries WHERE NOT active');
    expect(inactive).toHaveLength(1);
  });

  it('loads the test world with snapshots, payout links and the fee breakdown in metadata', async () => {
    const db = await emptyDatabase();
    await loadWorld(db, testWorld);
    await expectLedgerMatches(db, testWorld);

    const splits = await db.query<{ id: string; beneficiary_snapshot: Record<string, unknown>; payout_transfer_id: string | null; position: number }>(
      'SELECT id, beneficiary_snapshot, payout_transfer_id, position FROM amount_splits WHERE payroll_request_id = $1 ORDER BY position',
      [ids.requestACompleted],
    );
    // The link is the payout's (its amount_split_id, below), whichever side of the file gave it.
    expect(splits.map((s) => s.payout_transfer_id)).toEqual([null, null]);
    expect(splits[0]!.beneficiary_snapshot).toEqual(beneficiaryA1Snapshot);
    expect(splits[1]!.beneficiary_snapshot).not.toHaveProperty('reference');

    const transfers = await db.query<{ id: string; amount_split_id: string | null; fee_amount: string | null; position: number }>(
      'SELECT id, amount_split_id, fee_amount::text AS fee_amount, position FROM transfers WHERE payroll_request_id = $1 ORDER BY position',
      [ids.requestACompleted],
    );
    expect(transfers.map((t) => t.id)).toEqual([ids.transferADebit, ids.transferAToBank, ids.transferAPayout1, ids.transferAPayout2]);
    expect(transfers.map((t) => t.amount_split_id)).toEqual([null, null, ids.splitACompleted1, ids.splitACompleted2]);
    expect(transfers[0]!.fee_amount).toBe('4.50');

    const [request] = await db.query<{ metadata: { feeBreakdown: Record<string, string> }; fee_hash: string | null; total_amount: string }>(
      'SELECT metadata, fee_hash, total_amount::text AS total_amount FROM payroll_requests WHERE id = $1',
      [ids.requestACompleted],
    );
    expect(request!.fee_hash).toBeNull();
    expect(request!.total_amount).toBe('3524.74');
    expect(request!.metadata.feeBreakdown).toEqual(testWorld.payrollRequests![0]!.feeBreakdown);

    const [balances] = await db.query<{ a: string; b: string; untouched: string }>(
      `SELECT (SELECT balance::text FROM account_currencies WHERE id = $1) AS a,
              (SELECT available::text FROM account_currencies WHERE id = $2) AS b,
              (SELECT balance::text FROM account_currencies WHERE id = $3) AS untouched`,
      [ids.acAUsd, ids.acBUsd, ids.acAUsdc],
    );
    expect(balances).toEqual({ a: '996475.26', b: '946.63', untouched: '500000.00000000' });

    const [fx] = await db.query<{ to_amount: string; recorded_by_user_id: string }>(
      'SELECT to_amount::text AS to_amount, recorded_by_user_id FROM fx_exchanges WHERE payroll_request_id = $1',
      [ids.requestACompleted],
    );
    expect(fx).toEqual({ to_amount: '12782.00', recorded_by_user_id: ids.admin });
  });

  it('writes nothing when the world is invalid, and rolls back as a whole when an insert fails', async () => {
    const db = await emptyDatabase();
    const invalid = clone(testWorld);
    invalid.customers[0]!.spreadBips = 10_000; // 100 % would leave an effective rate of 0
    await expect(loadWorld(db, invalid)).rejects.toThrow(/^world\.customers\[0\]\.spreadBips: must be <= 9999$/);
    expect(await isDatabaseEmpty(db)).toBe(true);

    await loadWorld(db, testWorld);
    // A second load collides on primary keys: nothing of it may stay behind.
    await expect(loadWorld(db, testWorld)).rejects.toThrow();
    const [row] = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM customers');
    expect(row!.n).toBe(testWorld.customers.length);
  });

  it('loads thousands of beneficiaries in batches', async () => {
    const db = await emptyDatabase();
    const world = clone(testWorld);
    for (let i = 0; i < 4500; i++) {
      world.beneficiaries.push({
        id: `7e570006-0000-4000-9000-${String(i).padStart(12, '0')}`,
        customerId: ids.customerB,
        firstName: 'Bulk',
        lastName: `Beneficiary ${i}`,
        displayName: `Bulk Beneficiary ${i}`,
        type: 'INDIVIDUAL',
        nationality: 'AE',
        bankName: 'Emirates NBD',
      });
    }
    await loadWorld(db, world);
    const [row] = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM beneficiaries');
    expect(row!.n).toBe(world.beneficiaries.length);
  });

  it('seedIfEmpty loads the demo file once', async () => {
    const db = await emptyDatabase();
    const file = new URL('../../worlds/demo.json', import.meta.url).pathname;
    expect(await seedIfEmpty(db, file)).toBe(true);
    expect(await seedIfEmpty(db, file)).toBe(false);
    const [row] = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM payroll_requests');
    expect(row!.n).toBe(5);
  });
});

describe('loadWorld on the test database (PostgreSQL when TEST_DATABASE_URL is set)', () => {
  it('keeps a balance of 999999999999999.00 exact to the last digit, and the ledger agrees', async () => {
    const world = clone(testWorld);
    expect(world.accounts[0]!.currencies[0]!.id).toBe(ids.acAUsd);
    world.accounts[0]!.currencies[0]!.balance = '999999999999999.00';
    const { db, drop } = await freshDatabase(world);
    try {
      await expectLedgerMatches(db, world);
      const [row] = await db.query<{ balance: string; available: string }>(
        'SELECT balance::text AS balance, available::text AS available FROM account_currencies WHERE id = $1',
        [ids.acAUsd],
      );
      // 999999999999999.00 − 3524.74 (the COMPLETED request's debit): 17 significant digits, exact.
      expect(row).toEqual({ balance: '999999999996474.26', available: '999999999996474.26' });
    } finally {
      await drop();
    }
  });
});
