// A report that rejects payouts the bank had already reported settled (RJCT after ACSC) changes
// nothing of them, and is not silent: each contradiction is recorded with the report that made
// it, noticed once by the worker (a warning and the metric), never again.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Iso20022BankRail } from '../../../src/adapters/bank/iso20022/rail.js';
import { bankFileRecords } from '../../../src/store/bank/bankFiles.js';
import { applyBankStatusReport, findBankFileByMsgId } from '../../../src/store/bank/bankFiles.js';
import { noticeBankReportContradictions } from '../../../src/usecases/bank/bankReportContradictions.js';
import { type FreshDatabase, freshDatabase } from '../../support/database.js';
import { payoutBatch, payoutItem } from './fixtures.js';

let database: FreshDatabase;
let dir: string;
const clock = () => new Date('2026-11-25T10:00:00Z');
beforeAll(async () => {
  database = await freshDatabase();
  dir = await mkdtemp(join(tmpdir(), 'bank-contradictions-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
  await database?.drop();
});

const uuid = (prefix: string, n: number) => `${prefix}-0000-4000-8000-${String(n).padStart(12, '0')}`;

describe('a rejection after an acceptance', () => {
  it('keeps the settled outcome, records the contradiction and has the worker notice it once', async () => {
    const items = [0, 1].map((n) => payoutItem(n, { transferId: uuid('7c0e0001', n) }));
    const submitted = payoutBatch(items, { batchId: uuid('7c0e00ba', 1) });
    const rail = new Iso20022BankRail(bankFileRecords(database.db), { outboxDir: join(dir, 'outbox'), initiatingParty: 'Payroll Fee Service', clock });
    const { externalBatchId } = await rail.submitBatch(submitted);
    const batch = (await findBankFileByMsgId(database.db, externalBatchId))!;
    const report = (msgId: string, status: 'COMPLETED' | 'FAILED') => ({
      msgId,
      originalMsgId: externalBatchId,
      fileName: `${msgId}.xml`,
      sha256: msgId,
      appliedAt: clock(),
      settled: batch.endToEndIds.map((endToEndId) => ({ endToEndId, status, failureReason: status === 'FAILED' ? 'AM04 insufficient funds' : null })),
    });
    const apply = (msgId: string, status: 'COMPLETED' | 'FAILED') =>
      database.db.transaction((tx) => applyBankStatusReport(tx, batch.batchId, report(msgId, status)));

    expect(await apply('ACSC1', 'COMPLETED')).toBe(2);
    expect(await noticeBankReportContradictions({ db: database.db, clock })).toEqual([]);
    expect(await apply('RJCT1', 'FAILED')).toBe(0);
    expect((await rail.batchStatus(submitted.batchId)).map((item) => item.status)).toEqual([{ state: 'COMPLETED' }, { state: 'COMPLETED' }]);

    const noticed = await noticeBankReportContradictions({ db: database.db, clock });
    expect(
      noticed
        .map(({ transferId, reportMsgId, settledStatus, reportedStatus, reportedReason }) => ({
          transferId,
          reportMsgId,
          settledStatus,
          reportedStatus,
          reportedReason,
        }))
        .sort((a, b) => a.transferId.localeCompare(b.transferId)),
    ).toEqual(
      items.map((item) => ({
        transferId: item.transferId,
        reportMsgId: 'RJCT1',
        settledStatus: 'COMPLETED',
        reportedStatus: 'FAILED',
        reportedReason: 'AM04 insufficient funds',
      })),
    );
    expect(await noticeBankReportContradictions({ db: database.db, clock })).toEqual([]);
  });
});
