// The inbox against what a hostile or clumsy neighbour leaves in it: a FIFO and a symlink named
// *.xml are never opened (each reported once), a file still being written waits until it stops
// changing (so a report written in place is never rejected half-written), a file over the size
// limit is rejected unread, and none of them keeps the worker from the other files. One worker of a
// fleet reads the inbox at a time, and what the service writes under the bank folders is owner-only.
import { execFileSync } from 'node:child_process';
import { appendFile, mkdir, mkdtemp, readFile, readdir, rm, stat, symlink, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { moveInto, removeStaleTemporaryFiles, writeFileAtomically } from '../../../src/adapters/bank/iso20022/files.js';
import { type ExclusivePass, Iso20022Inbox, type InboxOptions } from '../../../src/adapters/bank/iso20022/inbox.js';
import { Iso20022BankRail } from '../../../src/adapters/bank/iso20022/rail.js';
import { bankFileRecords } from '../../../src/store/bank/bankFiles.js';
import type { ApplyBankMessage, BankMessage } from '../../../src/domain/bank/bankMessages.js';
import { withBankInboxLock } from '../../../src/store/bank/inboxLock.js';
import { type FreshDatabase, freshDatabase } from '../../support/database.js';
import { payoutBatch, payoutItem } from './fixtures.js';

const clock = () => new Date('2026-11-26T20:00:00Z');
const logged: { level: string; fields: Record<string, unknown>; message: string }[] = [];
const logger = {
  info: (fields: object, message: string) => logged.push({ level: 'info', fields: fields as Record<string, unknown>, message }),
  warn: (fields: object, message: string) => logged.push({ level: 'warn', fields: fields as Record<string, unknown>, message }),
  error: (fields: object, message: string) => logged.push({ level: 'error', fields: fields as Record<string, unknown>, message }),
};
let dir: string;
let inbox: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'inbox-hostile-'));
  inbox = join(dir, 'inbox');
  await mkdir(inbox);
  logged.length = 0;
  return () => rm(dir, { recursive: true, force: true });
});

const fixture = (name: string) => readFile(new URL(`./files/${name}`, import.meta.url));
const folder = async (sub: string) => (await readdir(join(inbox, sub)).catch(() => [] as string[])).sort();
const modeOf = async (path: string) => (await stat(path)).mode & 0o777;

/** A stand-in for the bank-books use case: records the MsgIds it is given, applies everything. */
function recording() {
  const applied: string[] = [];
  const apply: ApplyBankMessage = async (message: BankMessage) => {
    applied.push(message.msgId);
    return { kind: 'applied', entries: 1, exceptions: 0 };
  };
  return { applied, apply };
}

const reader = (apply: ApplyBankMessage, options: InboxOptions = {}) => new Iso20022Inbox(inbox, apply, logger, clock, options);

/** Sets a file's times `ms` in the past: a file left alone that long, done being written. */
const age = (path: string, ms: number) => utimes(path, new Date(Date.now() - ms), new Date(Date.now() - ms));

describe('Iso20022Inbox: only regular files, whole', () => {
  it('never opens a FIFO or follows a symlink named *.xml, reports each once, and reads every other file', async () => {
    execFileSync('mkfifo', [join(inbox, 'j-fifo.xml')]);
    const outside = join(dir, 'outside.xml');
    await writeFile(outside, await fixture('camt053-statements.xml'));
    await symlink(outside, join(inbox, 'k-link.xml'));
    await writeFile(join(inbox, 'z-notification.xml'), await fixture('camt054-bookings.xml'));
    const useCase = recording();
    const inboxReader = reader(useCase.apply);
    expect(await inboxReader.poll()).toBe(1);
    expect(await inboxReader.poll()).toBe(0);
    expect(useCase.applied).toEqual(['NTF20261126-0001']);
    expect(await folder('processed')).toEqual(['z-notification.xml']);
    expect(await folder('rejected')).toEqual([]);
    expect((await readdir(inbox)).sort()).toEqual(['j-fifo.xml', 'k-link.xml', 'processed']);
    const warnings = logged.filter((entry) => entry.level === 'warn');
    expect(warnings.map((entry) => [entry.fields.file, entry.fields.kind])).toEqual([
      ['j-fifo.xml', 'fifo'],
      ['k-link.xml', 'symlink'],
    ]);
    expect(logged.filter((entry) => entry.level === 'error')).toEqual([]);
  });

  it('lets a report written in place finish: it waits while its size or mtime changes, and is read whole, not rejected half-written', async () => {
    const whole = await fixture('camt054-bookings.xml');
    const path = join(inbox, 'growing.xml');
    await writeFile(path, whole.subarray(0, 400));
    const useCase = recording();
    const inboxReader = reader(useCase.apply, { settleMs: 60_000 });
    expect(await inboxReader.poll()).toBe(0); // new and just modified: the next pass looks again
    await appendFile(path, whole.subarray(400, 900));
    expect(await inboxReader.poll()).toBe(0); // grew since the last pass
    await appendFile(path, whole.subarray(900));
    expect(await inboxReader.poll()).toBe(0);
    expect(await inboxReader.poll()).toBe(1); // unchanged since the last pass: done
    expect(useCase.applied).toEqual(['NTF20261126-0001']);
    expect(await folder('rejected')).toEqual([]);
    expect(await folder('processed')).toEqual(['growing.xml']);
  });

  it('reads at once a new file left alone for longer than the settling time (files already there at start)', async () => {
    await writeFile(join(inbox, 'old.xml'), await fixture('camt054-bookings.xml'));
    await age(join(inbox, 'old.xml'), 120_000);
    const useCase = recording();
    expect(await reader(useCase.apply, { settleMs: 60_000 }).poll()).toBe(1);
  });

  it('rejects unread a file over the size limit, and goes on with the others', async () => {
    const notification = await fixture('camt054-bookings.xml');
    const maxBytes = notification.length;
    await writeFile(join(inbox, 'a-huge.xml'), Buffer.alloc(maxBytes + 1, ' '));
    await writeFile(join(inbox, 'b-notification.xml'), notification);
    const useCase = recording();
    expect(await reader(useCase.apply, { maxBytes }).poll()).toBe(2);
    expect(await folder('rejected')).toEqual(['a-huge.xml']);
    expect(await folder('processed')).toEqual(['b-notification.xml']);
    expect(logged.find((entry) => entry.fields.file === 'a-huge.xml')?.fields.reason).toBe(
      `the file is ${maxBytes + 1} bytes, more than the ${maxBytes} a report may be (BANK_REPORT_MAX_BYTES)`,
    );
  });

  it('a pass past its budget starts no new file, but always reads one: a backlog drains a file a pass at least', async () => {
    await writeFile(join(inbox, 'a-notification.xml'), await fixture('camt054-bookings.xml'));
    await writeFile(join(inbox, 'b-statement.xml'), await fixture('camt053-statements.xml'));
    const useCase = recording();
    const inboxReader = reader(useCase.apply, { passBudgetMs: -1 });
    expect(await inboxReader.poll()).toBe(1);
    expect(await inboxReader.poll()).toBe(1);
    expect(await inboxReader.poll()).toBe(0);
    expect(useCase.applied).toHaveLength(2);
  });

  it('a pass another worker holds the inbox for reads nothing', async () => {
    await writeFile(join(inbox, 'b-notification.xml'), await fixture('camt054-bookings.xml'));
    const useCase = recording();
    const heldElsewhere: ExclusivePass = async () => undefined;
    expect(await reader(useCase.apply, { exclusive: heldElsewhere }).poll()).toBe(0);
    expect(useCase.applied).toEqual([]);
  });
});

describe('bank folders: owner-only, and no temporary file left behind', () => {
  it('writes files 0600 in folders 0700, and moves into folders it creates 0700', async () => {
    await writeFileAtomically(join(dir, 'outbox'), 'a.xml', '<a/>');
    expect(await modeOf(join(dir, 'outbox'))).toBe(0o700);
    expect(await modeOf(join(dir, 'outbox', 'a.xml'))).toBe(0o600);
    await moveInto(join(dir, 'outbox'), 'processed', 'a.xml');
    expect(await modeOf(join(dir, 'outbox', 'processed'))).toBe(0o700);
    await writeFile(join(inbox, 'bad.xml'), 'not xml');
    await reader(recording().apply).poll();
    expect(await modeOf(join(inbox, 'rejected'))).toBe(0o700);
  });

  it('removes the temporary files of interrupted writes once they are stale, at the first pass, never a write in progress', async () => {
    const outbox = join(dir, 'outbox');
    await mkdir(outbox);
    const interrupted = '.0000abcd.xml.4242.0123abcd.tmp';
    const inProgress = '.0000beef.xml.4243.0456abcd.tmp';
    await writeFile(join(outbox, interrupted), '<Document>');
    await age(join(outbox, interrupted), 10 * 60_000);
    await writeFile(join(outbox, inProgress), '<Document>');
    await writeFile(join(outbox, 'someone-elses.tmp'), 'kept');
    await age(join(outbox, 'someone-elses.tmp'), 10 * 60_000);
    await reader(recording().apply, { ownFolders: [outbox] }).poll();
    expect((await readdir(outbox)).sort()).toEqual([inProgress, 'someone-elses.tmp'].sort());
    expect(await removeStaleTemporaryFiles(join(dir, 'absent'), 0)).toEqual([]);
  });
});

describe('the bank rail and the inbox lock on a real database', () => {
  let database: FreshDatabase;
  beforeAll(async () => (database = await freshDatabase()));
  afterAll(() => database?.drop());

  it('writes each pain.001 0600 in an outbox it creates 0700', async () => {
    const outbox = join(dir, 'bank', 'outbox');
    const rail = new Iso20022BankRail(bankFileRecords(database.db), { outboxDir: outbox, initiatingParty: 'Payroll Fee Service', clock });
    const batch = payoutBatch([payoutItem(0, { transferId: '7b1e9900-0000-4000-8000-000000000001' })], {
      batchId: '7b1e99ba-0000-4000-8000-000000000001',
    });
    const { externalBatchId } = await rail.submitBatch(batch);
    expect(await modeOf(outbox)).toBe(0o700);
    expect(await modeOf(join(dir, 'bank'))).toBe(0o700);
    expect(await modeOf(join(outbox, `${externalBatchId}.xml`))).toBe(0o600);
  });

  it('two workers polling one inbox at once: each file is read and moved once, and no error is logged', async () => {
    for (let n = 0; n < 6; n++) await writeFile(join(inbox, `n${n}.xml`), await fixture('camt054-bookings.xml'));
    const useCase = recording();
    const exclusive: ExclusivePass = (pass) => withBankInboxLock(database.db, pass);
    const [first, second] = [reader(useCase.apply, { exclusive }), reader(useCase.apply, { exclusive })];
    const moved = (await Promise.all([first.poll(), second.poll(), first.poll(), second.poll()])).reduce((a, b) => a + b, 0);
    expect(moved + (await first.poll())).toBe(6);
    expect(useCase.applied).toHaveLength(6);
    expect(await folder('processed')).toHaveLength(6);
    expect(logged.filter((entry) => entry.level === 'error')).toEqual([]);
  });
});
