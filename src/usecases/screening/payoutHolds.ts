import type { Queryable } from '../../store/database/db.js';
import { batchScreeningStates } from '../../store/screening/batchScreening.js';
import { insertHolds, resolveHolds, screenableBeneficiaries } from '../../store/screening/screening.js';
import type { UseCaseDeps } from '../deps.js';
import { failHeldPayouts } from './heldPayouts.js';
import { screenBeneficiaries } from './screenBeneficiaries.js';
import { transfersHeld } from '../webhooks/events.js';

/**
 * Before a payroll's bank file is written, its payouts are checked against their beneficiaries'
 * stored screening state (every beneficiary is screened when created or changed and again on every
 * list update): a beneficiary screened against an older list version than the newest loaded, or
 * never screened, is screened again first; then one statement finds the payouts whose beneficiary
 * has a hit no admin released. Those are held out of the file (the rest go), until an admin
 * decides; a hit already confirmed fails its payouts at once, credited back. Each payout held gets
 * a transfer.screening_held event. Returns how many payouts it held.
 */
export async function holdScreenedPayouts(deps: UseCaseDeps, batchId: string): Promise<number> {
  const screening = deps.screening;
  if (!screening) return 0;
  const now = deps.clock();
  const lists = await screening.current(deps.db, now);
  const versionIds = lists.versions.map((version) => version.id);
  return deps.db.transaction(async (tx) => {
    let states = await batchScreeningStates(tx, batchId, versionIds);
    const stale = [...new Set(states.filter((state) => state.stale).map((state) => state.beneficiaryId))];
    if (stale.length > 0) {
      await screenBeneficiaries(tx, lists, screening.threshold, await screenableBeneficiaries(tx, stale), 'PAYOUT', now);
      states = await batchScreeningStates(tx, batchId, versionIds);
    }
    const blocked = states.flatMap(({ transferId, hit }) => (hit ? [{ transferId, hit }] : []));
    if (blocked.length === 0) return 0;
    const held = await insertHolds(
      tx,
      blocked.map(({ transferId, hit }) => ({ transferId, hitId: hit.id })),
      batchId,
      now,
    );
    await transfersHeld(tx, held, now);
    const confirmed = new Map(blocked.filter(({ hit }) => hit.state === 'CONFIRMED').map(({ hit }) => [hit.id, hit]));
    for (const hit of confirmed.values()) await failConfirmed(tx, hit, now);
    return held.length;
  });
}

async function failConfirmed(tx: Queryable, hit: { id: string; list: string; entryId: string }, now: Date): Promise<void> {
  const resolved = await resolveHolds(tx, hit.id, 'CONFIRMED', null, now);
  await failHeldPayouts(tx, resolved, confirmedReason(hit), now);
}

export const confirmedReason = (hit: { list: string; entryId: string }): string =>
  `Sanctions screening: ${hit.list} entry ${hit.entryId} confirmed by a reviewer; credited back to the source account`;
