import { isAgentAnswerFile } from './files.js';
import { type InboxEntry, readHead } from './inboxEntries.js';

/** Why a file of the inbox cannot be applied: it goes to rejected/ for an operator, with this reason. */
export class RejectedFile extends Error {}

/** What the worker logs once a file is applied (or found applied before) and moved to processed/. */
export interface Handled {
  level: 'info' | 'warn';
  fields: object;
  message: string;
}

/** The messages the inbox reads, by the namespace of their `Document`. */
export type InboxMessage = 'pain.002.001.11' | 'camt.053.001.08' | 'camt.054.001.08';

const READ: readonly InboxMessage[] = ['pain.002.001.11', 'camt.053.001.08', 'camt.054.001.08'];
const ISO_NAMESPACE = /urn:iso:std:iso:20022:tech:xsd:([a-z]{4}\.\d{3}\.\d{3}\.\d{2})/;

/** How far into a file its root element's namespace is looked for (past a declaration and a comment or two). */
const HEAD_BYTES = 4096;

/**
 * The message a file holds, told by the first ISO 20022 namespace in its head (the `Document`'s
 * xmlns): one the inbox reads, `undefined` when the head names none (the file is then read as a
 * status report, whose validation says what is wrong with it). Throws RejectedFile for another
 * ISO 20022 message (a camt.052, a pain.001 dropped in the wrong folder).
 */
export function inboxMessageOf(bytes: Uint8Array): InboxMessage | undefined {
  const head = new TextDecoder('utf-8').decode(bytes.subarray(0, HEAD_BYTES));
  const name = ISO_NAMESPACE.exec(head)?.[1];
  if (name === undefined) return undefined;
  const read = READ.find((message) => message === name);
  if (!read) throw new RejectedFile(`a ${name} message, which the inbox does not read (it reads ${READ.join(', ')})`);
  return read;
}

/**
 * The order of a pass: status reports first, then notifications, then statements, each in name
 * order. A bank drops a payment's settlement report, its booking and the day's statement together
 * more often than not; read in that order, a booking finds its payout settled and a statement finds
 * the day's bookings applied, whatever the bank named its files. The WPS agent's answers come last.
 */
export async function inReadingOrder<T extends InboxEntry>(dir: string, entries: readonly T[]): Promise<T[]> {
  const ranked = await Promise.all(entries.map(async (entry) => ({ entry, rank: RANK.indexOf(await headMessage(dir, entry)) })));
  return ranked.sort((a, b) => a.rank - b.rank || (a.entry.name < b.entry.name ? -1 : a.entry.name > b.entry.name ? 1 : 0)).map(({ entry }) => entry);
}

// A WPS agent's answer last: a refund finds its payout settled by the pass's status reports.
const RANK: readonly (InboxMessage | 'other' | 'wps')[] = ['other', 'pain.002.001.11', 'camt.054.001.08', 'camt.053.001.08', 'wps'];

async function headMessage(dir: string, entry: InboxEntry): Promise<InboxMessage | 'other' | 'wps'> {
  if (isAgentAnswerFile(entry.name)) return 'wps';
  try {
    return inboxMessageOf(await readHead(dir, entry, HEAD_BYTES)) ?? 'other';
  } catch {
    // Unreadable or another message: first in the pass, where handling it says why.
    return 'other';
  }
}
