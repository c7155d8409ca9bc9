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
  /** Its place in the index's names: the counters of a screening are arrays indexed by it. */
  id: number;
  entry: SanctionsEntry;
  published: string;
  tokens: string[];
  letters: number;
}

/** A listed token is close to a screened one from this Jaro-Winkler similarity on (a name then may score). */
const CLOSE_TOKEN = 0.8;
/** How many screened tokens' close tokens are remembered before the memory starts again (beneficiaries share their names). */
const MAX_REMEMBERED_TOKENS = 200_000;

/**
 * The lists in memory, searchable by token. A screened name is compared only with the listed names
 * that hold a token close to (Jaro-Winkler at least CLOSE_TOKEN) two of its tokens, or one when
 * either name has a single token; close tokens are looked for among the listed tokens of the same
 * first letter. So a name misspelt in the first letter of all but one of its tokens is missed,
 * and a screening costs the names it resembles, not the lists' size.
 */
export class SanctionsIndex {
  private readonly tokenIds = new Map<string, number>();
  private readonly tokens: string[] = [];
  /** Each token's characters, split once (the similarity reads them so twice as fast as from the string). */
  private readonly tokenChars: string[][] = [];
  /** The names holding each token, by token id. */
  private readonly postings: IndexedName[][] = [];
  /** Token ids by first letter. */
  private readonly byFirstLetter = new Map<string, number[]>();
  /** Each screened token's close listed tokens, remembered across screenings. */
  private readonly closeTokens = new Map<string, number[]>();
  private nameCount = 0;
  /** Per listed name, during one screened name: the last of its tokens that reached it (+1), and how many did. */
  private seenBy = new Int32Array(0);
  private counts = new Uint8Array(0);
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
        const indexed: IndexedName = { id: this.nameCount++, entry, published, tokens, letters: lettersOf(tokens) };
        for (const token of new Set(tokens)) this.postings[this.idOf(token)]!.push(indexed);
      }
    }
    this.seenBy = new Int32Array(this.nameCount);
    this.counts = new Uint8Array(this.nameCount);
  }

  private idOf(token: string): number {
    let id = this.tokenIds.get(token);
    if (id === undefined) {
      id = this.tokens.length;
      this.tokenIds.set(token, id);
      this.tokens.push(token);
      this.tokenChars.push([...token]);
      this.postings.push([]);
      const first = token[0]!;
      const bucket = this.byFirstLetter.get(first);
      if (bucket) bucket.push(id);
      else this.byFirstLetter.set(first, [id]);
    }
    return id;
  }

  /** The listed tokens close to `token`, by id. */
  private closeTo(token: string): number[] {
    let close = this.closeTokens.get(token);
    if (close === undefined) {
      const chars = [...token];
      close = (this.byFirstLetter.get(token[0]!) ?? []).filter((id) => this.tokens[id] === token || jaroWinkler(chars, this.tokenChars[id]!) >= CLOSE_TOKEN);
      if (this.closeTokens.size >= MAX_REMEMBERED_TOKENS) this.closeTokens.clear();
      this.closeTokens.set(token, close);
    }
    return close;
  }

  /** The entries scoring at least `threshold` (0 to 1) against the party, best first, at most `limit`. */
  screen(party: ScreenedParty, threshold: number, limit = 5): Candidate[] {
    const best = new Map<SanctionsEntry, Candidate>();
    for (const screenedName of new Set(party.names.map((name) => name.trim()).filter(Boolean))) {
      const tokens = nameTokens(screenedName);
      if (tokens.length === 0) continue;
      const letters = lettersOf(tokens);
      const similarity = tokenSimilarities(tokens);
      // How many of the screened tokens each listed name holds a close token of, counted in arrays
      // indexed by the names' ids (the postings of common tokens are long): each name once per
      // screened token, the names met in the order first met.
      const met: IndexedName[] = [];
      let matched: Array<readonly [IndexedName, number]>;
      try {
        let tokenNo = 0;
        for (const token of new Set(tokens)) {
          tokenNo++;
          for (const id of this.closeTo(token)) {
            for (const listed of this.postings[id]!) {
              if (this.seenBy[listed.id] === tokenNo) continue;
              if (this.counts[listed.id] === 0) met.push(listed);
              this.seenBy[listed.id] = tokenNo;
              this.counts[listed.id]! += 1;
            }
          }
        }
        matched = met.map((listed) => [listed, this.counts[listed.id]!] as const);
      } finally {
        // Left clean for the next name, whatever happened.
        for (const listed of met) {
          this.counts[listed.id] = 0;
          this.seenBy[listed.id] = 0;
        }
      }
      for (const [listed, count] of matched) {
        if (count < Math.min(2, tokens.length, listed.tokens.length)) continue;
        const nameScore = scoreAgainst(tokens, letters, listed, similarity);
        // Evidence moves a score by at most 2 × EVIDENCE_WEIGHT: below that, no evidence can reach the threshold.
        if (nameScore + 2 * EVIDENCE_WEIGHT < threshold) continue;
        const candidate = withEvidence(listed, screenedName, nameScore, party);
        const previous = best.get(listed.entry);
        if (candidate.score >= threshold && (!previous || candidate.score > previous.score)) best.set(listed.entry, candidate);
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

/**
 * The similarity of each of a name's tokens to a listed token, each pair computed once: the lists
 * repeat their tokens (a given name is in thousands of entries), so a screening computes far fewer
 * Jaro-Winkler similarities than it compares names.
 */
function tokenSimilarities(tokens: readonly string[]): (index: number, listed: string) => number {
  const known = tokens.map(() => new Map<string, number>());
  return (index, listed) => {
    const cache = known[index]!;
    let similarity = cache.get(listed);
    if (similarity === undefined) {
      const token = tokens[index]!;
      similarity = token === listed ? 1 : jaroWinkler(token, listed);
      cache.set(listed, similarity);
    }
    return similarity;
  };
}

/** tokenScore with the pairs' similarities taken from `similarity`. */
function scoreAgainst(tokens: readonly string[], letters: number, listed: IndexedName, similarity: (index: number, listed: string) => number): number {
  if (tokens.length === listed.tokens.length && tokens.every((token, index) => token === listed.tokens[index])) return 1;
  let forward = 0;
  for (let i = 0; i < tokens.length; i++) {
    let best = 0;
    for (const other of listed.tokens) best = Math.max(best, similarity(i, other));
    forward += best * tokens[i]!.length;
  }
  let backward = 0;
  for (const other of listed.tokens) {
    let best = 0;
    for (let i = 0; i < tokens.length; i++) best = Math.max(best, similarity(i, other));
    backward += best * other.length;
  }
  return (forward / letters + backward / listed.letters) / 2;
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
