import { randomUUID } from 'node:crypto';
import { DomainError, type ErrorDetail, bodyField } from '../../domain/errors.js';
import type { Candidate } from '../../domain/screening/matching.js';
import { entryFingerprint, partyFingerprint } from '../../domain/screening/fingerprints.js';
import { partyOf } from '../../domain/screening/parties.js';
import type { Queryable } from '../../store/database/db.js';
import {
  type HitRecord,
  type NewHit,
  type ScreenableBeneficiary,
  type ScreeningRow,
  insertScreenings,
  raiseHits,
  screenableBeneficiaries,
} from '../../store/screening/screening.js';
import type { UseCaseDeps } from '../deps.js';
import type { LoadedLists } from './screeningLists.js';

export type ScreeningCause = ScreeningRow['cause'];

export interface ScreeningResult {
  beneficiary: ScreenableBeneficiary;
  screenedAt: Date;
  candidates: Candidate[];
  /** Every hit of the candidates, as it stands. */
  hits: HitRecord[];
  /** The hits no admin has released: they refuse the beneficiary's estimates and hold its payouts. */
  blocking: HitRecord[];
}

/**
 * Screens beneficiaries against the lists in force: each one's best candidates are stored with
 * the list versions and the threshold (every screening is kept), and each candidate is raised as
 * a hit once per entry and beneficiary as they are written (a released match stays released).
 */
export async function screenBeneficiaries(
  tx: Queryable,
  lists: LoadedLists,
  threshold: number,
  beneficiaries: readonly ScreenableBeneficiary[],
  cause: ScreeningCause,
  now: Date,
): Promise<ScreeningResult[]> {
  const listVersionIds = lists.versions.map((version) => version.id);
  const screened = beneficiaries.map((beneficiary) => {
    const party = partyOf(beneficiary);
    return { beneficiary, party, candidates: lists.index.screen(party, threshold) };
  });
  const newHits: NewHit[] = screened.flatMap(({ beneficiary, party, candidates }) =>
    candidates.map((candidate) => {
      const entry = lists.entry(candidate.list, candidate.entryId);
      return {
        id: randomUUID(),
        customerId: beneficiary.customerId,
        beneficiaryId: beneficiary.id,
        list: candidate.list,
        entryId: candidate.entryId,
        entryFingerprint: entryFingerprint(entry),
        beneficiaryFingerprint: partyFingerprint(party.names, beneficiary.nationality),
        score: candidate.score,
        candidate,
        entry: { names: entry.names, datesOfBirth: entry.datesOfBirth, nationalities: entry.nationalities },
        listVersionId: lists.versionOf(entry),
      };
    }),
  );
  const hits = await raiseHits(tx, newHits, now);
  const hitsOf = new Map<string, HitRecord[]>();
  for (const hit of hits) hitsOf.set(hit.beneficiaryId, [...(hitsOf.get(hit.beneficiaryId) ?? []), hit]);
  const results = screened.map(({ beneficiary, candidates }) => {
    const own = hitsOf.get(beneficiary.id) ?? [];
    return { beneficiary, screenedAt: now, candidates, hits: own, blocking: own.filter((hit) => hit.state !== 'RELEASED') };
  });
  await insertScreenings(
    tx,
    results.map((result) => ({
      id: randomUUID(),
      beneficiaryId: result.beneficiary.id,
      cause,
      listVersionIds,
      threshold,
      candidates: result.candidates,
      hitIds: result.hits.map((hit) => hit.id),
      screenedAt: now,
    })),
  );
  return results;
}

/**
 * The entries of an estimate or a payroll request screened, before anything is written or
 * debited: a beneficiary with a hit no admin released refuses the whole with SCREENING_HIT, naming
 * each entry. Beneficiaries that do not exist are left to the operation's own 404.
 */
export async function refuseScreeningHits(deps: UseCaseDeps, beneficiaryIds: readonly string[], cause: ScreeningCause): Promise<void> {
  const screening = deps.screening;
  if (!screening) return;
  const now = deps.clock();
  const lists = await screening.current(deps.db, now);
  const results = await deps.db.transaction(async (tx) =>
    screenBeneficiaries(tx, lists, screening.threshold, await screenableBeneficiaries(tx, [...new Set(beneficiaryIds)]), cause, now),
  );
  const blocked = new Map(results.filter((result) => result.blocking.length > 0).map((result) => [result.beneficiary.id, result.blocking[0]!]));
  if (blocked.size === 0) return;
  const details: ErrorDetail[] = [];
  beneficiaryIds.forEach((beneficiaryId, entryIndex) => {
    const hit = blocked.get(beneficiaryId.toLowerCase());
    if (!hit) return;
    details.push({
      message: `beneficiary ${hit.beneficiaryId} matches ${hit.list} entry ${hit.entryId} (${hit.candidate.matchedName}, score ${hit.score})`,
      field: bodyField('amountSplitDetails', entryIndex, 'beneficiaryId'),
      entryIndex,
      beneficiaryId: hit.beneficiaryId,
      sanctionsList: hit.list,
      sanctionsEntryId: hit.entryId,
      score: hit.score,
    });
  });
  const first = details[0]!;
  throw new DomainError('SCREENING_HIT', `amountSplitDetails[${first.entryIndex}]: ${first.message}; an admin must release the match first`, {
    field: first.field!,
    entryIndex: first.entryIndex!,
    details,
  });
}
