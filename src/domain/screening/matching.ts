import { jaroWinkler } from '@skyra/jaro-winkler';
import type { SanctionsEntry, SanctionsListName } from './sanctionsLists.js';
import { nameTokens, normalName } from './names.js';

/**
 * Matching a beneficiary against the lists' entries. Each name (every alias too) is compared token
 * by token with Jaro-Winkler: each token of one name is paired with its most similar token of the
 * other, the similarities weighted by the tokens' lengths, in both directions, and the name's score
 * is the mean of the two directions (a listed name with a token the beneficiary lacks, or the
 * other way round, scores lower than the same tokens in another order, which score 1). The entry's
 * score is its best name's, moved by the secondary evidence the beneficiary has (date of birth,
 * nationality): see EVIDENCE_WEIGHT.
 */

/**
 * How far a piece of secondary evidence moves a name's score: an agreeing date of birth or
 * nationality adds it, a disagreeing date of birth takes it away (a disagreeing nationality does not).
 */
const EVIDENCE_WEIGHT = 0.05;

/** What the service knows of a person it pays. */
export interface ScreenedParty {
  /** Every name the beneficiary goes by (a person's given and family names together, a company's name, the display name). */
  names: readonly string[];
  /** `YYYY-MM-DD`, when known. */
  dateOfBirth?: string | undefined;
  /** The country's English name, when known (the caller turns an ISO code into it). */
  nationality?: string | undefined;
}

/** One entry scored against a party, with the names that scored. */
export interface Candidate {
  list: SanctionsListName;
  entryId: string;
  /** The listed name (primary or alias) that scored best, as published. */
  matchedName: string;
  /** The party's name that scored it. */
  screenedName: string;
  /** 0 to 1, rounded to 4 decimals. */
  score: number;
  nameScore: number;
  /** Whether the secondary evidence agreed (true), disagreed (false) or could not say (absent). */
  dateOfBirthAgrees?: boolean;
  nationalityAgrees?: boolean;
}

interface IndexedName {
  entry: SanctionsEntry;
  published: string;
  tokens: string[];
  letters: number;
}

/** The key a token is found by: its first three letters (the whole token when shorter). */
const keyOf = (token: string): string => token.slice(0, 3);

/**
 * The lists in memory, searchable by token: a party is compared only with the names that share
 * the first letters of one of its tokens (a name misspelt in the first letters of every token is
 * missed; one right in any token is found), so a screening costs the names it resembles, not the
 * lists' size.
 */
export class SanctionsIndex {
  private readonly byKey = new Map<string, IndexedName[]>();
  readonly entryCount: number;

  constructor(entries: readonly SanctionsEntry[]) {
    this.entryCount = entries.length;
    for (const entry of entries) {
      const seen = new Set<string>();
      for (const published of entry.names) {
        const tokens = nameTokens(published);
        const normal = tokens.join(' ');
        if (tokens.length === 0 || seen.has(normal)) continue;
        seen.add(normal);
        const indexed: IndexedName = { entry, published, tokens, letters: lettersOf(tokens) };
        for (const key of new Set(tokens.map(keyOf))) {
          const bucket = this.byKey.get(key);
          if (bucket) bucket.push(indexed);
          else this.byKey.set(key, [indexed]);
        }
      }
    }
  }

  /** The entries scoring at least `threshold` (0 to 1) against the party, best first, at most `limit`. */
  screen(party: ScreenedParty, threshold: number, limit = 5): Candidate[] {
    const best = new Map<SanctionsEntry, Candidate>();
    for (const screenedName of new Set(party.names.map((name) => name.trim()).filter(Boolean))) {
      const tokens = nameTokens(screenedName);
      if (tokens.length === 0) continue;
      const letters = lettersOf(tokens);
      const compared = new Set<IndexedName>();
      for (const key of new Set(tokens.map(keyOf))) {
        for (const listed of this.byKey.get(key) ?? []) {
          if (compared.has(listed)) continue;
          compared.add(listed);
          const nameScore = tokenScore(tokens, letters, listed.tokens, listed.letters);
          // Evidence moves a score by at most 2 × EVIDENCE_WEIGHT: below that, no evidence can reach the threshold.
          if (nameScore + 2 * EVIDENCE_WEIGHT < threshold) continue;
          const candidate = withEvidence(listed, screenedName, nameScore, party);
          const previous = best.get(listed.entry);
          if (candidate.score >= threshold && (!previous || candidate.score > previous.score)) best.set(listed.entry, candidate);
        }
      }
    }
    return [...best.values()].sort((a, b) => b.score - a.score || a.list.localeCompare(b.list) || a.entryId.localeCompare(b.entryId)).slice(0, limit);
  }
}

/** The similarity of two names' sorted tokens (see the module's comment), 0 to 1. */
export function nameSimilarity(a: string, b: string): number {
  const ta = nameTokens(a);
  const tb = nameTokens(b);
  if (ta.length === 0 || tb.length === 0) return 0;
  return tokenScore(ta, lettersOf(ta), tb, lettersOf(tb));
}

function tokenScore(a: readonly string[], lettersA: number, b: readonly string[], lettersB: number): number {
  if (a.join(' ') === b.join(' ')) return 1;
  return (directed(a, lettersA, b) + directed(b, lettersB, a)) / 2;
}

function directed(from: readonly string[], letters: number, to: readonly string[]): number {
  let sum = 0;
  for (const token of from) {
    let best = 0;
    for (const other of to) {
      const similarity = token === other ? 1 : jaroWinkler(token, other);
      if (similarity > best) best = similarity;
      if (best === 1) break;
    }
    sum += best * token.length;
  }
  return sum / letters;
}

function lettersOf(tokens: readonly string[]): number {
  return tokens.reduce((sum, token) => sum + token.length, 0);
}

function withEvidence(listed: IndexedName, screenedName: string, nameScore: number, party: ScreenedParty): Candidate {
  const { entry } = listed;
  const candidate: Candidate = { list: entry.list, entryId: entry.entryId, matchedName: listed.published, screenedName, score: 0, nameScore: round(nameScore) };
  let score = nameScore;
  if (party.dateOfBirth && entry.datesOfBirth.length > 0) {
    candidate.dateOfBirthAgrees = entry.datesOfBirth.some((listedDate) => party.dateOfBirth!.startsWith(listedDate));
    score += candidate.dateOfBirthAgrees ? EVIDENCE_WEIGHT : -EVIDENCE_WEIGHT;
  }
  if (party.nationality && entry.nationalities.length > 0) {
    const country = normalName(party.nationality);
    candidate.nationalityAgrees = entry.nationalities.some((listedCountry) => sameCountry(normalName(listedCountry), country));
    // Only agreement counts: lists and ISO names write one country in many ways, and a person may hold several nationalities.
    if (candidate.nationalityAgrees) score += EVIDENCE_WEIGHT;
  }
  candidate.score = round(Math.min(1, Math.max(0, score)));
  return candidate;
}

/** Country names as lists and Intl write them differ in form ("Jordan", "Jordanian"; "Congo - Kinshasa"): close enough counts. */
function sameCountry(listed: string, country: string): boolean {
  if (listed === country) return true;
  return jaroWinkler(listed, country) >= 0.9;
}

function round(score: number): number {
  return Math.round(score * 10_000) / 10_000;
}
