import { parse } from 'csv-parse/sync';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { components } from '../../generated/api.js';
import { openingBalance } from '../../src/domain/ledger/journalEntries.js';
import { Money } from '../../src/domain/money/money.js';
import { type DatedEntry, postJournalEntries } from '../../src/store/ledger/ledger.js';
import type { ExecutionDeps } from '../../src/usecases/payroll/execution.js';
import { ids } from '../fixtures/world.js';
import { balancesOf, expectBooksBalanced } from '../support/balances.js';
import { accept, estimateAndCreate, quote, readRequest, recordFx } from '../support/payroll.js';
import type { TestServer } from '../support/server.js';
import { drain, startServerWithWorker } from '../support/worker.js';

type Transaction = components['schemas']['AccountTransaction'];

let server: TestServer;
let worker: ExecutionDeps;
beforeAll(async () => ({ server, worker } = await startServerWithWorker()));
afterAll(() => server.close());
afterEach(() => expectBooksBalanced(server.db));

const STATEMENT = '/v1/customers/account-currencies/{accountCurrencyId}/transactions' as const;
const FUNDINGS = '/v1/admin/account-currencies/{accountCurrencyId}/fundings' as const;

const fund = (accountCurrencyId: string, amount: string, options: { reference?: string; idempotencyKey?: string; userId?: string } = {}) =>
  server.as(options.userId ?? ids.admin).POST(FUNDINGS, {
    params: { path: { accountCurrencyId } },
    body: { amount, reference: options.reference ?? 'WIRE TEST' },
    ...(options.idempotencyKey && { idempotencyKey: options.idempotencyKey }),
  });

type StatementFilter = { from?: string; to?: string };

/** The statement's 200 is JSON or CSV: openapi-fetch types its data as either; a JSON call must get the page. */
function pageOf(data: components['schemas']['AccountTransactionPageResponse'] | string | undefined, error: unknown) {
  if (data === undefined || typeof data === 'string') throw new Error(`expected a JSON page: ${JSON.stringify(error ?? data)}`);
  return data.data;
}

/** Every line of the statement, page by page (`limit` per page), newest first. */
async function wholeStatement(accountCurrencyId: string, filter: StatementFilter = {}, limit = 100, userId = ids.userA): Promise<Transaction[]> {
  const lines: Transaction[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < 1000; page++) {
    const { data, error } = await server.as(userId).GET(STATEMENT, {
      params: { path: { accountCurrencyId }, query: { ...filter, limit, ...(cursor && { cursor }) } },
    });
    const page = pageOf(data, error);
    expect(page.items.length).toBeLessThanOrEqual(limit);
    lines.push(...page.items);
    if (page.nextCursor === null) return lines;
    cursor = page.nextCursor;
  }
  throw new Error('the statement never ended');
}

/** Newest first: each line's balanceAfter is the older line's plus its amount; the oldest starts from zero. */
function expectRunningBalance(lines: readonly Transaction[]): void {
  lines.forEach((line, index) => {
    const older = lines[index + 1];
    const before = older ? new Money(older.balanceAfter) : new Money(0);
    expect(
      before.plus(line.amount).equals(line.balanceAfter),
      `line ${line.id} (${line.kind}): ${before.toFixed()} + ${line.amount} ≠ ${line.balanceAfter}`,
    ).toBe(true);
    if (older) expect(BigInt(line.id) > BigInt(older.id)).toBe(true);
  });
}

async function balanceShown(userId: string, accountCurrencyId: string) {
  const { data } = await server.as(userId).GET('/v1/customers/accounts');
  const found = data!.data.accounts.flatMap((account) => account.currencies).find((currency) => currency.id === accountCurrencyId);
  if (!found) throw new Error(`account currency ${accountCurrencyId} not listed`);
  return found;
}

describe('GET /v1/customers/accounts', () => {
  it("lists the caller's accounts with balances, and the partner bank's payroll currencies apart, without balances", async () => {
    const { data, response } = await server.as(ids.userA).GET('/v1/customers/accounts');
    expect(response.status).toBe(200);
    const list = data!.data;
    const own = list.accounts.flatMap((account) => account.currencies.map((currency) => ({ account, currency })));
    expect(own.map(({ currency }) => currency.id).sort()).toEqual([ids.acAUsd, ids.acAUsdc, ids.acAAed].sort());
    for (const { account, currency } of own) {
      const stored = await balancesOf(server.db, currency.id);
      expect(stored.balance.equals(currency.balance) && stored.available.equals(currency.available)).toBe(true);
      expect(currency.balance).toMatch(new RegExp(`\\.\\d{${currency.currency.decimals}}$|^\\d+$`));
      expect(currency.accountId).toBe(account.id);
      expect(currency.accountProvider).toBe(account.accountProvider);
    }
    expect(own.find(({ currency }) => currency.id === ids.acAUsd)!.currency).toMatchObject({ currency: { currencyCode: 'USD', decimals: 2 } });
    expect(list.payrollAccountCurrencies.map((option) => [option.id, option.currency.currencyCode, option.accountProvider])).toEqual([
      [ids.acPartnerAed, 'AED', 'PAYROLL_PARTNER_BANK'],
      [ids.acPartnerJpy, 'JPY', 'PAYROLL_PARTNER_BANK'],
    ]);
    expect(list.payrollAccountCurrencies.every((option) => !('balance' in option) && !('available' in option))).toBe(true);
  });

  it('customer B sees only its own account currency and the same payroll currencies', async () => {
    const list = (await server.as(ids.userB).GET('/v1/customers/accounts')).data!.data;
    expect(list.accounts.flatMap((account) => account.currencies.map((currency) => currency.id))).toEqual([ids.acBUsd]);
    expect(list.payrollAccountCurrencies.map((option) => option.id)).toEqual([ids.acPartnerAed, ids.acPartnerJpy]);
  });

  it('an admin token gets 403 FORBIDDEN', async () => {
    const { error, response } = await server.as(ids.admin).GET('/v1/customers/accounts');
    expect(response.status).toBe(403);
    expect(error!.error.code).toBe('FORBIDDEN');
  });
});

describe('POST /v1/admin/account-currencies/{accountCurrencyId}/fundings', () => {
  it('credits balance and available by the amount, as a FUNDING line of the statement', async () => {
    const before = await balancesOf(server.db, ids.acBUsd);
    const { data, response } = await fund(ids.acBUsd, '250.5', { reference: 'WIRE 2026-11-23 B-0001' });
    expect(response.status).toBe(201);
    const funding = data!.data;
    expect(funding).toMatchObject({
      accountCurrencyId: ids.acBUsd,
      amount: '250.50',
      currency: 'USD',
      reference: 'WIRE 2026-11-23 B-0001',
      createdAt: server.clock.now().toISOString(),
      balanceAfter: before.balance.plus('250.50').toFixed(2),
    });
    const after = await balancesOf(server.db, ids.acBUsd);
    expect(after.balance.minus(before.balance).toFixed(2)).toBe('250.50');
    expect(after.available.minus(before.available).toFixed(2)).toBe('250.50');
    expect((await balanceShown(ids.userB, ids.acBUsd)).balance).toBe(funding.balanceAfter);
    const [newest] = await wholeStatement(ids.acBUsd, {}, 1, ids.userB).then((lines) => lines.slice(0, 1));
    expect(newest).toMatchObject({ kind: 'FUNDING', amount: '250.50', balanceAfter: funding.balanceAfter, fundingId: funding.id, payrollRequestId: null });
  });

  it('replays a repeat with the same Idempotency-Key: one funding, one credit', async () => {
    const before = await balancesOf(server.db, ids.acBUsd);
    const first = await fund(ids.acBUsd, '10.00', { idempotencyKey: 'fund-b-once' });
    const again = await fund(ids.acBUsd, '10.00', { idempotencyKey: 'fund-b-once' });
    expect([first.response.status, again.response.status]).toEqual([201, 201]);
    expect(again.data!.data).toEqual(first.data!.data);
    expect((await balancesOf(server.db, ids.acBUsd)).balance.minus(before.balance).toFixed(2)).toBe('10.00');
    const reused = await fund(ids.acBUsd, '11.00', { idempotencyKey: 'fund-b-once' });
    expect(reused.response.status).toBe(422);
    expect(reused.error!.error.code).toBe('IDEMPOTENCY_KEY_REUSED');
  });

  it.each([
    ['0', 'AMOUNT_NOT_POSITIVE'],
    ['0.00', 'AMOUNT_NOT_POSITIVE'],
    ['1.001', 'TOO_MANY_DECIMALS'],
    ['999999999999999', 'AMOUNT_LIMIT_EXCEEDED'],
    ['-5', undefined], // the contract's pattern: no rule to name
    ['1e3', undefined],
  ])('refuses the amount %s with 400 VALIDATION_ERROR naming the field (and the rule: %s)', async (amount, reason) => {
    const before = await balancesOf(server.db, ids.acBUsd);
    const { error, response } = await fund(ids.acBUsd, amount);
    expect(response.status).toBe(400);
    expect(error!.error).toMatchObject({ code: 'VALIDATION_ERROR', field: '/amount' });
    expect(error!.error.reason).toBe(reason);
    expect((await balancesOf(server.db, ids.acBUsd)).balance.equals(before.balance)).toBe(true);
  });

  it.each(['', '   ', 'WIRE\n42', 'NUL\u0000'])('refuses the reference %j with 400 naming it', async (reference) => {
    const { error, response } = await server
      .as(ids.admin)
      .POST(FUNDINGS, { params: { path: { accountCurrencyId: ids.acBUsd } }, body: { amount: '1.00', reference } });
    expect(response.status).toBe(400);
    expect(error!.error).toMatchObject({ code: 'VALIDATION_ERROR', field: '/reference' });
  });

  it('a partner-bank account currency or an unknown id gets 404; a customer token gets 403', async () => {
    for (const accountCurrencyId of [ids.acPartnerAed, '7e570005-0000-4000-8000-000000009999']) {
      const { error, response } = await fund(accountCurrencyId, '1.00');
      expect(response.status).toBe(404);
      expect(error!.error).toEqual({ code: 'NOT_FOUND', message: expect.any(String) });
    }
    const { error, response } = await fund(ids.acAUsd, '1.00', { userId: ids.userA });
    expect(response.status).toBe(403);
    expect(error!.error.code).toBe('FORBIDDEN');
  });

  it('concurrent fundings leave a statement whose running balance is exact', async () => {
    await Promise.all(Array.from({ length: 12 }, (_, n) => fund(ids.acAUsdc, `${n + 1}.00000001`)));
    const lines = await wholeStatement(ids.acAUsdc);
    expectRunningBalance(lines);
    expect(lines[0]!.balanceAfter).toBe((await balanceShown(ids.userA, ids.acAUsdc)).balance);
    expect(lines.filter((line) => line.kind === 'FUNDING')).toHaveLength(12);
  });
});

describe('GET /v1/customers/account-currencies/{accountCurrencyId}/transactions', () => {
  it('after a whole payroll lifecycle, the running balance matches the balance at every line', async () => {
    const { created, estimate } = await estimateAndCreate(server.as(ids.userA), [
      { beneficiaryId: ids.beneficiaryA1, amount: '1000.00' },
      { beneficiaryId: ids.beneficiaryA2, amount: '1000.00', amountCurrencyType: 'PAYROLL' },
    ]);
    const requestId = created.data!.data.id;
    expect((await quote(server, requestId)).response.status).toBe(200);
    expect((await accept(server, requestId)).response.status).toBe(200);
    await drain(worker);
    expect((await recordFx(server, requestId)).response.status).toBe(200);
    await drain(worker);
    expect((await readRequest(server, requestId)).status).toBe('COMPLETED');

    const lines = await wholeStatement(ids.acAUsd);
    expectRunningBalance(lines);
    expect(lines[0]!.balanceAfter).toBe((await balanceShown(ids.userA, ids.acAUsd)).balance);
    expect(lines.at(-1)!.kind).toBe('OPENING_BALANCE');
    const ofRequest = lines.filter((line) => line.payrollRequestId === requestId);
    // Created (the estimate's total), then the accept's top-up of the dearer quote (3.6530 < 3.6541375).
    expect(ofRequest.map((line) => [line.kind, line.amount])).toEqual([
      ['PAYROLL_ADJUSTMENT', '-0.08'],
      ['PAYROLL_DEBIT', `-${estimate.totalAmount}`],
    ]);
    // Paged two at a time, the same lines in the same order.
    expect(await wholeStatement(ids.acAUsd, {}, 2)).toEqual(lines);
  });

  it('filters by from (inclusive) and to (exclusive) on createdAt, and pages within the filter', async () => {
    server.clock.advance(86_400);
    const boundary = server.clock.now().toISOString();
    const later = [(await fund(ids.acAAed, '1.00')).data!.data, (await fund(ids.acAAed, '2.00')).data!.data, (await fund(ids.acAAed, '3.00')).data!.data];
    const all = await wholeStatement(ids.acAAed);
    const since = await wholeStatement(ids.acAAed, { from: boundary }, 2);
    expect(since.map((line) => line.fundingId)).toEqual(later.map((funding) => funding.id).reverse());
    const until = await wholeStatement(ids.acAAed, { to: boundary });
    expect(until).toEqual(all.slice(3));
    expect(until.every((line) => line.createdAt < boundary)).toBe(true);
    const atBoundary = await wholeStatement(ids.acAAed, { from: boundary, to: new Date(Date.parse(boundary) + 1).toISOString() }, 1);
    expect(atBoundary).toEqual(since);
  });

  it('refuses to ≤ from, a malformed cursor and a cursor of other filters with 400 naming them', async () => {
    const at = server.clock.now().toISOString();
    const bad = async (query: Record<string, string | number>) => {
      const { error, response } = await server.as(ids.userA).GET(STATEMENT, { params: { path: { accountCurrencyId: ids.acAAed }, query } });
      expect(response.status).toBe(400);
      expect(error!.error.code).toBe('VALIDATION_ERROR');
      return error!.error.field;
    };
    expect(await bad({ from: at, to: at })).toBe('to');
    expect(await bad({ cursor: 'not-a-cursor' })).toBe('cursor');
    expect(await bad({ cursor: Buffer.from('null').toString('base64url') })).toBe('cursor');
    const first = await server.as(ids.userA).GET(STATEMENT, { params: { path: { accountCurrencyId: ids.acAAed }, query: { limit: 1 } } });
    expect(await bad({ cursor: pageOf(first.data, first.error).nextCursor!, from: '2020-01-01T00:00:00Z' })).toBe('cursor');
    expect(await bad({ limit: 0 })).toBe('limit');
    expect(await bad({ from: '2026-02-30T00:00:00Z' })).toBe('from');
  });

  it('answers Accept: text/csv with the same statement as CSV, whole, for the range', async () => {
    const filter = { from: '2000-01-01T00:00:00.000Z', to: new Date(server.clock.now().getTime() + 1000).toISOString() };
    const json = await wholeStatement(ids.acAUsd, filter, 3);
    const { data, response } = await server.as(ids.userA).GET(STATEMENT, {
      params: { path: { accountCurrencyId: ids.acAUsd }, query: filter },
      headers: { Accept: 'text/csv' },
      parseAs: 'text',
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    if (typeof data !== 'string') throw new Error('expected CSV text');
    const text = data;
    expect(text.split('\r\n')[0]).toBe('id,kind,amount,balanceAfter,createdAt,payrollRequestId,transferId,payoutId,fundingId');
    const rows = parse(text, { columns: true }) as Record<string, string>[];
    expect(rows).toEqual(json.map((line) => Object.fromEntries(Object.entries(line).map(([key, value]) => [key, value ?? '']))));
    expect(rows.length).toBeGreaterThan(3);
  });

  it('GET …/transactions.csv (exportAccountTransactions) answers the same CSV, typed as text, whatever the Accept', async () => {
    const filter = { from: '2000-01-01T00:00:00.000Z', to: new Date(server.clock.now().getTime() + 1000).toISOString() };
    const accepted = await server.as(ids.userA).GET(STATEMENT, {
      params: { path: { accountCurrencyId: ids.acAUsd }, query: filter },
      headers: { Accept: 'text/csv' },
      parseAs: 'text',
    });
    const exported = await server.as(ids.userA).GET('/v1/customers/account-currencies/{accountCurrencyId}/transactions.csv', {
      params: { path: { accountCurrencyId: ids.acAUsd }, query: filter },
      parseAs: 'text',
    });
    expect(exported.response.status).toBe(200);
    expect(exported.response.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    const text: string | undefined = exported.data;
    expect(text).toBe(accepted.data);
    const other = await server
      .as(ids.userB)
      .GET('/v1/customers/account-currencies/{accountCurrencyId}/transactions.csv', { params: { path: { accountCurrencyId: ids.acAUsd } } });
    expect(other.response.status).toBe(404);
  });

  it('refuses limit and cursor with text/csv; any other Accept gets JSON', async () => {
    const { error, response } = await server.as(ids.userA).GET(STATEMENT, {
      params: { path: { accountCurrencyId: ids.acAUsd }, query: { limit: 5 } },
      headers: { Accept: 'text/csv' },
    });
    expect(response.status).toBe(400);
    expect(error!.error).toMatchObject({ code: 'VALIDATION_ERROR', field: 'limit' });
    const xml = await server.as(ids.userA).GET(STATEMENT, { params: { path: { accountCurrencyId: ids.acAUsd } }, headers: { Accept: 'application/xml' } });
    expect(xml.response.status).toBe(200);
    expect(xml.response.headers.get('content-type')).toContain('application/json');
  });

  it("another customer's account currency, or the partner bank's, gets 404 in JSON and CSV; an admin 403", async () => {
    for (const [userId, accountCurrencyId] of [
      [ids.userB, ids.acAUsd],
      [ids.userA, ids.acBUsd],
      [ids.userA, ids.acPartnerAed],
    ] as const) {
      for (const Accept of ['application/json', 'text/csv']) {
        const { error, response } = await server.as(userId).GET(STATEMENT, { params: { path: { accountCurrencyId } }, headers: { Accept } });
        expect(response.status).toBe(404);
        expect(error!.error).toEqual({ code: 'NOT_FOUND', message: expect.any(String) });
      }
    }
    const { response } = await server.as(ids.admin).GET(STATEMENT, { params: { path: { accountCurrencyId: ids.acAUsd } } });
    expect(response.status).toBe(403);
  });

  it('refuses a CSV range of more than 10,000 postings with 400 (nothing truncated) and serves a narrower range whole', async () => {
    // 10,001 opening balances of 0.01 AED to A's AED account currency, one a second from 2001-01-01,
    // posted by the ledger's one writer (as the world loader replays history at its own dates): each
    // balanced by EXTERNAL, with its running balance. The tables grow from a few rows to 20,000 here,
    // so they are analysed afterwards: the plans this file's sessions kept while they were small
    // (foreign-key checks, the statement queries) scan whole tables, and a new analysis makes
    // PostgreSQL plan them again (else this test takes many times longer).
    const opening = (n: number): DatedEntry => ({
      entry: openingBalance({ kind: 'CUSTOMER', accountCurrencyId: ids.acAAed }, 'AED', new Money('0.01')),
      at: new Date(Date.UTC(2001, 0, 1, 0, 0, n)),
    });
    const entries = Array.from({ length: 10_001 }, (_, i) => opening(i + 1));
    await server.db.transaction((tx) => postJournalEntries(tx, entries));
    await server.db.query('ANALYZE journal_entries');
    await server.db.query('ANALYZE postings');
    const csv = (query: StatementFilter) =>
      server.as(ids.userA).GET(STATEMENT, { params: { path: { accountCurrencyId: ids.acAAed }, query }, headers: { Accept: 'text/csv' }, parseAs: 'text' });
    const wide = await csv({});
    expect(wide.response.status).toBe(400);
    expect(wide.error!.error).toEqual({ code: 'VALIDATION_ERROR', message: expect.any(String), reason: 'STATEMENT_TOO_LARGE' });
    const narrow = await csv({ from: '2001-01-01T00:00:01Z', to: '2001-01-01T00:00:11Z' });
    expect(narrow.response.status).toBe(200);
    if (typeof narrow.data !== 'string') throw new Error('expected CSV text');
    const rows = parse(narrow.data, { columns: true }) as Record<string, string>[];
    expect(rows.map((row) => row.createdAt)).toEqual(Array.from({ length: 10 }, (_, i) => new Date(Date.UTC(2001, 0, 1, 0, 0, 10 - i)).toISOString()));
    expect(rows.every((row) => row.amount === '0.01' && row.kind === 'OPENING_BALANCE')).toBe(true);
    // The newest page chains, and ends at the balance.
    const newest = await server.as(ids.userA).GET(STATEMENT, { params: { path: { accountCurrencyId: ids.acAAed }, query: { limit: 100 } } });
    const page = pageOf(newest.data, newest.error).items;
    expectRunningBalance(page.slice(0, -1).concat({ ...page.at(-1)!, amount: page.at(-1)!.balanceAfter }));
    expect(page[0]!.balanceAfter).toBe((await balanceShown(ids.userA, ids.acAAed)).balance);
  }, 120_000);
});
