// npm run bank-simulator -- --outbox DIR --inbox DIR [--delay-ms N] [--poll-ms N]: plays the partner
// bank of the ISO 20022 file exchange (docs/bank-files.md). It picks up each pain.001 the service
// writes in the outbox, validates it against the XSD and answers with pain.002 status reports in the
// inbox: at once (ACCP, or a group RJCT: FF01 for an invalid file, DU01 for a MsgId already seen),
// then --delay-ms later the settlement (ACSC per payment, RJCT AC04 where the remittance reference
// starts with FAIL). A file it has read goes to processed/ under the outbox, as a bank's SFTP server
// archives what it picked up. Its memory is on disk (processed/.seen-msgids, processed/.pending/),
// so a restarted simulator keeps refusing duplicates and still sends the settlements it owes.
import { appendFile, mkdir, readFile, readdir, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { answerPaymentFile } from '../src/adapters/iso20022/bankSimulator.js';
import { exists, moveInto, writeFileAtomically, xmlFilesIn } from '../src/adapters/iso20022/files.js';

const USAGE = 'usage: npm run bank-simulator -- --outbox DIR --inbox DIR [--delay-ms N (default 1000)] [--poll-ms N (default 200)]';

function options(): { outbox: string; inbox: string; delayMs: number; pollMs: number } {
  const { values } = parseArgs({
    options: {
      outbox: { type: 'string' },
      inbox: { type: 'string' },
      'delay-ms': { type: 'string', default: '1000' },
      'poll-ms': { type: 'string', default: '200' },
    },
  });
  const delayMs = Number(values['delay-ms']);
  const pollMs = Number(values['poll-ms']);
  if (!values.outbox || !values.inbox || !Number.isInteger(delayMs) || delayMs < 0 || !Number.isInteger(pollMs) || pollMs < 1) {
    console.error(USAGE);
    process.exit(2);
  }
  return { outbox: values.outbox, inbox: values.inbox, delayMs, pollMs };
}

const log = (message: string, fields: Record<string, unknown> = {}) => console.log(JSON.stringify({ time: new Date().toISOString(), message, ...fields }));

async function seenMessageIds(file: string): Promise<Set<string>> {
  if (!(await exists(file))) return new Set();
  return new Set((await readFile(file, 'utf8')).split('\n').filter(Boolean));
}

/** Answers one payment file of the outbox and archives it. */
async function handle(name: string, dirs: { outbox: string; inbox: string; pending: string; seenFile: string }, seen: Set<string>, delayMs: number) {
  const xml = await readFile(join(dirs.outbox, name), 'utf8');
  const now = new Date();
  const answer = await answerPaymentFile(xml, (msgId) => seen.has(msgId), now);
  if (answer.accepted) {
    seen.add(answer.originalMsgId);
    await appendFile(dirs.seenFile, `${answer.originalMsgId}\n`);
  }
  if (answer.settled) await writeFileAtomically(dirs.pending, `${now.getTime() + delayMs}-${answer.settled.msgId}.xml`, answer.settled.xml);
  await writeFileAtomically(dirs.inbox, `${answer.immediate.msgId}.xml`, answer.immediate.xml);
  await moveInto(dirs.outbox, 'processed', name);
  log(answer.accepted ? 'payment file accepted' : 'payment file rejected', { file: name, msgId: answer.originalMsgId, report: answer.immediate.msgId });
}

/** Sends the settlement reports that are due (named `<due epoch ms>-<report MsgId>.xml`). */
async function sendDue(pending: string, inbox: string): Promise<void> {
  for (const name of (await readdir(pending)).filter((file) => /^\d+-.+\.xml$/.test(file)).sort()) {
    const [due, report] = [Number(name.slice(0, name.indexOf('-'))), name.slice(name.indexOf('-') + 1)];
    if (due > Date.now()) continue;
    // Written anew (the inbox may be on another file system than the outbox), then forgotten.
    await writeFileAtomically(inbox, report, await readFile(join(pending, name), 'utf8'));
    await unlink(join(pending, name));
    log('settlement report sent', { report });
  }
}

async function main(): Promise<void> {
  const { outbox, inbox, delayMs, pollMs } = options();
  const processed = join(outbox, 'processed');
  const dirs = { outbox, inbox, pending: join(processed, '.pending'), seenFile: join(processed, '.seen-msgids') };
  await mkdir(dirs.pending, { recursive: true });
  await mkdir(inbox, { recursive: true });
  const seen = await seenMessageIds(dirs.seenFile);
  let running = true;
  const stop = () => (running = false);
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
  log('bank simulator started', { outbox, inbox, delayMs });
  while (running) {
    try {
      for (const name of await xmlFilesIn(outbox)) await handle(name, dirs, seen, delayMs);
      await sendDue(dirs.pending, inbox);
    } catch (error) {
      log('bank simulator pass failed', { error: (error as Error).message });
    }
    await new Promise((resolve) => setTimeout(resolve, pollMs));
  }
  log('bank simulator stopped');
}

await main();
