// The inbox and what the bank sends: camt.053/054 files and status reports told apart by their namespace,
// validated, read and handed to the one bank-messages use case (a stand-in here), then moved by its answer:
// processed/ once applied, rejected/ with the reason, or left in the inbox after a failure of ours.
import { createHash } from 'node:crypto';
import { mkdir, mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { Iso20022Inbox } from '../../../src/adapters/bank/iso20022/inbox.js';
import { buildPain002 } from '../../../src/adapters/bank/iso20022/pain002Build.js';
import type { ApplyBankMessage, BankFile, BankMessage, BankMessageOutcome } from '../../../src/domain/bank/bankMessages.js';

const clock = () => new Date('2026-11-26T20:00:00Z');
const logged: { level: string; fields: Record<string, unknown>; message: string }[] = [];
const logger = {
  info: (fields: object, message: string) => logged.push({ level: 'info', fields: fields as Record<string, unknown>, message }),
  warn: (fields: object, message: string) => logged.push({ level: 'warn', fields: fields as Record<string, unknown>, message }),
  error: (fields: object, message: string) => logged.push({ level: 'error', fields: fields as Record<string, unknown>, message }),
};

let inbox: string;
beforeEach(async () => {
  inbox = await mkdtemp(join(tmpdir(), 'bank-books-inbox-'));
  await mkdir(inbox, { recursive: true });
  logged.length = 0;
  return () => rm(inbox, { recursive: true, force: true });
});

const fixture = (name: string) => readFile(new URL(`./files/${name}`, import.meta.url));
const folder = async (sub: string) => (await readdir(join(inbox, sub)).catch(() => [] as string[])).sort();

/** A stand-in for the use case: records what it is given and answers `answer`. */
function recording(answer: (message: BankMessage) => Promise<BankMessageOutcome>) {
  const calls: { message: BankMessage; file: BankFile }[] = [];
  const apply: ApplyBankMessage = (message, file) => {
    calls.push({ message, file });
    return answer(message);
  };
  return { calls, apply };
}

describe('Iso20022Inbox.poll: camt.053 and camt.054 files', () => {
  it('hands each file, read, to the bank-books use case (notifications before statements), and moves it to processed/ once applied (or applied before)', async () => {
    const notification = await fixture('camt054-bookings.xml');
    await writeFile(join(inbox, 'b-notification.xml'), notification);
    await writeFile(join(inbox, 'a-statement.xml'), await fixture('camt053-statements.xml'));
    const useCase = recording(async (message) => (message.kind === 'camt.054' ? { kind: 'applied', entries: 3, exceptions: 1 } : { kind: 'already-applied' }));
    expect(await new Iso20022Inbox(inbox, useCase.apply, logger, clock).poll()).toBe(2);
    expect(useCase.calls.map(({ message }) => [message.kind, message.msgId, 'reports' in message ? message.reports.length : null])).toEqual([
      ['camt.054', 'NTF20261126-0001', 1],
      ['camt.053', 'STMT20261126', 2],
    ]);
    expect(useCase.calls[0]!.file).toEqual({
      fileName: 'b-notification.xml',
      sha256: createHash('sha256').update(notification).digest('hex'),
      receivedAt: clock(),
    });
    expect(await folder('processed')).toEqual(['a-statement.xml', 'b-notification.xml']);
    expect(await folder('.')).toEqual(['processed']);
    expect(logged.map(({ level, message, fields }) => [level, message, fields.entries ?? null])).toEqual([
      ['info', 'bank inbox: bank books applied', 3],
      ['info', 'bank inbox: bank books already applied; nothing changed', null],
    ]);
  });

  it('moves to rejected/, with the reason, a file the use case refuses, an invalid one, a truncated one and another message', async () => {
    const valid = (await fixture('camt054-bookings.xml')).toString('utf8');
    await writeFile(join(inbox, 'a-refused.xml'), valid);
    await writeFile(join(inbox, 'b-invalid.xml'), valid.replace('<ns2:CdtDbtInd>DBIT</ns2:CdtDbtInd>', '<ns2:CdtDbtInd>DEBIT</ns2:CdtDbtInd>'));
    await writeFile(join(inbox, 'c-truncated.xml'), valid.slice(0, valid.length / 2));
    await writeFile(join(inbox, 'd-camt052.xml'), valid.replaceAll('camt.054.001.08', 'camt.052.001.08'));
    const useCase = recording(async () => ({ kind: 'rejected', reason: 'the account AE420260001015333439101 is none of ours' }));
    expect(await new Iso20022Inbox(inbox, useCase.apply, logger, clock).poll()).toBe(4);
    expect(useCase.calls).toHaveLength(1);
    expect(await folder('rejected')).toEqual(['a-refused.xml', 'b-invalid.xml', 'c-truncated.xml', 'd-camt052.xml']);
    // Another message is read first (its head names no message the inbox reads), then the notifications.
    const reasons = logged.map(({ level, fields }) => [level, fields.file, fields.reason]);
    expect(reasons).toEqual([
      ['warn', 'd-camt052.xml', expect.stringMatching(/^a camt\.052\.001\.08 message, which the inbox does not read/)],
      ['warn', 'a-refused.xml', 'the account AE420260001015333439101 is none of ours'],
      ['warn', 'b-invalid.xml', expect.stringMatching(/^not a valid camt\.054\.001\.08 document: .*CdtDbtInd/)],
      ['warn', 'c-truncated.xml', expect.stringMatching(/^not a valid camt\.054\.001\.08 document/)],
    ]);
  });

  it('leaves a file in the inbox when the use case fails (the database away), and applies it on a later pass', async () => {
    await writeFile(join(inbox, 'statement.xml'), await fixture('camt053-statements.xml'));
    let databaseUp = false;
    const useCase = recording(async () => {
      if (!databaseUp) throw new Error('connect ECONNREFUSED 127.0.0.1:5432');
      return { kind: 'applied', entries: 2, exceptions: 0 };
    });
    const reader = new Iso20022Inbox(inbox, useCase.apply, logger, clock);
    expect(await reader.poll()).toBe(0);
    expect(await folder('.')).toEqual(['statement.xml']);
    expect(logged).toEqual([expect.objectContaining({ level: 'error', message: expect.stringContaining('stays in the inbox') })]);
    databaseUp = true;
    expect(await reader.poll()).toBe(1);
    expect(await folder('processed')).toEqual(['statement.xml']);
  });

  it('hands a status report to the same use case, read into a message of its kind', async () => {
    const report = buildPain002({ msgId: 'RPT1', createdAt: clock(), originalMsgId: 'PAYFILE1', group: { code: 'ACSC' } });
    await writeFile(join(inbox, 'report.xml'), report);
    const useCase = recording(async () => ({ kind: 'settled', payouts: 2 }));
    expect(await new Iso20022Inbox(inbox, useCase.apply, logger, clock).poll()).toBe(1);
    expect(useCase.calls.map(({ message }) => [message.kind, message.msgId])).toEqual([['pain.002', 'RPT1']]);
    expect(await folder('processed')).toEqual(['report.xml']);
    expect(logged.map(({ level, fields }) => [level, fields.kind, fields.settled])).toEqual([['info', 'pain.002', 2]]);
  });
});
