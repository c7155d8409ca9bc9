import { createHash } from 'node:crypto';
import { parentPort } from 'node:worker_threads';
import { CamtError, parseBankToCustomer } from './camtParse.js';
import { parsePain002 } from './pain002.js';
import type { ReaderReply, ReaderRequest } from './reportReader.js';
import { XsdValidator } from './xsdValidator.js';

/**
 * The thread that reads the inbox's reports for src/adapters/iso20022/reportReader.ts: each file
 * hashed, validated against its XSD and parsed here, off the event loop the API and the worker
 * share. What it read goes back in messages of at most LIST_CHUNK items, each one short to
 * deserialise, so that the main thread takes a 100,000-transaction report in many small bites.
 */
const LIST_CHUNK = 2_000;

const validator = new XsdValidator();
const port = parentPort!;

port.on('message', (request: ReaderRequest) => {
  read(request).then(
    (reply) => port.postMessage(reply),
    (error: unknown) => port.postMessage({ id: request.id, kind: 'failed', error: (error as Error).stack ?? String(error) } satisfies ReaderReply),
  );
});

async function read({ id, message, bytes }: ReaderRequest): Promise<ReaderReply> {
  const sha256 = createHash('sha256').update(bytes).digest('hex');
  const errors = await validator.errors(bytes, message);
  if (errors.length > 0) return { id, kind: 'rejected', reason: `not a valid ${message} document: ${errors[0]}` };
  if (message === 'pain.002.001.11') {
    let report;
    try {
      report = parsePain002(new TextDecoder('utf-8').decode(bytes));
    } catch (error) {
      return { id, kind: 'rejected', reason: (error as Error).message };
    }
    sendList(id, 0, report.transactions);
    return { id, kind: 'done', head: { kind: 'pain.002', sha256, report: { ...report, transactions: [] } } };
  }
  return readBankToCustomer(id, bytes, sha256);
}

function readBankToCustomer(id: number, bytes: Uint8Array, sha256: string): ReaderReply {
  let read;
  try {
    read = parseBankToCustomer(bytes);
  } catch (error) {
    if (error instanceof CamtError) return { id, kind: 'rejected', reason: error.message };
    throw error;
  }
  read.reports.forEach((report, index) => sendList(id, index, report.entries));
  const reports = read.reports.map((report) => ({ ...report, entries: [] }));
  return { id, kind: 'done', head: { kind: 'camt', sha256, message: { ...read, reports } } };
}

function sendList(id: number, list: number, items: readonly unknown[]): void {
  for (let at = 0; at < items.length; at += LIST_CHUNK)
    port.postMessage({ id, kind: 'chunk', list, items: items.slice(at, at + LIST_CHUNK) } satisfies ReaderReply);
}
