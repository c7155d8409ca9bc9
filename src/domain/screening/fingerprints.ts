import { createHash } from 'node:crypto';
import type { SanctionsEntry } from './sanctionsLists.js';
import { normalName } from './names.js';

/**
 * What a hit is raised for: an entry and a beneficiary as they are written. A released match is
 * not raised again while both fingerprints stay the same; a change of either (an alias added to
 * the entry, the beneficiary renamed) raises it anew.
 */

const digest = (value: unknown): string => createHash('sha256').update(JSON.stringify(value)).digest('hex').slice(0, 32);

export function entryFingerprint(entry: SanctionsEntry): string {
  return digest([entry.kind, entry.names.map(normalName).sort(), [...entry.datesOfBirth].sort(), entry.nationalities.map(normalName).sort()]);
}

export function partyFingerprint(names: readonly string[], nationality: string | undefined): string {
  return digest([names.map(normalName).sort(), nationality ?? null]);
}
