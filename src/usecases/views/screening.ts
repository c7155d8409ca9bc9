import type { components } from '../../../generated/api.js';
import type { HitRecord, HoldRecord, RecordedListVersion } from '../../store/screening/screening.js';

type Schemas = components['schemas'];

/** The spec's bound on a hit's `heldPayouts` (one beneficiary held in more payrolls than that shows the first). */
const MAX_HELD_SHOWN = 1000;

/** The screening wire objects, each written here only: a beneficiary's screening and an admin's hit. */

function toListVersion(version: RecordedListVersion): Schemas['SanctionsListVersion'] {
  return { list: version.list, publishedOn: version.publishedOn, fileName: version.fileName, sha256: version.sha256 };
}

function toCandidate(hit: HitRecord): Schemas['ScreeningCandidate'] {
  const { list, entryId, matchedName, screenedName, score, nationalityAgrees } = hit.candidate;
  return { list, entryId, matchedName, screenedName, score, ...(nationalityAgrees !== undefined && { nationalityAgrees }) };
}

export function toBeneficiaryScreening(
  result: { screenedAt: Date; hits: readonly HitRecord[] },
  versions: readonly RecordedListVersion[],
): Schemas['BeneficiaryScreening'] {
  return {
    status: result.hits.some((hit) => hit.state !== 'RELEASED') ? 'HIT' : 'CLEAR',
    screenedAt: result.screenedAt.toISOString(),
    lists: versions.map(toListVersion),
    hits: result.hits.slice(0, 5).map((hit) => ({ hitId: hit.id, state: hit.state, candidate: toCandidate(hit) })),
  };
}

export function toScreeningHit(
  hit: HitRecord,
  version: RecordedListVersion,
  holds: readonly HoldRecord[],
  beneficiary: { names: readonly string[]; nationality: string | null },
): Schemas['ScreeningHit'] {
  return {
    id: hit.id,
    state: hit.state,
    customerId: hit.customerId,
    beneficiaryId: hit.beneficiaryId,
    beneficiaryNames: beneficiary.names.slice(0, 3),
    ...(beneficiary.nationality !== null && { beneficiaryNationality: beneficiary.nationality }),
    candidate: toCandidate(hit),
    listVersion: toListVersion(version),
    entry: { names: [...hit.entry.names], datesOfBirth: [...hit.entry.datesOfBirth], nationalities: [...hit.entry.nationalities] },
    heldPayouts: holds
      .slice(0, MAX_HELD_SHOWN)
      .map((hold) => ({ transferId: hold.transferId, payrollRequestId: hold.payrollRequestId, heldAt: hold.heldAt.toISOString() })),
    createdAt: hit.createdAt.toISOString(),
    ...(hit.decidedAt !== null && { decision: { decidedBy: hit.decidedBy ?? '', decidedAt: hit.decidedAt.toISOString(), note: hit.note ?? '' } }),
  };
}
