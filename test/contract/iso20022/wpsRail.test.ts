// The WPS salary file on the bank rail, on a real database (docs/wps.md): written beside the pain.001
// once, owner-only, its SHA-256 recorded; a batch that cannot have its SIF is not sent at all; the
// agent's rejection is recorded for the operator through the inbox, and a malformed answer rejected.
import { createHash } from 'node:crypto';
import { mkdir, mkdtemp, readFile, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { Iso20022Inbox } from '../../../src/adapters/bank/iso20022/inbox.js';
import { Iso20022BankRail } from '../../../src/adapters/bank/iso20022/rail.js';
import { SIF_PROFILES } from '../../../src/domain/bank/wpsSalaryFile.js';
import type { PayoutBatch } from '../../../src/domain/payouts/payoutBatch.js';
import { bankFileRecords } from '../../../src/store/bank/bankFiles.js';
import { bankMessageApplier } from '../../../src/usecases/bank/applyBankMessage.js';
import { crashWindow } from '../../support/crashWindows.js';
import { type FreshDatabase, freshDatabase } from '../../support/database.js';
import { payoutBatch, payoutItem } from './fixtures.js';

let database: FreshDatabase;
let dir: string;
// 14:05:09 in the UAE.
const clock = () => new Date('2026-11-25T10:05:09Z');
const logger = { info: () => {}, warn: () => {}, error: () => {} };

beforeAll(async () => (database = await freshDatabase()));
afterAll(() => database?.drop());
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'wps-rail-'));
  await mkdir(join(dir, 'inbox'));
  return () => rm(dir, { recursive: true, force: true });
});

const outbox = () => join(dir, 'outbox');
const inbox = () => join(dir, 'inbox');
const rail = () =>
  new Iso20022BankRail(bankFileRecords(database.db), { outboxDir: outbox(), initiatingParty: 'Payroll Fee Service', clock, sifProfile: SIF_PROFILES.UAEWPS });
const inboxOf = () =>
  new Iso20022Inbox(inbox(), bankMessageApplier({ db: database.db, clock, bookingGraceDays: 3 }), logger, clock, { passBudgetMs: 3_600_000 });
const uuid = (prefix: string, n: number) => `${prefix}-0000-4000-8000-${String(n).padStart(12, '0')}`;
const employer = { establishmentId: '1000000123456', agentRoutingCode: '802420101', name: 'Falcon Facilities Management LLC' };
const SIF_NAME = '1000000123456261125140509.SIF';

/** A WPS employer's batch of `count` salaries, ids of its own (the tests share a database). */
function wpsBatch(seed: number, count: number): PayoutBatch {
  const items = Array.from({ length: count }, (_, n) =>
    payoutItem(n, {
      transferId: uuid(`3b1e${String(seed).padStart(4, '0')}`, n),
      amount: `${3000 + n}.50`,
      wps: {
        personId: `91501234566${n}`,
        routingCode: '802420101',
        payPeriodStart: '2026-11-01',
        payPeriodEnd: '2026-11-30',
        fixedAmount: '3000.00',
        variableAmount: `${n}.50`,
        leaveDays: 0,
      },
    }),
  );
  return payoutBatch(items, { batchId: uuid('3b1e00ba', seed), payrollRequestId: null, wpsEmployer: employer });
}

const salaryFileRow = async (batchId: string) =>
  (
    await database.db.query<{ sha256: string; agentStatus: string | null; agentReason: string | null }>(
      'SELECT sha256, agent_status AS "agentStatus", agent_reason AS "agentReason" FROM wps_salary_files WHERE batch_id = $1',
      [batchId],
    )
  )[0];

describe('Iso20022BankRail with a WPS employer', () => {
  it('writes the SIF beside the pain.001, owner-only, its SHA-256 recorded, and a repeated or resumed submission writes no second one', async () => {
    const batch = wpsBatch(1, 3);
    const first = await rail().submitBatch(batch);
    expect((await readdir(outbox())).sort()).toEqual([`${first.externalBatchId}.xml`, SIF_NAME].sort());
    const bytes = await readFile(join(outbox(), SIF_NAME));
    expect((await stat(join(outbox(), SIF_NAME))).mode & 0o777).toBe(0o600);
    expect((await salaryFileRow(batch.batchId))!.sha256).toBe(createHash('sha256').update(bytes).digest('hex'));
    const lines = bytes.toString('utf8').split('\r\n');
    expect(lines[3]).toBe('SCR,1000000123456,802420101,2026-11-25,1405,112026,03,9004.50,AED,Falcon Facilities Management LLC');

    // The crash: the SIF written, its record not; a later clock would name a new file, but none is written.
    await crashWindow.salaryFileWrittenNotRecorded(database.db, batch.batchId);
    const later = new Iso20022BankRail(bankFileRecords(database.db), {
      outboxDir: outbox(),
      initiatingParty: 'x',
      clock: () => new Date('2026-11-25T11:00:00Z'),
    });
    await later.submitBatch(batch);
    await rail().submitBatch(batch);
    expect((await readdir(outbox())).sort()).toEqual([`${first.externalBatchId}.xml`, SIF_NAME].sort());
    expect(await readFile(join(outbox(), SIF_NAME))).toEqual(bytes);

    // Another payroll of the employer in the same second: its file takes the next second's name.
    await rail().submitBatch(wpsBatch(4, 1));
    expect(await readdir(outbox())).toContain('1000000123456261125140510.SIF');
  });

  it('does not send a batch whose salaries disagree with its payouts: no file, every payout refused', async () => {
    const batch = wpsBatch(2, 2);
    batch.items[1]!.amount = '9999.99';
    await rail().submitBatch(batch);
    expect(await readdir(outbox()).catch(() => [])).toEqual([]);
    const statuses = await rail().batchStatus(batch.batchId);
    expect(statuses.map((item) => item.status)).toEqual([
      { state: 'FAILED', reason: expect.stringContaining('Not sent to the bank') },
      { state: 'FAILED', reason: expect.stringContaining('Not sent to the bank') },
    ]);
  });

  it("records the agent's rejection for the operator, once; an answer of no known file or of another form goes to rejected/", async () => {
    const batch = wpsBatch(3, 1);
    await rail().submitBatch(batch);
    const name = (await readdir(outbox())).find((entry) => entry.endsWith('.SIF'))!;
    await writeFile(join(inbox(), 'a.wps'), `RJT,${name},E01,Establishment not registered with the agent\r\n`);
    await writeFile(join(inbox(), 'b.wps'), `ACK,${name}\r\n`);
    await writeFile(join(inbox(), 'c.wps'), 'ACK,9999999999999261125140509.SIF\r\n');
    await writeFile(join(inbox(), 'd.wps'), 'HELLO\r\n');
    await inboxOf().poll();
    expect(await salaryFileRow(batch.batchId)).toMatchObject({ agentStatus: 'REJECTED', agentReason: 'E01 Establishment not registered with the agent' });
    expect((await readdir(join(inbox(), 'processed'))).sort()).toEqual(['a.wps', 'b.wps']);
    expect((await readdir(join(inbox(), 'rejected'))).sort()).toEqual(['c.wps', 'd.wps']);
  });
});
