// The inbox's reports are read off the event loop: a big pain.002 is validated and parsed on the
// reader's thread, which is stopped after it (its memory given back), and small reports reuse one
// thread and its validator. A 50 MB report through the inbox, with the event loop and the memory
// watched, is test/contract/iso20022/bigReport.test.ts.
import { afterEach, describe, expect, it } from 'vitest';
import { bigStatusReport } from '../../../bench/inboxReports.js';
import { RejectedFile } from '../../../src/adapters/bank/iso20022/inboxFile.js';
import { buildPain002 } from '../../../src/adapters/bank/iso20022/pain002Build.js';
import { ReportReader } from '../../../src/adapters/bank/iso20022/reportReader.js';

const small = (msgId: string) =>
  Buffer.from(buildPain002({ msgId, createdAt: new Date('2026-11-26T10:00:00Z'), originalMsgId: 'O1', group: { code: 'ACSC' } }));

let reader: ReportReader;
afterEach(() => reader?.close());

describe('ReportReader', () => {
  it('reads small reports on one thread, kept between them, and rejects an invalid one', async () => {
    reader = new ReportReader({ timeoutMs: 60_000 });
    for (const msgId of ['S1', 'S2', 'S3']) {
      const read = await reader.read(small(msgId), 'pain.002.001.11');
      expect(read).toMatchObject({ kind: 'pain.002', report: { msgId, originalMsgId: 'O1', group: { code: 'ACSC' } } });
      expect(reader.running).toBe(true);
    }
    const invalid = reader.read(Buffer.from('<Document xmlns="urn:iso:std:iso:20022:tech:xsd:pain.002.001.11"><Nope/></Document>'), 'pain.002.001.11');
    await expect(invalid).rejects.toBeInstanceOf(RejectedFile);
  });

  it('reads a big report on its thread, every transaction, then stops the thread', async () => {
    reader = new ReportReader({ timeoutMs: 60_000 });
    await reader.read(small('WARM'), 'pain.002.001.11'); // the thread's start-up is not the report's
    // Over the size after which the thread is stopped (4 MB), and many chunks of transactions.
    const transactions = 40_000;
    const bytes = Buffer.from(bigStatusReport(transactions));
    expect(bytes.length).toBeGreaterThan(5 * 2 ** 20);
    const read = await reader.read(bytes, 'pain.002.001.11');
    expect(read.kind === 'pain.002' && read.report.transactions.length).toBe(transactions);
    expect(read.kind === 'pain.002' && read.report.transactions[9]).toMatchObject({ status: { code: 'RJCT', reasonCode: 'AC04' } });
    expect(read.kind === 'pain.002' && read.report.transactions.at(-1)?.endToEndId).toBe((transactions - 1).toString(16).padStart(32, '0'));
    expect(reader.running).toBe(false);
  });

  it('rejects a report that takes longer than its time bound, and reads the next one on a new thread', async () => {
    reader = new ReportReader({ timeoutMs: 1 });
    await expect(reader.read(small('SLOW'), 'pain.002.001.11')).rejects.toBeInstanceOf(RejectedFile);
    expect(reader.running).toBe(false);
  });
});
