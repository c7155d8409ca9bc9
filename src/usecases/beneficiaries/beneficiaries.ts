import { notFound } from '../../domain/errors.js';
import type { Queryable } from '../../store/database/db.js';
import { findBeneficiaries } from '../../store/reference/referenceData.js';

/** Every beneficiary exists, is the caller's and is active; the 404 names the others. */
export async function requireActiveBeneficiaries(tx: Queryable, customerId: string, ids: string[]): Promise<void> {
  const found = await findBeneficiaries(tx, customerId, ids);
  const active = new Set(found.filter((row) => row.active).map((row) => row.id));
  const missing = ids.filter((id) => !active.has(id));
  if (missing.length > 0) {
    const shown = missing.slice(0, 20).join(', ');
    const more = missing.length > 20 ? ` and ${missing.length - 20} more` : '';
    throw notFound(`Beneficiaries not found or inactive: ${shown}${more}`);
  }
}
