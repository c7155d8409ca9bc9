/**
 * npx tsx bench/bankFiles.ts [--payouts N] [--database-url postgres://…]
 *
 * What the ISO 20022 file exchange costs for one big payroll (BANK_RAIL=iso20022, docs/bank-files.md):
 * one batch of N payouts (default 10,000) through the real rail on a fresh database — the pain.001
 * written once, the bank simulator's work on it (XSD validation and both answers), the worker's inbox
 * (XSD validation of each report, one statement applying it), and the batch status read the worker
 * settles from. Each phase is timed, the file sizes and the process's RSS printed. The worker's own
 * set-based moves of the payouts (statuses, events, postings) are `npm run bench`'s payroll scenarios.
 */
import { chmod, mkdir, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import type { PayoutBatch } from '../src/domain/payouts/payoutBatch.js';
import { answerPaymentFile } from '../src/adapters/bank/iso20022/bankSimulator.js';
import { Iso20022Inbox } from '../src/adapters/bank/iso20022/inbox.js';
import { bankMessageApplier } from '../src/usecases/bank/applyBankMessage.js';
import { Iso20022BankRail } from '../src/adapters/bank/iso20022/rail.js';
import { bankFileRecords } from '../src/store/bank/bankFiles.js';
import { openDatabase } from '../src/store/database/open.js';

const { values } = parseArgs({ options: { payouts: { type: 'string', default: '10000' }, 'database-url': { type: 'string' } } });
const count = Number(values.payouts);
const uuid = (prefix: string, n: number) => `${prefix}-0000-4000-8000-${String(n).padStart(12, '0')}`;

function batchOf(size: number): PayoutBatch {
  return {
    batchId: uuid('b0000001', 1),
    payrollRequestId: uuid('b0000002', 1),
    currencyCode: 'AED',
    debtor: {
      accountCurrencyId: uuid('b0000003', 1),
      accountProvider: 'PAYROLL_PARTNER_BANK',
      name: 'Payroll partner bank',
      iban: 'AE420260001015333439101',
      bic: 'EBILAEAD',
    },
    requestedExecutionDate: new Date().toISOString().slice(0, 10),
    items: Array.from({ length: size }, (_, n) => ({
      transferId: uuid('b0000004', n),
      amount: `${3000 + (n % 5000)}.${String(n % 100).padStart(2, '0')}`,
      creditor: { name: `Employee ${n}`, iban: 'AE070331234567890123456', accountNumber: null, bankName: 'Emirates NBD', bic: 'EBILAEAD' },
      purposeCode: 'SAL',
      beneficiaryReference: n % 100 === 99 ? `FAIL-${n}` : `EMP-${n}`,
    })),
  };
}

async function timed<T>(label: string, work: () => Promise<T>): Promise<T> {
  const started = performance.now();
  const result = await work();
  const ms = performance.now() - started;
  console.log(`${label.padEnd(58)} ${ms.toFixed(0).padStart(7)} ms   rss ${(process.memoryUsage().rss / 2 ** 20).toFixed(0)} MB`);
  return result;
}

const dir = await mkdtemp(join(tmpdir(), 'bench-bank-files-'));
// The embedded PostgreSQL runs as the user postgres when we are root: it must be able to enter the directory.
await chmod(dir, 0o755);
const db = await openDatabase({ databaseUrl: values['database-url'], dataDir: join(dir, 'pg'), embeddedPort: undefined }, { maxConnections: 2 });
try {
  const [outbox, inbox] = [join(dir, 'outbox'), join(dir, 'inbox')];
  const clock = () => new Date();
  const rail = new Iso20022BankRail(bankFileRecords(db), { outboxDir: outbox, initiatingParty: 'Payroll Fee Service', clock });
  const batch = batchOf(count);
  console.log(`${count} payouts, load average ${(await readFile('/proc/loadavg', 'utf8')).split(' ').slice(0, 3).join(' ')}`);
  const { externalBatchId } = await timed('submitBatch: record the batch, write the pain.001', () => rail.submitBatch(batch));
  const file = join(outbox, `${externalBatchId}.xml`);
  console.log(`pain.001: ${((await stat(file)).size / 2 ** 20).toFixed(1)} MB`);
  const xml = await readFile(file, 'utf8');
  const answer = await timed('simulator: validate against the XSD, write both answers', () => answerPaymentFile(xml, () => false, new Date()));
  await mkdir(inbox, { recursive: true });
  await writeFile(join(inbox, `${answer.immediate.msgId}.xml`), answer.immediate.xml);
  await writeFile(join(inbox, `${answer.settled!.msgId}.xml`), answer.settled!.xml);
  console.log(`pain.002 (settlement): ${(Buffer.byteLength(answer.settled!.xml) / 2 ** 20).toFixed(1)} MB`);
  const logger = { info: () => {}, warn: console.warn, error: console.error };
  const moved = await timed('inbox: validate and apply both reports', () =>
    new Iso20022Inbox(inbox, bankMessageApplier({ db, clock, bookingGraceDays: 3 }), logger, clock).poll(),
  );
  const statuses = await timed('batchStatus: the settled payouts', () => rail.batchStatus(batch.batchId));
  const failed = statuses.filter((item) => item.status.state === 'FAILED').length;
  console.log(`reports applied ${moved}; payouts settled ${statuses.length} (${failed} failed AC04)`);
} finally {
  await db.close();
  await rm(dir, { recursive: true, force: true });
}
