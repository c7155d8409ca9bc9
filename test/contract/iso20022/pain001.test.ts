// The pain.001.001.10 builder: every file valid against the official XSD, its control figures equal
// to the payouts, identifiers that fit Max35Text, and texts escaped and cut to what the schema allows.
import { Decimal } from 'decimal.js';
import { describe, expect, it } from 'vitest';
import { Pain001Error, buildPain001, endToEndIdOf, messageIdOf } from '../../../src/adapters/bank/iso20022/pain001.js';
import { maxText } from '../../../src/adapters/bank/iso20022/text.js';
import { child, children, parseXml, text } from '../../../src/adapters/bank/iso20022/xml.js';
import { xsdErrors } from '../../../src/adapters/bank/iso20022/xsd.js';
import { payoutBatch, payoutItem } from './fixtures.js';

const options = { createdAt: new Date('2026-11-25T10:00:00.123Z'), initiatingParty: 'Payroll Fee Service' };

function paymentInfo(xml: string) {
  const initiation = child(child(parseXml(xml), 'Document'), 'CstmrCdtTrfInitn');
  return { header: child(initiation, 'GrpHdr'), info: children(initiation, 'PmtInf')[0] };
}

describe('buildPain001', () => {
  it('writes a file valid against pain.001.001.10.xsd whose NbOfTxs and CtrlSum equal the payouts', async () => {
    const items = Array.from({ length: 25 }, (_, n) => payoutItem(n));
    const { xml, msgId } = buildPain001(payoutBatch(items), options);
    expect(await xsdErrors(xml, 'pain.001.001.10')).toEqual([]);
    const { header, info } = paymentInfo(xml);
    const sum = items.reduce((total, item) => total.plus(item.amount), new Decimal(0));
    expect(msgId).toBe('7b1e0010000040008000000000000001');
    expect(text(header, 'MsgId')).toBe(msgId);
    expect(text(header, 'CreDtTm')).toBe('2026-11-25T10:00:00Z');
    expect(text(header, 'NbOfTxs')).toBe('25');
    expect(new Decimal(text(header, 'CtrlSum')!).equals(sum)).toBe(true);
    expect(text(info, 'NbOfTxs')).toBe('25');
    const transactions = children(info, 'CdtTrfTxInf');
    expect(transactions.map((transaction) => text(child(transaction, 'PmtId'), 'EndToEndId'))).toEqual(items.map((item) => endToEndIdOf(item.transferId)));
    expect(transactions.map((transaction) => text(child(transaction, 'Amt'), 'InstdAmt'))).toEqual(items.map((item) => item.amount));
    expect(text(child(child(info, 'DbtrAcct'), 'Id'), 'IBAN')).toBe('AE420260001015333439101');
    expect(text(child(info, 'ReqdExctnDt'), 'Dt')).toBe('2026-11-26');
  });

  it('derives MsgId and EndToEndId from the UUIDs, within Max35Text', () => {
    expect(messageIdOf('7B1E0010-0000-4000-8000-000000000001')).toBe('7b1e0010000040008000000000000001');
    expect(endToEndIdOf('7b1e0009-0000-4000-8000-000000000001')).toHaveLength(32);
  });

  it('escapes and cuts names and references, maps purpose codes and account numbers, and stays valid', async () => {
    const item = payoutItem(1, {
      creditor: { name: `A & B <Co> "x" ${'é'.repeat(200)}\u0001`, iban: null, accountNumber: '0123456789', bankName: 'Mashreq', bic: '12345600' },
      purposeCode: 'SAL',
      beneficiaryReference: `FAIL & <ref> ${'x'.repeat(300)}`,
    });
    const { xml } = buildPain001(payoutBatch([item, payoutItem(2)]), options);
    expect(await xsdErrors(xml, 'pain.001.001.10')).toEqual([]);
    expect(xml).toContain('A &amp; B &lt;Co&gt; &quot;x&quot;');
    const [first, second] = children(paymentInfo(xml).info, 'CdtTrfTxInf');
    expect(Array.from(text(child(first, 'Cdtr'), 'Nm')!)).toHaveLength(140);
    expect(text(child(child(child(first, 'CdtrAcct'), 'Id'), 'Othr'), 'Id')).toBe('0123456789');
    // A BIC the schema's pattern refuses is left out; the bank name stays.
    expect(child(child(first, 'CdtrAgt'), 'FinInstnId')).toEqual({ Nm: 'Mashreq' });
    // The API's SAL is ISO 20022's SALA; a code with no ISO equivalent is the bank's own.
    expect(text(child(first, 'Purp'), 'Cd')).toBe('SALA');
    expect(text(child(second, 'Purp'), 'Prtry')).toBe('FCISS');
    expect(children(child(first, 'RmtInf'), 'Ustrd')[0]).toHaveLength(140);
  });

  it('refuses a batch it cannot write: no debtor IBAN or BIC, no payouts, a currency outside ISO 4217', () => {
    const debtor = payoutBatch([]).debtor;
    expect(() => buildPain001(payoutBatch([payoutItem(1)], { debtor: { ...debtor, iban: null } }), options)).toThrow(Pain001Error);
    expect(() => buildPain001(payoutBatch([]), options)).toThrow(Pain001Error);
    expect(() => buildPain001(payoutBatch([payoutItem(1)], { currencyCode: 'USDC' }), options)).toThrow(Pain001Error);
  });
});

describe('maxText', () => {
  it('counts characters, not UTF-16 units, and drops what XML 1.0 forbids', () => {
    expect(maxText('😀'.repeat(40), 35)).toBe('😀'.repeat(35));
    expect(maxText('a\u0000b\uD800c', 35)).toBe('abc');
    expect(maxText('  \n ', 35)).toBeUndefined();
    expect(maxText(null, 35)).toBeUndefined();
  });
});
