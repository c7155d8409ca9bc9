import { activeBeneficiariesAfter, markVersionsRescreened } from '../../store/screening/screening.js';
import type { UseCaseDeps } from '../deps.js';
import { screenBeneficiaries } from './screenBeneficiaries.js';

/** Beneficiaries screened per transaction by a list update's pass. */
const PAGE = 1000;

/**
 * When the folder holds a list version not yet screened against (newer files dropped there, or
 * the first start with lists), every active beneficiary is screened again, a page per transaction;
 * a new hit is raised for review, and the payouts it concerns are held before their bank file is
 * written (holdScreenedPayouts). Returns how many beneficiaries it screened (0: nothing to do).
 */
export async function rescreenOnListUpdate(deps: UseCaseDeps): Promise<number> {
  const screening = deps.screening;
  if (!screening) return 0;
  const lists = await screening.current(deps.db, deps.clock());
  const pending = lists.versions.filter((version) => version.rescreenedAt === null);
  if (pending.length === 0) return 0;
  let screened = 0;
  let after: string | null = null;
  for (;;) {
    const cursor: string | null = after;
    const page = await deps.db.transaction(async (tx) => {
      const beneficiaries = await activeBeneficiariesAfter(tx, cursor, PAGE);
      await screenBeneficiaries(tx, lists, screening.threshold, beneficiaries, 'LIST_UPDATE', deps.clock());
      return beneficiaries;
    });
    screened += page.length;
    if (page.length < PAGE) break;
    after = page[page.length - 1]!.id;
  }
  const now = deps.clock();
  await deps.db.transaction((tx) =>
    markVersionsRescreened(
      tx,
      pending.map((version) => version.id),
      now,
    ),
  );
  for (const version of pending) version.rescreenedAt = now;
  return Math.max(screened, 1);
}
