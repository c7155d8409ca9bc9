/**
 * npx tsx bench/screening.ts [--beneficiaries N] [--payroll N]   (npm run bench -- --only screening-100k)
 *
 * What sanctions screening costs (src/domain/screening/matching.ts), in memory, no database: lists
 * generated to the size of the full published lists (OFAC's SDN list: about 18,700 entries with
 * their aliases; the UN consolidated list: about 1,000), names made of syllables the way the lists'
 * transliterated names are, with a seeded generator so that every run screens the same names; the
 * index built from them; N beneficiaries (default 100,000; a given name from a pool of 5,000 and a
 * family name from one of 30,000, as a payroll's people share names) screened at the default threshold; and
 * the check a payroll's payouts get before their file is written, for a payroll of M lines (default
 * 10,000), per payroll and per payout. The time to store the screenings is the database's and is
 * not in these figures. Prints the load average with the figures.
 */
import { spawnSync } from 'node:child_process';
import { loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { SanctionsIndex } from '../src/domain/screening/matching.js';
import type { SanctionsEntry, SanctionsListName } from '../src/domain/screening/sanctionsLists.js';

const SDN_ENTRIES = 18_700;
const UN_ENTRIES = 1_003;
const THRESHOLD = 0.9;
const SYLLABLES = ['a', 'ab', 'al', 'am', 'an', 'ba', 'bu', 'da', 'di', 'el', 'fa', 'ha', 'hu', 'i', 'ja', 'ka', 'ki', 'la', 'li', 'ma', 'med', 'mo'];
SYLLABLES.push('mu', 'na', 'ni', 'o', 'ra', 'ri', 'sa', 'se', 'sha', 'su', 'ta', 'ti', 'u', 'wa', 'ya', 'yu', 'za', 'ze', 'kov', 'ner', 'son', 'lin');

const loadAverage = () => loadavg().map((value) => Math.round(value * 100) / 100);

/** A small seeded generator (mulberry32): the same lists and names on every run. */
function generator(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

function nameMaker(random: () => number): () => string {
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
  const token = () => Array.from({ length: 2 + Math.floor(random() * 2) }, () => pick(SYLLABLES)).join('');
  return () => Array.from({ length: 2 + Math.floor(random() * 2) }, token).join(' ');
}

function generatedList(list: SanctionsListName, count: number, name: () => string, random: () => number): SanctionsEntry[] {
  return Array.from({ length: count }, (_, n) => ({
    list,
    entryId: String(n + 1),
    kind: 'individual' as const,
    names: Array.from({ length: 1 + Math.floor(random() * 4) }, name),
    datesOfBirth: [String(1940 + Math.floor(random() * 60))],
    nationalities: [],
  }));
}

function measure(beneficiaries: number, payroll: number): void {
  const loadStart = loadAverage();
  const random = generator(42);
  const name = nameMaker(random);
  const entries = [...generatedList('OFAC_SDN', SDN_ENTRIES, name, random), ...generatedList('UN_CONSOLIDATED', UN_ENTRIES, name, random)];
  const names = entries.reduce((sum, entry) => sum + entry.names.length, 0);
  let started = performance.now();
  const index = new SanctionsIndex(entries);
  const indexMs = performance.now() - started;
  // A payroll's people share their names: given names from a pool of 5,000, family names from one of 30,000.
  const token = () => name().split(' ')[0]!;
  const givenNames = Array.from({ length: 5_000 }, token);
  const familyNames = Array.from({ length: 30_000 }, token);
  const pick = (pool: readonly string[]) => pool[Math.floor(random() * pool.length)]!;
  const people = Array.from({ length: beneficiaries }, () => ({ names: [`${pick(givenNames)} ${pick(familyNames)}`] }));
  started = performance.now();
  let hits = 0;
  for (const person of people) hits += index.screen(person, THRESHOLD).length > 0 ? 1 : 0;
  const screenMs = performance.now() - started;
  started = performance.now();
  for (const person of people.slice(0, payroll)) index.screen(person, THRESHOLD);
  const payrollMs = performance.now() - started;
  const result = {
    lists: { entries: entries.length, names },
    indexBuildMs: Math.round(indexMs),
    beneficiaries: {
      count: beneficiaries,
      seconds: Math.round(screenMs) / 1000,
      perBeneficiaryMs: Math.round((screenMs / beneficiaries) * 1000) / 1000,
      withHits: hits,
    },
    payroll: { payouts: payroll, ms: Math.round(payrollMs), perPayoutMs: Math.round((payrollMs / payroll) * 1000) / 1000 },
    loadAverage: { start: loadStart, end: loadAverage() },
  };
  console.log(JSON.stringify({ screening: result }, null, 2));
}

/** The scenario as bench/run.ts runs it: in a process of its own, its figures printed there. */
export function screeningScenario(): void {
  const run = spawnSync(process.execPath, ['--import', 'tsx', fileURLToPath(import.meta.url)], { stdio: 'inherit' });
  if (run.status !== 0) throw new Error(`bench/screening.ts failed (exit code ${run.status})`);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { values } = parseArgs({ options: { beneficiaries: { type: 'string', default: '100000' }, payroll: { type: 'string', default: '10000' } } });
  measure(Number(values.beneficiaries), Number(values.payroll));
}
