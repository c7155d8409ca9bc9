// The ISO 20022 bank rail on a real database: one file per batch whatever happens between writing
// and recording, statuses from the reports the inbox applied, a report dropped twice changing
// nothing, and every file the inbox cannot apply moved to rejected/ without stopping it.
import { mkdir, mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { answerPaymentFile } from '../../../src/adapters/bank/iso20022/bankSimulator.js';
import { Iso20022Inbox } from '../../../src/adapters/bank/iso20022/inbox.js';
import { buildPain002 } from '../../../src/adapters/bank/iso20022/pain002Build.js';
import { Iso20022BankRail } from '../../../src/adapters/bank/iso20022/rail.js';
import { bankFileRecords } from '../../../src/store/bank/bankFiles.js';
import { xsdErrors } from '../../../src/adapters/bank/iso20022/xsd.js';
import { bankMessageApplier } from '../../../src/usecases/bank/applyBankMessage.js';
import { crashWindow } from '../../support/crashWindows.js';
import { type FreshDatabase, freshDatabase } from '../../support/database.js';
import { payoutBatch, payoutItem } from './fixtures.js';

let database: FreshDatabase;
let dir: string;
const clock = () => new Date('2026-11-25T10:00:00Z');
const logged: { level: string; fields: object; message: string }[] = [];
const logger = {
  info: (fields: object, message: string) => logged.push({ level: 'info', fields, message }),
  warn: (fields: object, message: string) => logged.push({ level: 'warn', fields, message }),
  error: (fields: object, message: string) => logged.push({ level: 'error', fields, message }),
};

beforeAll(async () => (database = await freshDatabase()));
afterAll(() => database?.drop());
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'bank-rail-'));
  await mkdir(join(dir, 'inbox'));
  logged.length = 0;
  return () => rm(dir, { recursive: true, force: true });
});

const outbox = () => join(dir, 'outbox');
const inbox = () => join(dir, 'inbox');
/** No pass budget: a pass reads every file, however slowly a loaded machine reads the first (inboxHostile tests the budget). */
const inboxOf = () =>
  new Iso20022Inbox(inbox(), bankMessageApplier({ db: database.db, clock, bookingGraceDays: 3 }), logger, clock, { passBudgetMs: 3_600_000 });
const rail = () => new Iso20022BankRail(bankFileRecords(database.db), { outboxDir: outbox(), initiatingParty: 'Payroll Fee Service', clock });
const uuid = (prefix: string, n: number) => `${prefix}-0000-4000-8000-${String(n).padStart(12, '0')}`;

/** A batch of `count` payouts with ids of its own (every test uses fresh ids on the shared database). */
function batch(seed: number, count: number, failing: number[] = []) {
  const items = Array.from({ length: count }, (_, n) =>
    payoutItem(n, { transferId: uuid(`7b1e${String(seed).padStart(4, '0')}`, n), ...(failing.includes(n) ? { beneficiaryReference: `FAIL-${n}` } : {}) }),
  );
  return payoutBatch(items, { batchId: uuid('7b1e00ba', seed) });
}

/** Drops the simulated bank's answers to the file of `batchId` in the inbox. */
async function bankAnswers(msgId: string) {
  const answer = await answerPaymentFile(await readFile(join(outbox(), `${msgId}.xml`), 'utf8'), () => false, clock());
  await writeFile(join(inbox(), `${answer.immediate.msgId}.xml`), answer.immediate.xml);
  return answer;
}

describe('Iso20022BankRail.submitBatch', () => {
  it('writes one valid file named after the MsgId, and a repeated submission writes nothing more', async () => {
    const submitted = batch(1, 3);
    const first = await rail().submitBatch(submitted);
    const again = await rail().submitBatch(submitted);
    expect(again).toEqual(first);
    expect(first.externalBatchId).toBe('7b1e00ba000040008000000000000001');
    expect([...first.externalIds.values()]).toEqual(submitted.items.map((item) => item.transferId.replace(/-/g, '')));
    expect(await readdir(outbox())).toEqual([`${first.externalBatchId}.xml`]);
    expect(await xsdErrors(await readFile(join(outbox(), `${first.externalBatchId}.xml`), 'utf8'), 'pain.001.001.10')).toEqual([]);
  });

  it('after a crash between writing the file and recording it, finds the file (in the outbox or processed/) and writes no second one', async () => {
    const submitted = batch(2, 2);
    await rail().submitBatch(submitted);
    // The crash: the file exists, the record says it was never written.
    await crashWindow.bankFileWrittenNotRecorded(database.db, submitted.batchId);
    const before = await readFile(join(outbox(), '7b1e00ba000040008000000000000002.xml'), 'utf8');
    await rail().submitBatch(submitted);
    expect(await readFile(join(outbox(), '7b1e00ba000040008000000000000002.xml'), 'utf8')).toBe(before);
    // The transport has since delivered it (moved it to processed/): still no second file.
    await crashWindow.bankFileWrittenNotRecorded(database.db, submitted.batchId);
    await bankAnswers('7b1e00ba000040008000000000000002');
    const { moveInto } = await import('../../../src/adapters/bank/iso20022/files.js');
    await moveInto(outbox(), 'processed', '7b1e00ba000040008000000000000002.xml');
    await rail().submitBatch(submitted);
    expect((await readdir(outbox())).filter((name) => name.endsWith('.xml'))).toEqual([]);
  });

  it('fails every payout of a batch it cannot write (the paying account has no IBAN), without a file', async () => {
    const submitted = { ...batch(3, 2), debtor: { ...batch(3, 2).debtor, iban: null } };
    await rail().submitBatch(submitted);
    const statuses = await rail().batchStatus(submitted.batchId);
    expect(statuses).toHaveLength(2);
    expect(statuses[0]!.status).toMatchObject({ state: 'FAILED', reason: expect.stringContaining('no IBAN') });
    expect(await readdir(dir)).toEqual(['inbox']);
  });
});

describe('Iso20022Inbox.poll', () => {
  it('applies the reports to the batch status, and a report dropped twice changes nothing', async () => {
    const submitted = batch(4, 3, [1]);
    const { externalBatchId } = await rail().submitBatch(submitted);
    const answer = await bankAnswers(externalBatchId);
    await writeFile(join(inbox(), `${answer.settled!.msgId}.xml`), answer.settled!.xml);
    const inboxReader = inboxOf();
    const moved = await inboxReader.poll();
    expect(logged.filter((entry) => entry.level !== 'info')).toEqual([]);
    expect(moved).toBe(2);
    const statuses = await rail().batchStatus(submitted.batchId);
    expect(statuses.map((item) => item.status)).toEqual([{ state: 'COMPLETED' }, { state: 'FAILED', reason: 'AC04 closed account' }, { state: 'COMPLETED' }]);
    expect((await readdir(join(inbox(), 'processed'))).sort()).toEqual([`${answer.immediate.msgId}.xml`, `${answer.settled!.msgId}.xml`].sort());

    // The same report again (and again under another name), then a contradicting late one: nothing changes.
    await writeFile(join(inbox(), `${answer.settled!.msgId}.xml`), answer.settled!.xml);
    await writeFile(join(inbox(), 'copy.xml'), answer.settled!.xml);
    const late = buildPain002({ msgId: 'LATE1', createdAt: clock(), originalMsgId: externalBatchId, group: { code: 'RJCT', reasonCode: 'AM04' } });
    await writeFile(join(inbox(), 'late.xml'), late);
    expect(await inboxReader.poll()).toBe(3);
    expect(await rail().batchStatus(submitted.batchId)).toEqual(statuses);
    expect(await readdir(join(inbox(), 'processed'))).toHaveLength(5);
    expect(logged.filter((entry) => entry.message.includes('already applied'))).toHaveLength(2);
  });

  it('moves an invalid file, a report on an unknown file and one naming unknown transactions to rejected/, logged, and carries on', async () => {
    const submitted = batch(5, 2);
    const { externalBatchId } = await rail().submitBatch(submitted);
    await bankAnswers(externalBatchId);
    await writeFile(join(inbox(), 'a-garbage.xml'), '<Document><not-closed>');
    await writeFile(
      join(inbox(), 'b-unknown-file.xml'),
      buildPain002({ msgId: 'U1', createdAt: clock(), originalMsgId: 'ffffffffffffffffffffffffffffffff', group: { code: 'ACSC' } }),
    );
    const strangers = { originalPmtInfId: externalBatchId, transactions: [{ endToEndId: 'eeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee', status: { code: 'ACSC' } }] };
    await writeFile(
      join(inbox(), 'c-unknown-tx.xml'),
      buildPain002({ msgId: 'U2', createdAt: clock(), originalMsgId: externalBatchId, paymentInfo: strangers }),
    );
    await writeFile(join(inbox(), '.partial.xml.tmp'), 'being written');
    const moved = await inboxOf().poll();
    expect(moved).toBe(4);
    expect((await readdir(join(inbox(), 'rejected'))).sort()).toEqual(['a-garbage.xml', 'b-unknown-file.xml', 'c-unknown-tx.xml']);
    expect(logged.filter((entry) => entry.level === 'warn')).toHaveLength(3);
    expect(await rail().batchStatus(submitted.batchId)).toEqual([]);
    expect(await readdir(inbox())).toContain('.partial.xml.tmp');
  });

  it('a group-level rejection fails every payout; a DU01 refusal of a second copy changes nothing', async () => {
    const submitted = batch(6, 2);
    const { externalBatchId } = await rail().submitBatch(submitted);
    const duplicate = buildPain002({ msgId: 'DUP1', createdAt: clock(), originalMsgId: externalBatchId, group: { code: 'RJCT', reasonCode: 'DU01' } });
    await writeFile(join(inbox(), 'dup.xml'), duplicate);
    const inboxReader = inboxOf();
    await inboxReader.poll();
    expect(await rail().batchStatus(submitted.batchId)).toEqual([]);
    await writeFile(
      join(inbox(), 'rjct.xml'),
      buildPain002({ msgId: 'RJ1', createdAt: clock(), originalMsgId: externalBatchId, group: { code: 'RJCT', reasonCode: 'FF01' } }),
    );
    await inboxReader.poll();
    expect((await rail().batchStatus(submitted.batchId)).map((item) => item.status)).toEqual(
      Array(2).fill({ state: 'FAILED', reason: 'FF01 invalid file format' }),
    );
  });
});
