import type { ScreenedParty } from './matching.js';

const REGIONS = new Intl.DisplayNames(['en'], { type: 'region' });

/** What screening compares of a beneficiary: its names (a person's given and family names together), its nationality's English name. */
export function partyOf(beneficiary: {
  firstName: string | null;
  lastName: string | null;
  companyName: string | null;
  displayName: string;
  nationality: string;
}): ScreenedParty {
  const person = [beneficiary.firstName, beneficiary.lastName].filter(Boolean).join(' ');
  const names = [...new Set([person, beneficiary.companyName ?? '', beneficiary.displayName].map((name) => name.trim()).filter(Boolean))];
  return { names, nationality: REGIONS.of(beneficiary.nationality) };
}
