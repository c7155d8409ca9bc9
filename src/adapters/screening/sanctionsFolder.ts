import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { SanctionsListFile } from '../../domain/screening/sanctionsLists.js';
import { readSanctionsFolder } from './sanctionsFiles.js';

/**
 * The folder an operator drops the lists' files in (SANCTIONS_LIST_DIR). Its signature (each XML
 * file's name, size and modification time) tells cheaply whether anything changed since the last
 * read, so that newer files are noticed without reading the lists again on every screening.
 */
export class SanctionsListFolder {
  constructor(readonly dir: string) {}

  async signature(): Promise<string> {
    const names = (await readdir(this.dir)).filter((name) => name.toLowerCase().endsWith('.xml')).sort();
    const parts = await Promise.all(
      names.map(async (name) => {
        const info = await stat(join(this.dir, name));
        return `${name}:${info.size}:${info.mtimeMs}`;
      }),
    );
    return parts.join('|');
  }

  read(): Promise<{ files: SanctionsListFile[]; refused: string[] }> {
    return readSanctionsFolder(this.dir);
  }
}
