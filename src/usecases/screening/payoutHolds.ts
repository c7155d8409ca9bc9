import type { Queryable } from '../../store/database/db.js';
import { insertHolds, resolveHolds, screenableBeneficiaries, unsubmittedBatchPayouts } from '../../store/screening/screening.js';
import type { UseCaseDeps } from '../deps.js';
import { failHeldPayouts } from './heldPayouts.js';
import { screenBeneficiaries } from './screenBeneficiaries.js';
import { transfersHeld } from '../webhooks/events.js';

/**
 * Before a payroll's bank file is written, its payouts' beneficiaries are screened against the
 * lists as they are now (they may have changed since the estimate): a payout whose beneficiary has
 * a hit no admin released is held out of the file (the rest go), until an admin decides. A hit
 * already confirmed fails its payout at once, credited back. Each payout held gets a
 * transfer.screening_held event. Returns how many payouts it held.
 */
export async function holdScreenedPayouts(deps: UseCaseDeps, batchId: string): Promise<number> {
  const screening = deps.screening;
  if (!screening) return 0;
  const now = deps.clock();
  const lists = await screening.current(deps.db, now);
  return deps.db.transaction(async (tx) => {
    const payouts = await unsubmittedBatchPayouts(tx, batchId);
    if (payouts.length === 0) return 0;
    const beneficiaries = await screenableBeneficiaries(tx, [...new Set(payouts.map((payout) => payout.beneficiaryId))]);
    const results = await screenBeneficiaries(tx, lists, screening.threshold, beneficiaries, 'PAYOUT', now);
    const blocking = new Map(results.filter((result) => result.blocking.length > 0).map((result) => [result.beneficiary.id, result.blocking[0]!]));
    const holds = payouts.flatMap((payout) => {
      const hit = blocking.get(payout.beneficiaryId);
      return hit ? [{ transferId: payout.transferId, hitId: hit.id }] : [];
    });
    const held = await insertHolds(tx, holds, batchId, now);
    await transfersHeld(tx, held, now);
    for (const hit of new Set([...blocking.values()].filter((hit) => hit.state === 'CONFIRMED'))) await failConfirmed(tx, hit, now);
    return held.length;
  });
}

async function failConfirmed(tx: Queryable, hit: { id: string; list: string; entryId: string }, now: Date): Promise<void> {
  const resolved = await resolveHolds(tx, hit.id, 'CONFIRMED', null, now);
  await failHeldPayouts(tx, resolved, confirmedReason(hit), now);
}

export const confirmedReason = (hit: { list: string; entryId: string }): string =>
  `Sanctions screening: ${hit.list} entry ${hit.entryId} confirmed by a reviewer; credited back to the source account`;
