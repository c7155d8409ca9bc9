// The bank simulator plays the bank's books: a camt.054 booking of each settled payment (a charge
// with it when asked), a camt.054 return of each payment to a RETURN… reference, and per account and
// period a camt.053 statement whose closing balance is its opening one moved by its entries. Every
// file it writes validates against its XSD.
import { mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { answerPaymentFile } from '../../../src/adapters/bank/iso20022/bankSimulator.js';
import { parseBankToCustomer } from '../../../src/adapters/bank/iso20022/camtParse.js';
import { buildPain001 } from '../../../src/adapters/bank/iso20022/pain001.js';
import { parsePain002 } from '../../../src/adapters/bank/iso20022/pain002.js';
import { bookingNotification, returnNotification } from '../../../src/adapters/bank/iso20022/simulatedBookings.js';
import { SimulatedStatements } from '../../../src/adapters/bank/iso20022/simulatedStatements.js';
import { xsdErrors } from '../../../src/adapters/bank/iso20022/xsd.js';
import { payoutBatch, payoutItem } from './fixtures.js';

const now = new Date('2026-11-26T10:00:00Z');
const account = { iban: 'AE420260001015333439101', currency: 'AED' };
const e2e = (n: number) => `7b1e0009000040008000${String(n).padStart(12, '0')}`;

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'simulated-books-'));
  return () => rm(dir, { recursive: true, force: true });
});

describe('answerPaymentFile: what the bank executes', () => {
  it('settles a RETURN… payment (ACSC) and books it to come back; a FAIL… payment is rejected and never booked', async () => {
    const batch = payoutBatch([
      payoutItem(0),
      payoutItem(1, { beneficiaryReference: 'FAIL-ACCOUNT-CLOSED' }),
      payoutItem(2, { beneficiaryReference: 'RETURN-ACCOUNT-CLOSED' }),
    ]);
    const answer = await answerPaymentFile(buildPain001(batch, { createdAt: now, initiatingParty: 'Payroll Fee Service' }).xml, () => false, now);
    expect(parsePain002(answer.settled!.xml).transactions.map((transaction) => transaction.status.code)).toEqual(['ACSC', 'RJCT', 'ACSC']);
    expect(answer.executed).toEqual({
      account,
      payments: [
        { endToEndId: e2e(0), amount: '1000.25', returned: false },
        { endToEndId: e2e(2), amount: '1002.25', returned: true },
      ],
    });
  });
});

describe('the simulated bank’s notifications (camt.054)', () => {
  it('books each payment as a DBIT entry under its EndToEndId, the charge included in the entry on every n-th', async () => {
    const payments = [0, 1, 2].map((n) => ({ endToEndId: e2e(n), amount: `${1000 + n}.25` }));
    const file = bookingNotification({ account, originalMsgId: 'ba7c4', payments, bookedAt: now, charge: '10', chargeEvery: 2 });
    expect(file.msgId).toBe('Nba7c4');
    expect(await xsdErrors(file.xml, 'camt.054.001.08')).toEqual([]);
    const [report] = parseBankToCustomer(file.xml).reports;
    expect(report!.account).toEqual({ ...account, otherId: null });
    expect(
      report!.entries.map((entry) => [entry.creditDebit, entry.amount, entry.charges, entry.transactions[0]!.endToEndId, entry.transactions[0]!.amount]),
    ).toEqual([
      ['DBIT', '1010.25', '10.00', e2e(0), '1000.25'],
      ['DBIT', '1001.25', null, e2e(1), '1001.25'],
      ['DBIT', '1012.25', '10.00', e2e(2), '1002.25'],
    ]);
    expect(report!.entries[0]).toMatchObject({ status: 'BOOK', bookingDate: '2026-11-26T10:00:00Z', accountServicerReference: `B${e2e(0)}` });
  });

  it('returns a payment as a CRDT entry with AC04 and the original EndToEndId', async () => {
    const file = returnNotification(account, { endToEndId: e2e(2), amount: '1002.25' }, now);
    expect(await xsdErrors(file.xml, 'camt.054.001.08')).toEqual([]);
    const [entry] = parseBankToCustomer(file.xml).reports[0]!.entries;
    expect(entry).toMatchObject({ creditDebit: 'CRDT', amount: '1002.25', reversal: false, accountServicerReference: `R${e2e(2)}` });
    expect(entry!.transactions[0]).toMatchObject({ endToEndId: e2e(2), returnReason: { code: 'AC04', text: expect.stringContaining('closed') } });
  });
});

describe('SimulatedStatements: the statement (camt.053) of each period', () => {
  const hour = 3600_000;

  it('states each ended period that moved money, its closing balance the next one’s opening, each entry once', async () => {
    const statements = new SimulatedStatements(dir, hour, undefined);
    const payments = [0, 1].map((n) => ({ endToEndId: e2e(n), amount: '500.00' }));
    const booking = bookingNotification({ account, originalMsgId: 'b1', payments, bookedAt: now, charge: '2.50' });
    await statements.record(parseBankToCustomer(booking.xml));
    // Sent again after a crash: noted once.
    await statements.record(parseBankToCustomer(booking.xml));
    expect(await statements.due(new Date(now.getTime() + 10 * 60_000))).toEqual([]);

    const [first, ...none] = await statements.due(new Date('2026-11-26T11:00:01Z'));
    expect(none).toEqual([]);
    expect(await xsdErrors(first!.xml, 'camt.053.001.08')).toEqual([]);
    const firstReport = parseBankToCustomer(first!.xml).reports[0]!;
    expect(firstReport.period).toEqual({ from: '2026-11-26T10:00:00Z', to: '2026-11-26T10:59:59Z' });
    expect(firstReport.balances.map((balance) => [balance.type, balance.amount, balance.creditDebit])).toEqual([
      ['OPBD', '0.00', 'CRDT'],
      ['CLBD', '1005.00', 'DBIT'],
    ]);
    expect(firstReport.entries.map((entry) => entry.transactions[0]!.endToEndId)).toEqual([e2e(0), e2e(1)]);

    // A quiet hour states nothing; the return two hours later opens at the last closing balance.
    await statements.record(parseBankToCustomer(returnNotification(account, payments[1]!, new Date('2026-11-26T12:30:00Z')).xml));
    const [second] = await statements.due(new Date('2026-11-26T13:00:00Z'));
    const secondReport = parseBankToCustomer(second!.xml).reports[0]!;
    expect(secondReport.period!.from).toBe('2026-11-26T12:00:00Z');
    expect(secondReport.balances.map((balance) => [balance.type, balance.amount, balance.creditDebit])).toEqual([
      ['OPBD', '1005.00', 'DBIT'],
      ['CLBD', '505.00', 'DBIT'],
    ]);
    expect(await statements.due(new Date('2026-11-26T18:00:00Z'))).toEqual([]);
  });
  it('keeps its journal and state owner-only (0600), in a folder it creates 0700', async () => {
    const books = join(dir, 'books');
    const statements = new SimulatedStatements(books, hour, undefined);
    const payments = [{ endToEndId: e2e(0), amount: '500.00' }];
    await statements.record(parseBankToCustomer(bookingNotification({ account, originalMsgId: 'b1', payments, bookedAt: now }).xml));
    expect(await statements.due(new Date('2026-11-26T11:00:01Z'))).toHaveLength(1);
    const modeOf = async (path: string) => (await stat(path)).mode & 0o777;
    expect(await modeOf(books)).toBe(0o700);
    const files = await readdir(books);
    expect(files.length).toBeGreaterThan(0);
    for (const file of files) expect([file, await modeOf(join(books, file))]).toEqual([file, 0o600]);
  });
});
