// Reading what the bank booked: camt.054 notifications and camt.053 statements as the bank writes
// them (fixtures in files/, valid against the vendored XSDs), and as our own builder writes them.
import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { buildCamt } from '../../../src/adapters/bank/iso20022/camtBuild.js';
import { CamtError, parseBankToCustomer } from '../../../src/adapters/bank/iso20022/camtParse.js';
import { xsdErrors } from '../../../src/adapters/bank/iso20022/xsd.js';
import type { BankToCustomerMessage } from '../../../src/domain/bank/bankBooks.js';

const fixture = (name: string) => readFile(new URL(`./files/${name}`, import.meta.url));

describe('parseBankToCustomer: camt.054.001.08', () => {
  it('reads a booking with its charges, a return with its reason (AC04) and a reversal, amounts as written', async () => {
    const bytes = await fixture('camt054-bookings.xml');
    expect(await xsdErrors(bytes, 'camt.054.001.08')).toEqual([]);
    const message = parseBankToCustomer(bytes);
    expect(message).toMatchObject({ kind: 'camt.054', msgId: 'NTF20261126-0001', createdAt: '2026-11-26T14:05:00+04:00' });
    expect(message.reports).toHaveLength(1);
    const [report] = message.reports;
    expect(report).toMatchObject({
      reportId: 'NTF20261126-0001-1',
      account: { iban: 'AE420260001015333439101', otherId: null, currency: 'AED' },
      period: null,
      balances: [],
    });
    const [booking, returned, reversal] = report!.entries;
    expect(booking).toEqual({
      entryReference: '1',
      accountServicerReference: 'ENBD-2026112600000001',
      amount: '1015.25',
      currency: 'AED',
      creditDebit: 'DBIT',
      reversal: false,
      status: 'BOOK',
      bookingDate: '2026-11-26',
      valueDate: '2026-11-26',
      // No total given: the records summed.
      charges: '15',
      transactions: [
        {
          endToEndId: '7b1e0009000040008000000000000000',
          accountServicerReference: 'ENBD-TX-0001',
          amount: '1000.25',
          currency: 'AED',
          creditDebit: 'DBIT',
          returnReason: null,
          charges: null,
        },
      ],
    });
    expect(returned).toMatchObject({ creditDebit: 'CRDT', reversal: false, bookingDate: '2026-11-26T13:58:12+04:00', charges: null });
    expect(returned!.transactions).toEqual([
      {
        endToEndId: '7b1e0009000040008000000000000001',
        accountServicerReference: null,
        amount: '1001.25',
        currency: 'AED',
        creditDebit: null,
        returnReason: { code: 'AC04', text: 'Account closed by the beneficiary & its bank' },
        charges: null,
      },
    ]);
    expect(reversal).toMatchObject({ reversal: true, creditDebit: 'CRDT', amount: '1002.25', valueDate: null });
    expect(reversal!.transactions[0]).toMatchObject({ endToEndId: '7b1e0009000040008000000000000002', amount: null, returnReason: null });
  });
});

describe('parseBankToCustomer: camt.053.001.08', () => {
  it('reads several statements with their opening and closing balances and the day’s entries', async () => {
    const bytes = await fixture('camt053-statements.xml');
    expect(await xsdErrors(bytes, 'camt.053.001.08')).toEqual([]);
    const message = parseBankToCustomer(bytes.toString('utf8'));
    expect(message).toMatchObject({ kind: 'camt.053', msgId: 'STMT20261126' });
    const [aed, usd] = message.reports;
    expect(aed).toMatchObject({
      reportId: 'STMT20261126-AED',
      period: { from: '2026-11-26T00:00:00Z', to: '2026-11-26T23:59:59Z' },
      balances: [
        { type: 'OPBD', amount: '250000.00', currency: 'AED', creditDebit: 'CRDT', date: '2026-11-26' },
        { type: 'CLBD', amount: '298984.75', currency: 'AED', creditDebit: 'CRDT', date: '2026-11-26' },
      ],
    });
    expect(aed!.entries.map((entry) => [entry.creditDebit, entry.amount, entry.charges, entry.transactions[0]!.endToEndId])).toEqual([
      ['CRDT', '50000.00', null, '7b1e0012000040008000000000000001'],
      ['DBIT', '1015.25', '15.00', '7b1e0009000040008000000000000000'],
    ]);
    expect(usd).toMatchObject({
      account: { iban: null, otherId: '0011223344', currency: 'USD' },
      period: null,
      balances: [
        { type: 'OPBD', amount: '12.5', creditDebit: 'DBIT' },
        { type: 'CLBD', amount: '12.5', date: '2026-11-26T23:59:59Z' },
      ],
      entries: [],
    });
  });

  it('reads what the builder writes, which is valid against the XSD', async () => {
    const message: BankToCustomerMessage = {
      kind: 'camt.053',
      msgId: 'S1',
      createdAt: '2026-11-26T23:59:59Z',
      reports: [
        {
          reportId: 'S1-1',
          account: { iban: 'AE420260001015333439101', otherId: null, currency: 'AED' },
          period: { from: '2026-11-26T00:00:00Z', to: '2026-11-26T23:59:59Z' },
          balances: [
            { type: 'OPBD', amount: '100.00', currency: 'AED', creditDebit: 'CRDT', date: '2026-11-26' },
            { type: 'CLBD', amount: '89.50', currency: 'AED', creditDebit: 'CRDT', date: '2026-11-26' },
          ],
          entries: [
            {
              entryReference: null,
              accountServicerReference: 'SIM-1',
              amount: '10.50',
              currency: 'AED',
              creditDebit: 'DBIT',
              reversal: false,
              status: 'BOOK',
              bookingDate: '2026-11-26',
              valueDate: '2026-11-26',
              charges: '0.50',
              transactions: [
                {
                  endToEndId: 'e2e-1',
                  accountServicerReference: 'SIM-1',
                  amount: '10.00',
                  currency: 'AED',
                  creditDebit: 'DBIT',
                  returnReason: null,
                  charges: null,
                },
              ],
            },
          ],
        },
        {
          reportId: 'S1-2',
          account: { iban: null, otherId: 'ACC <&> 1', currency: null },
          period: null,
          balances: [{ type: 'CLBD', amount: '0', currency: 'EUR', creditDebit: 'CRDT', date: '2026-11-26T23:59:59Z' }],
          entries: [],
        },
      ],
    };
    const xml = buildCamt(message);
    expect(await xsdErrors(xml, 'camt.053.001.08')).toEqual([]);
    expect(parseBankToCustomer(xml)).toEqual(message);
  });
});

describe('parseBankToCustomer: what it refuses', () => {
  it('throws CamtError for a document that is not well-formed or not a bank-to-customer message', () => {
    expect(() => parseBankToCustomer('<Document><BkToCstmrStmt>')).toThrow(CamtError);
    expect(() => parseBankToCustomer('<Document xmlns="urn:iso:std:iso:20022:tech:xsd:pain.002.001.11"><CstmrPmtStsRpt/></Document>')).toThrow(CamtError);
  });

  it('an invalid or truncated file is refused by the XSD with the reason', async () => {
    const invalid = (await fixture('camt054-bookings.xml')).toString('utf8').replace('<ns2:Cd>BOOK</ns2:Cd>', '<ns2:Cd></ns2:Cd>');
    const errors = await xsdErrors(Buffer.from(invalid), 'camt.054.001.08');
    expect(errors[0]).toMatch(/Cd/);
    expect(await xsdErrors('<Document><not-closed>', 'camt.053.001.08')).not.toEqual([]);
  });
});
