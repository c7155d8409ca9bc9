import { createHash } from 'node:crypto';
import { parentPort } from 'node:worker_threads';
import { CamtError, parseBankToCustomer } from './camtParse.js';
import { parsePain002 } from './pain002.js';
import type { ReaderReply, ReaderRequest } from './reportReader.js';
import { XsdValidator } from './xsdValidator.js';

/**
 * The thread that reads the inbox's reports for src/adapters/bank/iso20022/reportReader.ts: each file
 * hashed, validated against its XSD and parsed here, off the event loop the API and the worker
 * share. What it read goes back in messages of at most LIST_CHUNK items, each one short to
 * deserialise, one at a time as the main thread asks for the next: messages already waiting on a
 * port are delivered to the main thread in one go, so a report's chunks sent at once would be
 * deserialised in one long stall.
 */
const LIST_CHUNK = 2_000;

const validator = new XsdValidator();
const port = parentPort!;
/** The replies to the file being read not sent yet: the next goes when the main thread asks. */
let unsent: ReaderReply[] = [];

port.on('message', (request: ReaderRequest) => {
  if (request.kind === 'next') return sendNext(request.id);
  read(request).then(
    (replies) => {
      unsent = replies;
      sendNext(request.id);
    },
    (error: unknown) => port.postMessage({ id: request.id, kind: 'failed', error: (error as Error).stack ?? String(error) } satisfies ReaderReply),
  );
});

function sendNext(id: number): void {
  const reply = unsent[0];
  if (reply?.id !== id) return;
  unsent.shift();
  port.postMessage(reply);
}

/** The replies to one file: its lists in chunks, then the rest of it (or one reply saying why it cannot be read). */
async function read({ id, message, bytes }: Extract<ReaderRequest, { kind: 'read' }>): Promise<ReaderReply[]> {
  const sha256 = createHash('sha256').update(bytes).digest('hex');
  const errors = await validator.errors(bytes, message);
  if (errors.length > 0) return [{ id, kind: 'rejected', reason: `not a valid ${message} document: ${errors[0]}` }];
  if (message === 'pain.002.001.11') {
    let report;
    try {
      report = parsePain002(new TextDecoder('utf-8').decode(bytes));
    } catch (error) {
      return [{ id, kind: 'rejected', reason: (error as Error).message }];
    }
    return [...chunks(id, 0, report.transactions), { id, kind: 'done', head: { kind: 'pain.002', sha256, report: { ...report, transactions: [] } } }];
  }
  return readBankToCustomer(id, bytes, sha256);
}

function readBankToCustomer(id: number, bytes: Uint8Array, sha256: string): ReaderReply[] {
  let read;
  try {
    read = parseBankToCustomer(bytes);
  } catch (error) {
    if (error instanceof CamtError) return [{ id, kind: 'rejected', reason: error.message }];
    throw error;
  }
  const lists = read.reports.flatMap((report, index) => chunks(id, index, report.entries));
  const reports = read.reports.map((report) => ({ ...report, entries: [] }));
  return [...lists, { id, kind: 'done', head: { kind: 'camt', sha256, message: { ...read, reports } } }];
}

function chunks(id: number, list: number, items: readonly unknown[]): ReaderReply[] {
  const replies: ReaderReply[] = [];
  for (let at = 0; at < items.length; at += LIST_CHUNK) replies.push({ id, kind: 'chunk', list, items: items.slice(at, at + LIST_CHUNK) });
  return replies;
}
