import { randomUUID } from 'node:crypto';
import { SanctionsIndex } from '../../domain/screening/matching.js';
import { type SanctionsEntry, type SanctionsListFile, listsInForce } from '../../domain/screening/sanctionsLists.js';
import type { Database } from '../../store/database/db.js';
import { type RecordedListVersion, recordListVersions } from '../../store/screening/screening.js';

/** Where the lists' files come from (the folder adapter), as screening needs it. */
export interface SanctionsSource {
  dir: string;
  signature(): Promise<string>;
  read(): Promise<{ files: SanctionsListFile[]; refused: string[] }>;
}

/** The lists in force, indexed, with the versions recorded in the database. */
export interface LoadedLists {
  versions: RecordedListVersion[];
  index: SanctionsIndex;
  /** Each entry's list version id, and the entry by list and id (what a hit keeps). */
  versionOf(entry: { list: string }): string;
  entry(list: string, entryId: string): SanctionsEntry;
  /** Files of the folder that are not lists this service reads, with why. */
  refused: string[];
}

/**
 * The sanctions lists as the service screens with them: read from the folder when it changes
 * (its signature), recorded (each version once), indexed in memory. Every screening asks for the
 * current lists, so files dropped in the folder count from the next screening on.
 */
export class ScreeningLists {
  private loaded: { signature: string; lists: LoadedLists } | null = null;
  private loading: Promise<LoadedLists> | null = null;

  constructor(
    private readonly source: SanctionsSource,
    /** 0 to 1: an entry scoring this or more is a hit. */
    readonly threshold: number,
  ) {}

  get dir(): string {
    return this.source.dir;
  }

  async current(db: Database, now: Date): Promise<LoadedLists> {
    const signature = await this.source.signature();
    if (this.loaded?.signature === signature) return this.loaded.lists;
    this.loading ??= this.load(db, signature, now).finally(() => {
      this.loading = null;
    });
    return this.loading;
  }

  private async load(db: Database, signature: string, now: Date): Promise<LoadedLists> {
    const { files, refused } = await this.source.read();
    const inForce = listsInForce(files);
    const versions = await db.transaction((tx) =>
      recordListVersions(
        tx,
        inForce.map((file) => file.version),
        inForce.map(() => randomUUID()),
        now,
      ),
    );
    const versionId = new Map(versions.map((version) => [version.list as string, version.id]));
    const entries = new Map<string, SanctionsEntry>();
    for (const file of inForce) for (const entry of file.entries) entries.set(`${entry.list}/${entry.entryId}`, entry);
    const lists: LoadedLists = {
      versions,
      index: new SanctionsIndex([...entries.values()]),
      versionOf: (entry) => versionId.get(entry.list)!,
      entry: (list, entryId) => entries.get(`${list}/${entryId}`)!,
      refused,
    };
    this.loaded = { signature, lists };
    return lists;
  }
}
