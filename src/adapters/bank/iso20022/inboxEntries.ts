import { constants } from 'node:fs';
import { lstat, open } from 'node:fs/promises';
import { join } from 'node:path';
import { inboxFilesIn } from './files.js';

/** What lstat says of an inbox entry, never following a link. */
export interface InboxEntry {
  name: string;
  /** 'file' for a regular file; anything else (a link, a FIFO, a folder, a socket, a device) is never opened. */
  kind: 'file' | 'symlink' | 'fifo' | 'directory' | 'other';
  ino: number;
  size: number;
  mtimeMs: number;
}

/** The `*.xml` (and WPS `*.wps`) entries of the inbox, each lstat-ed; an entry gone meanwhile is left out. */
export async function inboxEntries(dir: string): Promise<InboxEntry[]> {
  const entries: InboxEntry[] = [];
  for (const name of await inboxFilesIn(dir)) {
    try {
      const stats = await lstat(join(dir, name));
      entries.push({ name, kind: kindOf(stats), ino: stats.ino, size: stats.size, mtimeMs: stats.mtimeMs });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
  }
  return entries;
}

function kindOf(stats: Awaited<ReturnType<typeof lstat>>): InboxEntry['kind'] {
  if (stats.isFile()) return 'file';
  if (stats.isSymbolicLink()) return 'symlink';
  if (stats.isFIFO()) return 'fifo';
  if (stats.isDirectory()) return 'directory';
  return 'other';
}

/** A link is never followed; a FIFO opened without a writer never blocks: O_NONBLOCK. */
const SAFE_OPEN = constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK;

/** A file that changed between its lstat and its opening (replaced, or replaced by a FIFO or a link): left for the next pass. */
export class ChangedEntry extends Error {}

/**
 * The bytes of a regular file of the inbox, at most `maxBytes` of them (TooLargeEntry beyond: a
 * report that large is not one the service reads). Opened without following a link and without
 * blocking; the opened file must still be the entry lstat saw (ChangedEntry otherwise).
 */
export async function readEntry(dir: string, entry: InboxEntry, maxBytes: number): Promise<Buffer> {
  if (entry.size > maxBytes) throw tooLarge(entry.size, maxBytes);
  const handle = await open(join(dir, entry.name), SAFE_OPEN);
  try {
    const stats = await handle.stat();
    if (!stats.isFile() || stats.ino !== entry.ino) throw new ChangedEntry(`${entry.name} changed while it was being opened`);
    if (stats.size > maxBytes) throw tooLarge(stats.size, maxBytes);
    // One byte more than the limit is asked for: a file that grew past it since the stat is seen.
    const buffer = Buffer.alloc(Math.min(stats.size, maxBytes) + 1);
    let length = 0;
    for (;;) {
      const { bytesRead } = await handle.read(buffer, length, buffer.length - length, length);
      if (bytesRead === 0) break;
      length += bytesRead;
      if (length === buffer.length) break;
    }
    if (length > maxBytes) throw tooLarge(length, maxBytes);
    return buffer.subarray(0, length);
  } finally {
    await handle.close();
  }
}

/** The first bytes of a regular file of the inbox (its head, where its namespace is), opened as readEntry does. */
export async function readHead(dir: string, entry: InboxEntry, bytes: number): Promise<Buffer> {
  const handle = await open(join(dir, entry.name), SAFE_OPEN);
  try {
    const stats = await handle.stat();
    if (!stats.isFile()) throw new ChangedEntry(`${entry.name} is no longer a regular file`);
    const { buffer, bytesRead } = await handle.read(Buffer.alloc(bytes), 0, bytes, 0);
    return buffer.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}

/** A file larger than a report may be: rejected, never read. */
export class TooLargeEntry extends Error {}

function tooLarge(size: number, maxBytes: number): TooLargeEntry {
  return new TooLargeEntry(`the file is ${size} bytes, more than the ${maxBytes} a report may be (BANK_REPORT_MAX_BYTES)`);
}
