// The operator's view of the bank's books through the typed client: the statements reconciled and
// the exceptions (pagination, filters), their resolution with a note, and customers refused.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BankWorld, apply, demo, entry, message, report, startBankWorld } from '../support/bankBooks.js';

let world: BankWorld;
let statementMsgIds: string[];

beforeAll(async () => {
  world = await startBankWorld();
  // Four exceptions from a notification: three unknown debits, one unexpected credit.
  const notification = message('camt.054', [
    report([
      entry('DBIT', '10.00', { endToEndId: 'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa', reference: 'U-1' }),
      entry('DBIT', '11.00', { endToEndId: 'bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb', reference: 'U-2' }),
      entry('DBIT', '12.00', { reference: 'U-3' }),
      entry('CRDT', '13.00', { reference: 'C-1' }),
    ]),
  ]);
  expect(await apply(world, notification)).toEqual({ kind: 'applied', entries: 4, exceptions: 4 });
  // Two statements, each drifting from the ledger.
  const statements = [
    message('camt.053', [report([], { amount: '1.00', date: '2026-11-20' })]),
    message('camt.053', [report([], { amount: '2.00', date: '2026-11-21' })]),
  ];
  for (const statement of statements) {
    world.server.clock.advance(1);
    await apply(world, statement);
  }
  statementMsgIds = statements.map((statement) => statement.msgId);
}, 120_000);
afterAll(() => world?.close());

const admin = () => world.server.as(demo.admin);
const customer = () => world.server.as(demo.dana);

describe('GET /v1/admin/bank/statements', () => {
  it('lists the statements newest first, a page at a time', async () => {
    const first = await admin().GET('/v1/admin/bank/statements', { params: { query: { limit: 1 } } });
    expect(first.response.status).toBe(200);
    const page = first.data!.data;
    expect(page.items).toHaveLength(1);
    expect(page.items[0]).toMatchObject({
      messageId: statementMsgIds[1],
      accountCurrencyId: demo.partnerAed,
      iban: demo.partnerIban,
      currencyCode: 'AED',
      date: '2026-11-21',
      closingBalance: '2.00',
      entryCount: 0,
      status: 'EXCEPTIONS',
      exceptionCount: 1,
    });
    const next = await admin().GET('/v1/admin/bank/statements', { params: { query: { limit: 1, cursor: page.nextCursor! } } });
    expect(next.data!.data.items.map((item) => item.messageId)).toEqual([statementMsgIds[0]]);
    expect(next.data!.data.nextCursor).toBeNull();
  });

  it('refuses a customer', async () => {
    const refused = await customer().GET('/v1/admin/bank/statements', {});
    expect(refused.response.status).toBe(403);
    expect(refused.error).toMatchObject({ success: false, error: { code: 'FORBIDDEN' } });
  });
});

describe('GET /v1/admin/bank/exceptions', () => {
  it('pages through the exceptions and filters them by status and kind', async () => {
    const all = await admin().GET('/v1/admin/bank/exceptions', { params: { query: { limit: 100 } } });
    expect(all.data!.data.items.map((item) => item.kind).sort()).toEqual([
      'BALANCE_DRIFT',
      'BALANCE_DRIFT',
      'UNEXPECTED_CREDIT',
      'UNKNOWN_REFERENCE',
      'UNKNOWN_REFERENCE',
      'UNKNOWN_REFERENCE',
    ]);

    const seen: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await admin().GET('/v1/admin/bank/exceptions', {
        params: { query: { limit: 2, kind: 'UNKNOWN_REFERENCE', status: 'OPEN', ...(cursor && { cursor }) } },
      });
      expect(page.response.status).toBe(200);
      seen.push(...page.data!.data.items.map((item) => item.bankReference!));
      cursor = page.data!.data.nextCursor ?? undefined;
    } while (cursor);
    expect(seen.sort()).toEqual(['U-1', 'U-2', 'U-3']);

    const unknown = all.data!.data.items.find((item) => item.bankReference === 'U-1')!;
    expect(unknown).toMatchObject({
      kind: 'UNKNOWN_REFERENCE',
      status: 'OPEN',
      endToEndId: 'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa',
      creditDebit: 'DBIT',
      bookedAmount: '10.00',
      currencyCode: 'AED',
    });
    expect(unknown).not.toHaveProperty('resolution');

    const first = await admin().GET('/v1/admin/bank/exceptions', { params: { query: { limit: 1, kind: 'UNKNOWN_REFERENCE' } } });
    const mismatched = await admin().GET('/v1/admin/bank/exceptions', {
      params: { query: { limit: 1, kind: 'BALANCE_DRIFT', cursor: first.data!.data.nextCursor! } },
    });
    expect(mismatched.response.status).toBe(400);
    expect(mismatched.error).toMatchObject({ error: { code: 'VALIDATION_ERROR' } });
  });

  it('refuses a customer', async () => {
    expect((await customer().GET('/v1/admin/bank/exceptions', {})).response.status).toBe(403);
  });
});

describe('POST /v1/admin/bank/exceptions/{exceptionId}/resolve', () => {
  it('resolves an open exception with a note, who and when; a second resolution is refused; nothing moves', async () => {
    const open = await admin().GET('/v1/admin/bank/exceptions', { params: { query: { kind: 'UNEXPECTED_CREDIT', status: 'OPEN' } } });
    const exceptionId = open.data!.data.items[0]!.id;
    const before = await world.server.db.query('SELECT balance::text FROM account_currencies ORDER BY id');
    const path = { params: { path: { exceptionId } } };

    expect((await customer().POST('/v1/admin/bank/exceptions/{exceptionId}/resolve', { ...path, body: { note: 'mine' } })).response.status).toBe(403);
    expect((await admin().POST('/v1/admin/bank/exceptions/{exceptionId}/resolve', { ...path, body: { note: '' } })).response.status).toBe(400);

    const resolved = await admin().POST('/v1/admin/bank/exceptions/{exceptionId}/resolve', {
      ...path,
      body: { note: 'Interest credited by the bank; booked by hand' },
    });
    expect(resolved.response.status).toBe(200);
    expect(resolved.data!.data).toMatchObject({
      id: exceptionId,
      status: 'RESOLVED',
      resolution: {
        note: 'Interest credited by the bank; booked by hand',
        resolvedBy: 'OPERATOR',
        resolvedByUserId: demo.admin,
        resolvedAt: world.server.clock.now().toISOString(),
      },
    });
    const again = await admin().POST('/v1/admin/bank/exceptions/{exceptionId}/resolve', { ...path, body: { note: 'again' } });
    expect(again.response.status).toBe(409);
    expect(again.error).toMatchObject({ error: { code: 'INVALID_STATE' } });
    const missing = await admin().POST('/v1/admin/bank/exceptions/{exceptionId}/resolve', {
      params: { path: { exceptionId: '5d0c6a3e-7b2f-4c1e-9a8d-2f3b4c5d6e7f' } },
      body: { note: 'none' },
    });
    expect(missing.response.status).toBe(404);

    const resolvedList = await admin().GET('/v1/admin/bank/exceptions', { params: { query: { status: 'RESOLVED' } } });
    expect(resolvedList.data!.data.items.map((item) => item.id)).toEqual([exceptionId]);
    // One exception by its id, resolution included, exactly as the list gives it.
    const one = await admin().GET('/v1/admin/bank/exceptions/{exceptionId}', path);
    expect(one.data!.data).toEqual(resolvedList.data!.data.items[0]);
    expect((await customer().GET('/v1/admin/bank/exceptions/{exceptionId}', path)).response.status).toBe(403);
    const unknown = await admin().GET('/v1/admin/bank/exceptions/{exceptionId}', { params: { path: { exceptionId: '5d0c6a3e-7b2f-4c1e-9a8d-2f3b4c5d6e7f' } } });
    expect(unknown.error).toMatchObject({ error: { code: 'NOT_FOUND' } });
    expect(await world.server.db.query('SELECT balance::text FROM account_currencies ORDER BY id')).toEqual(before);
  });
});
