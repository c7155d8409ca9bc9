// The pain.002.001.11 side: the status reports the simulated bank writes validate against the XSD,
// and the parser maps every status case (group, batch, transaction) to the rails' statuses.
import { describe, expect, it } from 'vitest';
import { answerPaymentFile } from '../../../src/adapters/bank/iso20022/bankSimulator.js';
import { buildPain001, endToEndIdOf } from '../../../src/adapters/bank/iso20022/pain001.js';
import { Pain002Error, parsePain002 } from '../../../src/adapters/bank/iso20022/pain002.js';
import { StatusReportMismatch, resolveReport } from '../../../src/domain/bank/statusReport.js';
import { type Pain002Content, buildPain002 } from '../../../src/adapters/bank/iso20022/pain002Build.js';
import { xsdErrors } from '../../../src/adapters/bank/iso20022/xsd.js';
import { payoutBatch, payoutItem } from './fixtures.js';

const now = new Date('2026-11-25T10:00:00Z');
const items = [payoutItem(1), payoutItem(2, { beneficiaryReference: 'FAIL-closed' }), payoutItem(3)];
const ids = items.map((item) => endToEndIdOf(item.transferId));
const paymentFile = buildPain001(payoutBatch(items), { createdAt: now, initiatingParty: 'Payroll Fee Service' });

function report(content: Partial<Pain002Content>): string {
  return buildPain002({ msgId: 'R1', createdAt: now, originalMsgId: paymentFile.msgId, ...content });
}

describe('the bank simulator', () => {
  it('accepts a valid file at once, then settles each payment ACSC or RJCT AC04; every report validates against pain.002.001.11.xsd', async () => {
    const answer = await answerPaymentFile(paymentFile.xml, () => false, now);
    expect(answer).toMatchObject({ originalMsgId: paymentFile.msgId, accepted: true });
    for (const xml of [answer.immediate.xml, answer.settled!.xml]) expect(await xsdErrors(xml, 'pain.002.001.11')).toEqual([]);
    expect(resolveReport(parsePain002(answer.immediate.xml), ids)).toEqual(new Map());
    const settled = parsePain002(answer.settled!.xml);
    expect(settled.group.code).toBe('PART');
    expect(resolveReport(settled, ids)).toEqual(
      new Map([
        [ids[0], { state: 'COMPLETED' }],
        [ids[1], { state: 'FAILED', reason: 'AC04 closed account' }],
        [ids[2], { state: 'COMPLETED' }],
      ]),
    );
  });

  it('refuses an invalid file as a whole with FF01 and a repeated MsgId with DU01', async () => {
    const invalid = await answerPaymentFile(paymentFile.xml.replace('<NbOfTxs>3</NbOfTxs>', '<NbOfTxs>three</NbOfTxs>'), () => false, now);
    const duplicate = await answerPaymentFile(paymentFile.xml, (msgId) => msgId === paymentFile.msgId, now);
    const garbage = await answerPaymentFile('not xml at all', () => false, now);
    for (const [answer, code] of [
      [invalid, 'FF01'],
      [duplicate, 'DU01'],
      [garbage, 'FF01'],
    ] as const) {
      expect(answer.accepted).toBe(false);
      expect(answer.settled).toBeUndefined();
      expect(await xsdErrors(answer.immediate.xml, 'pain.002.001.11')).toEqual([]);
      const parsed = parsePain002(answer.immediate.xml);
      expect(parsed.group).toMatchObject({ code: 'RJCT', reasonCode: code });
    }
    expect(parsePain002(duplicate.immediate.xml).originalMsgId).toBe(paymentFile.msgId);
    expect(resolveReport(parsePain002(invalid.immediate.xml), ids).get(ids[0]!)).toEqual({ state: 'FAILED', reason: 'FF01 invalid file format' });
  });
});

describe('parsePain002 and resolveReport', () => {
  it('ACCP and ACSP at group level leave every payout PROCESSING; ACSC completes every one', () => {
    for (const code of ['ACCP', 'ACSP', 'ACTC', 'RCVD', 'PDNG']) expect(resolveReport(parsePain002(report({ group: { code } })), ids).size).toBe(0);
    expect([...resolveReport(parsePain002(report({ group: { code: 'ACSC' } })), ids).values()]).toEqual(Array(3).fill({ state: 'COMPLETED' }));
  });

  it('a group-level RJCT fails every payout with its reason, unless a payout has its own rejection reason', () => {
    const xml = report({
      group: { code: 'RJCT', reasonCode: 'AM04' },
      paymentInfo: { originalPmtInfId: paymentFile.msgId, transactions: [{ endToEndId: ids[1]!, status: { code: 'RJCT', reasonCode: 'AC04' } }] },
    });
    expect(resolveReport(parsePain002(xml), ids)).toEqual(
      new Map([
        [ids[0], { state: 'FAILED', reason: 'AM04 insufficient funds' }],
        [ids[1], { state: 'FAILED', reason: 'AC04 closed account' }],
        [ids[2], { state: 'FAILED', reason: 'AM04 insufficient funds' }],
      ]),
    );
  });

  it('a batch status applies to the payouts without their own; transaction statuses win; unknown codes keep the bank words', () => {
    const xml = report({
      group: { code: 'PART' },
      paymentInfo: {
        originalPmtInfId: paymentFile.msgId,
        status: { code: 'ACSC' },
        transactions: [
          { endToEndId: ids[1]!, status: { code: 'RJCT', reasonCode: 'ZZ99', additionalInfo: 'Beneficiary deceased' } },
          { endToEndId: ids[2]!, status: { code: 'ACSP' } },
        ],
      },
    });
    expect(resolveReport(parsePain002(xml), ids)).toEqual(
      new Map([
        [ids[0], { state: 'COMPLETED' }],
        [ids[1], { state: 'FAILED', reason: 'ZZ99 Beneficiary deceased' }],
      ]),
    );
  });

  it('refuses a report naming a transaction the batch does not hold, and a document that is not a status report', () => {
    const xml = report({
      paymentInfo: { originalPmtInfId: 'x', transactions: [{ endToEndId: 'ffffffffffffffffffffffffffffffff', status: { code: 'ACSC' } }] },
    });
    expect(() => resolveReport(parsePain002(xml), ids)).toThrow(StatusReportMismatch);
    expect(() => parsePain002(paymentFile.xml)).toThrow(Pain002Error);
  });
});
