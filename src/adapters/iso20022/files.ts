import { randomBytes } from 'node:crypto';
import { access, mkdir, open, readdir, rename } from 'node:fs/promises';
import { join } from 'node:path';

/**
 * The folder side of a file exchange. A file appears under its final name whole or not at all: it is
 * written under a hidden temporary name (which every reader ignores), flushed to disk, then renamed,
 * and a rename within one folder is atomic.
 */
export async function writeFileAtomically(dir: string, name: string, content: string): Promise<void> {
  await mkdir(dir, { recursive: true });
  const temporary = join(dir, `.${name}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`);
  const handle = await open(temporary, 'wx');
  try {
    await handle.writeFile(content, 'utf8');
    await handle.sync();
  } finally {
    await handle.close();
  }
  await rename(temporary, join(dir, name));
}

/** The finished files of a folder: `*.xml`, hidden and temporary files aside, in name order. */
export async function xmlFilesIn(dir: string): Promise<string[]> {
  let names: string[];
  try {
    names = await readdir(dir);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
  return names.filter((name) => name.endsWith('.xml') && !name.startsWith('.')).sort();
}

export async function exists(path: string): Promise<boolean> {
  try {
    await access(path);
    return true;
  } catch {
    return false;
  }
}

/** Moves `dir/name` into `dir/sub/`, never over a file already there (a second copy gets a suffix); returns the new path. */
export async function moveInto(dir: string, sub: string, name: string): Promise<string> {
  const target = join(dir, sub);
  await mkdir(target, { recursive: true });
  let destination = join(target, name);
  for (let copy = 1; await exists(destination); copy++) destination = join(target, name.replace(/\.xml$/, `.${copy}.xml`));
  await rename(join(dir, name), destination);
  return destination;
}
