/**
 * npx tsx bench/screening.ts [--beneficiaries N] [--payroll N] [--database-url postgres://…] [--check-only]   (npm run bench -- --only screening-100k)
 *
 * What sanctions screening costs (src/domain/screening/matching.ts), in memory, no database: lists
 * generated to the size of the full published lists (OFAC's SDN list: about 18,700 entries with
 * their aliases; the UN consolidated list: about 1,000), names made of syllables the way the lists'
 * transliterated names are, with a seeded generator so that every run screens the same names; the
 * index built from them; N beneficiaries (default 100,000; a given name from a pool of 5,000 and a
 * family name from one of 30,000, as a payroll's people share names) screened at the default threshold; and
 * the check a payroll's payouts get before their file is written, for a payroll of M lines (default
 * 10,000), per payroll and per payout, had it matched names again. The time to store the
 * screenings is the database's and is not in these figures.
 *
 * Then, on a database (a new one at --database-url, else a fresh embedded PostgreSQL), the check a
 * batch of M payouts really gets before its file is written (src/store/screening/batchScreening.ts):
 * the bench world's payroll copied to M payouts to M beneficiaries, in one batch not yet filed,
 * each beneficiary's screening state stored against the lists in force, one in a hundred with an
 * open hit; the check's statement timed (median of several runs). Prints the
 * load average with the figures.
 */
import { spawnSync } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { SanctionsIndex } from '../src/domain/screening/matching.js';
import type { SanctionsEntry, SanctionsListName } from '../src/domain/screening/sanctionsLists.js';
import { acquireEmbeddedPostgres } from '../src/store/database/embedded.js';
import { migrate } from '../src/store/database/migrate.js';
import { analyze } from '../src/store/database/open.js';
import { PostgresDatabase } from '../src/store/database/postgres.js';
import { batchScreeningStates } from '../src/store/screening/batchScreening.js';
import { type NewHit, insertScreenings, raiseHits } from '../src/store/screening/screening.js';
import { loadWorld } from '../src/world/load.js';
import { copyRequest } from './copyRequest.js';
import { benchIds, benchWorld } from './world.js';

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

const BATCH_ID = 'be7c5c00-0000-4000-8000-000000000001';
const CHECK_RUNS = 7;

/** A database holding one batch of `payouts` payouts not yet filed, their beneficiaries' screening state stored. */
async function batchToCheck(db: PostgresDatabase, payouts: number): Promise<string[]> {
  await migrate(db);
  await loadWorld(db, benchWorld(Math.max(payouts, 1_000)));
  await copyRequest(db, benchIds.request1k, Math.ceil(payouts / 1_000) - 1);
  await db.transaction(async (tx) => {
    await tx.query(
      `INSERT INTO payout_batches (id, payroll_request_id, currency_code, status, item_count, created_at) VALUES ($1, $2, 'AED', 'CREATED', $3, now())`,
      [BATCH_ID, benchIds.request1k, payouts],
    );
    // Each payout to a beneficiary of its own, all in the one batch, none yet told to the bank.
    await tx.query(
      `WITH numbered AS (
         SELECT t.id, t.amount_split_id, row_number() OVER (ORDER BY t.id) AS n FROM transfers t
          WHERE t.transfer_type = 'BANK_TO_BENEFICIARY' AND t.amount_split_id IS NOT NULL AND t.payroll_request_id <> $3
       ), moved AS (
         UPDATE amount_splits s SET beneficiary_id = ('be7c0006-0000-4000-8000-' || lpad(numbered.n::text, 12, '0'))::uuid
           FROM numbered WHERE numbered.id IS NOT NULL AND s.id = numbered.amount_split_id AND numbered.n <= $2
       )
       UPDATE transfers t SET status = 'PENDING', completed_at = NULL, batch_id = $1 FROM numbered WHERE t.id = numbered.id AND numbered.n <= $2`,
      [BATCH_ID, payouts, benchIds.request50],
    );
  });
  const versionIds = [randomUUID(), randomUUID()];
  await db.query(
    `INSERT INTO sanctions_list_versions (id, list, file_name, sha256, published_on, record_count, loaded_at, rescreened_at)
     VALUES ($1, 'OFAC_SDN', 'SDN.XML', 'a', '2026-11-01', $3, now(), now()), ($2, 'UN_CONSOLIDATED', 'UN.xml', 'b', '2026-11-01', $4, now(), now())`,
    [versionIds[0], versionIds[1], SDN_ENTRIES, UN_ENTRIES],
  );
  const beneficiaries = (
    await db.query<{ id: string; customerId: string }>(
      `SELECT DISTINCT s.beneficiary_id AS id, b.customer_id AS "customerId" FROM transfers t
         JOIN amount_splits s ON s.id = t.amount_split_id JOIN beneficiaries b ON b.id = s.beneficiary_id WHERE t.batch_id = $1`,
      [BATCH_ID],
    )
  ).sort((a, b) => a.id.localeCompare(b.id));
  const now = new Date();
  await db.transaction(async (tx) => {
    const hits: NewHit[] = beneficiaries
      .filter((_, n) => n % 100 === 0)
      .map((beneficiary, n) => {
        const candidate = { list: 'OFAC_SDN' as const, entryId: String(n + 1), matchedName: 'x', screenedName: 'x', score: 0.95, nameScore: 0.95 };
        return {
          id: randomUUID(),
          customerId: beneficiary.customerId,
          beneficiaryId: beneficiary.id,
          list: candidate.list,
          entryId: candidate.entryId,
          entryFingerprint: 'e',
          beneficiaryFingerprint: 'b',
          score: candidate.score,
          candidate,
          entry: { names: ['x'], datesOfBirth: [], nationalities: [] },
          listVersionId: versionIds[0]!,
        };
      });
    const raised = await raiseHits(tx, hits, now);
    const hitOf = new Map(raised.map((hit) => [hit.beneficiaryId, hit.id]));
    await insertScreenings(
      tx,
      beneficiaries.map((beneficiary) => {
        const hitId = hitOf.get(beneficiary.id);
        return {
          id: randomUUID(),
          beneficiaryId: beneficiary.id,
          cause: 'LIST_UPDATE' as const,
          listVersionIds: versionIds,
          threshold: THRESHOLD,
          candidates: [],
          hitIds: hitId ? [hitId] : [],
          screenedAt: now,
        };
      }),
    );
  });
  await analyze(db);
  return versionIds;
}

/** The check before a batch's file is written, on the stored screening state, timed on `payouts` payouts. */
async function measureCheck(payouts: number, serverUrl: string | undefined): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), 'bench-screening-'));
  // As root, the embedded PostgreSQL runs as "postgres" and must reach its data directory.
  await chmod(dir, 0o755);
  const embedded = serverUrl ? undefined : await acquireEmbeddedPostgres({ dataDir: join(dir, 'pg') });
  const name = `screening_check_${randomBytes(6).toString('hex')}`;
  const admin = await PostgresDatabase.open(serverUrl ?? embedded!.url);
  try {
    await admin.query(`CREATE DATABASE ${name}`);
    const db = await PostgresDatabase.open(Object.assign(new URL(serverUrl ?? embedded!.url), { pathname: `/${name}` }).toString());
    try {
      const versionIds = await batchToCheck(db, payouts);
      const loadStart = loadAverage();
      const times: number[] = [];
      const [inBatch] = await db.query<{ count: number }>('SELECT count(*)::int AS count FROM transfers WHERE batch_id = $1', [BATCH_ID]);
      let found = { stale: 0, blocked: 0 };
      for (let run = 0; run < CHECK_RUNS; run++) {
        const started = performance.now();
        const states = await db.transaction((tx) => batchScreeningStates(tx, BATCH_ID, versionIds));
        found = { stale: states.filter((state) => state.stale).length, blocked: states.filter((state) => state.hit !== null).length };
        times.push(performance.now() - started);
      }
      const median = times.sort((a, b) => a - b)[Math.floor(times.length / 2)]!;
      const check = {
        payouts: inBatch!.count,
        ...found,
        medianMs: Math.round(median * 10) / 10,
        perPayoutMs: Math.round((median / payouts) * 10_000) / 10_000,
        runs: CHECK_RUNS,
        loadAverage: { start: loadStart, end: loadAverage() },
      };
      console.log(JSON.stringify({ storedStateCheck: check }, null, 2));
    } finally {
      await db.close();
    }
  } finally {
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.close();
    await embedded?.release();
    await rm(dir, { recursive: true, force: true });
  }
}

/** The scenario as bench/run.ts runs it: in a process of its own, its figures printed there. */
export function screeningScenario(): void {
  const run = spawnSync(process.execPath, ['--import', 'tsx', fileURLToPath(import.meta.url)], { stdio: 'inherit' });
  if (run.status !== 0) throw new Error(`bench/screening.ts failed (exit code ${run.status})`);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const options = {
    beneficiaries: { type: 'string', default: '100000' },
    payroll: { type: 'string', default: '10000' },
    'database-url': { type: 'string' },
    'check-only': { type: 'boolean', default: false },
  } as const;
  const { values } = parseArgs({ options });
  if (!values['check-only']) measure(Number(values.beneficiaries), Number(values.payroll));
  await measureCheck(Number(values.payroll), values['database-url']);
}
