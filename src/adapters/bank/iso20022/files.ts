import { randomBytes } from 'node:crypto';
import { access, lstat, mkdir, open, readdir, rename, unlink } from 'node:fs/promises';
import { join } from 'node:path';

/**
 * Bank files name beneficiaries and their accounts: what we write under the bank folders is the
 * owner's only, files 0600 and folders 0700 (docs/bank-files.md says what the transport then needs).
 */
export const PRIVATE_FILE_MODE = 0o600;
const PRIVATE_FOLDER_MODE = 0o700;

/** A folder (and its missing parents) created owner-only; one that exists keeps the mode its operator gave it. */
export async function ensurePrivateFolder(dir: string): Promise<void> {
  await mkdir(dir, { recursive: true, mode: PRIVATE_FOLDER_MODE });
}

/**
 * The folder side of a file exchange. A file appears under its final name whole or not at all: it is
 * written under a hidden temporary name (which every reader ignores), flushed to disk, then renamed,
 * and a rename within one folder is atomic.
 */
export async function writeFileAtomically(dir: string, name: string, content: string | Uint8Array): Promise<void> {
  await ensurePrivateFolder(dir);
  const temporary = join(dir, `.${name}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`);
  const handle = await open(temporary, 'wx', PRIVATE_FILE_MODE);
  try {
    await handle.writeFile(content, 'utf8');
    await handle.sync();
  } finally {
    await handle.close();
  }
  await rename(temporary, join(dir, name));
}

/** The hidden temporary name writeFileAtomically writes under. */
const TEMPORARY = /^\..+\.\d+\.[0-9a-f]{8}\.tmp$/;

/**
 * Removes what an interrupted writeFileAtomically left in `dir` (a process killed between writing
 * and renaming): hidden temporary files not modified for `olderThanMs`. A younger one may be another
 * process's write in progress (workers of a fleet share the outbox), so it is left for a later sweep.
 * Returns the names removed.
 */
export async function removeStaleTemporaryFiles(dir: string, olderThanMs: number, now = Date.now()): Promise<string[]> {
  const removed: string[] = [];
  for (const name of (await namesIn(dir)).filter((entry) => TEMPORARY.test(entry))) {
    try {
      const stats = await lstat(join(dir, name));
      if (!stats.isFile() || now - stats.mtimeMs < olderThanMs) continue;
      await unlink(join(dir, name));
      removed.push(name);
    } catch (error) {
      // Renamed or removed meanwhile by the process that wrote it: nothing left to clear.
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
  }
  return removed;
}

/** The finished files of a folder: `*.xml`, hidden and temporary files aside, in name order. */
export async function xmlFilesIn(dir: string): Promise<string[]> {
  return (await namesIn(dir)).filter((name) => name.endsWith('.xml') && !name.startsWith('.')).sort();
}

/** A WPS agent's answer to a salary file (docs/wps.md): read from the inbox beside the bank's XML files. */
export const isAgentAnswerFile = (name: string): boolean => /\.wps$/i.test(name);

/** The finished files of the inbox: the bank's `*.xml` and the WPS agent's `*.wps`, hidden and temporary files aside, in name order. */
export async function inboxFilesIn(dir: string): Promise<string[]> {
  return (await namesIn(dir)).filter((name) => (name.endsWith('.xml') || isAgentAnswerFile(name)) && !name.startsWith('.')).sort();
}

export async function exists(path: string): Promise<boolean> {
  try {
    await access(path);
    return true;
  } catch {
    return false;
  }
}

/** Moves `dir/name` into `dir/sub/` (created owner-only), never over a file already there (a second copy gets a suffix); returns the new path. */
export async function moveInto(dir: string, sub: string, name: string): Promise<string> {
  const target = join(dir, sub);
  await ensurePrivateFolder(target);
  let destination = join(target, name);
  const dot = name.lastIndexOf('.');
  const [stem, extension] = dot > 0 ? [name.slice(0, dot), name.slice(dot)] : [name, ''];
  for (let copy = 1; await exists(destination); copy++) destination = join(target, `${stem}.${copy}${extension}`);
  await rename(join(dir, name), destination);
  return destination;
}

/** The names in a folder; none when the folder does not exist (yet). */
async function namesIn(dir: string): Promise<string[]> {
  try {
    return await readdir(dir);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
}
