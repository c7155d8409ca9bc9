import { randomUUID } from 'node:crypto';
import type { components } from '../../../generated/api.js';
import { DomainError, forbidden, notFound } from '../../domain/errors.js';
import { partyOf } from '../../domain/screening/parties.js';
import type { Queryable } from '../../store/database/db.js';
import {
  type HitRecord,
  type HitState,
  decideHit,
  findHit,
  holdsOfHits,
  listHits,
  listVersionsByIds,
  resolveHolds,
  screenableBeneficiaries,
} from '../../store/screening/screening.js';
import { type CreatedPosition, createdPosition, cursorCodec } from '../answers/cursor.js';
import { type Principal, requireAdmin } from '../access/principal.js';
import type { UseCaseDeps } from '../deps.js';
import { toScreeningHit } from '../views/screening.js';
import { leaseBatch } from '../../store/payouts/payoutBatches.js';
import { failHeldPayouts } from './heldPayouts.js';
import { confirmedReason } from './payoutHolds.js';

type Schemas = components['schemas'];

/** The reviewers' side of screening: the hits with their evidence, and a person's decision on each. */

const hitCursor = cursorCodec<CreatedPosition, { state: HitState | null }>({
  ...createdPosition,
  filters: { write: ({ state }) => ({ s: state }), mismatch: 'query.cursor belongs to another state filter' },
});

export async function listScreeningHits(
  deps: UseCaseDeps,
  caller: Principal,
  query: { limit?: number; cursor?: string; state?: HitState },
): Promise<Schemas['ScreeningHitPage']> {
  requireAdmin(caller);
  const limit = query.limit ?? 20;
  const filters = { state: query.state ?? null };
  const after = query.cursor ? hitCursor.decode(query.cursor, filters) : null;
  return deps.db.transaction(async (tx) => {
    const rows = await listHits(tx, filters.state, after, limit + 1);
    const page = rows.slice(0, limit);
    const last = rows.length > limit ? rows[limit - 1] : undefined;
    return { items: await hitViews(tx, page), nextCursor: last ? hitCursor.encode(last, filters) : null };
  });
}

/**
 * An admin decides an open hit: RELEASED (a false positive: its held payouts go to the bank in a
 * file of their own at the worker's next pass) or CONFIRMED (its held payouts fail and are
 * credited back through the ledger, as a payout the bank rejects is). Four eyes: never the creator
 * of the beneficiary nor of a held payout's request. Who, when and why stay on the hit.
 */
export async function decideScreeningHit(
  deps: UseCaseDeps,
  caller: Principal,
  hitId: string,
  decision: 'RELEASED' | 'CONFIRMED',
  body: Schemas['DecideScreeningHitRequest'],
): Promise<Schemas['ScreeningHit']> {
  requireAdmin(caller);
  return deps.db.transaction(async (tx) => {
    const hit = await findHit(tx, hitId, true);
    if (!hit) throw notFound(`Screening hit ${hitId} not found`);
    if (hit.state !== 'OPEN') throw new DomainError('INVALID_STATE', `Screening hit ${hitId} is already ${hit.state}`);
    const holds = await holdsOfHits(tx, [hit.id]);
    const [beneficiary] = await screenableBeneficiaries(tx, [hit.beneficiaryId]);
    if (beneficiary?.createdByUserId === caller.userId || holds.some((hold) => hold.requestCreatedBy === caller.userId)) {
      throw forbidden('The reviewer of a screening hit must not have created its beneficiary or a held payout’s payroll request', 'SELF_REVIEW');
    }
    const now = deps.clock();
    const decided = await decideHit(tx, hit.id, decision, caller.userId, body.note, now);
    const resolved = await resolveHolds(tx, hit.id, decision, decision === 'RELEASED' ? randomUUID() : null, now);
    if (decision === 'CONFIRMED') await failHeldPayouts(tx, resolved, confirmedReason(hit), now);
    // The batches waiting on the decision are the worker's again at its next pass, not after their recheck.
    for (const batchId of new Set(holds.map((hold) => hold.batchId))) await leaseBatch(tx, batchId, null);
    const [view] = await hitViews(tx, [decided]);
    return view!;
  });
}

async function hitViews(tx: Queryable, hits: readonly HitRecord[]): Promise<Schemas['ScreeningHit'][]> {
  if (hits.length === 0) return [];
  const versions = new Map((await listVersionsByIds(tx, [...new Set(hits.map((hit) => hit.listVersionId))])).map((version) => [version.id, version]));
  const holds = await holdsOfHits(
    tx,
    hits.map((hit) => hit.id),
  );
  const beneficiaries = new Map((await screenableBeneficiaries(tx, [...new Set(hits.map((hit) => hit.beneficiaryId))])).map((row) => [row.id, row]));
  return hits.map((hit) => {
    const beneficiary = beneficiaries.get(hit.beneficiaryId);
    return toScreeningHit(
      hit,
      versions.get(hit.listVersionId)!,
      holds.filter((hold) => hold.hitId === hit.id),
      beneficiary ? { names: partyOf(beneficiary).names, nationality: beneficiary.nationality } : { names: [], nationality: null },
    );
  });
}
