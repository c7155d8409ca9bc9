import { randomUUID } from 'node:crypto';
import type { components } from '../../../generated/api.js';
import { type BeneficiaryFields, applyBeneficiaryPatch, checkBeneficiary } from '../../domain/reference/beneficiaries.js';
import { DomainError, bodyField, notFound } from '../../domain/errors.js';
import {
  type BeneficiaryConflict,
  type BeneficiaryRecord,
  findConflictingBeneficiary,
  findOwnBeneficiary,
  insertBeneficiary,
  listBeneficiaries as listRows,
  markBeneficiaryInactive,
  updateBeneficiary as updateRow,
} from '../../store/beneficiaries/beneficiaries.js';
import type { Queryable } from '../../store/database/db.js';
import { type CreatedPosition, createdPosition, cursorCodec } from '../answers/cursor.js';
import type { UseCaseDeps } from '../deps.js';
import { type Principal, requireCustomer } from '../access/principal.js';
import { toBeneficiary } from '../views/beneficiary.js';
import { toBeneficiaryScreening } from '../views/screening.js';
import { screenBeneficiaries } from '../screening/screenBeneficiaries.js';
import type { LoadedLists } from '../screening/screeningLists.js';

type Schemas = components['schemas'];
type Beneficiary = Schemas['Beneficiary'];

/** A new beneficiary of the caller's customer, active; 409 DUPLICATE_BENEFICIARY for a bank account or reference it already has. */
export async function createBeneficiary(deps: UseCaseDeps, caller: Principal, body: Schemas['CreateBeneficiaryRequest']): Promise<Beneficiary> {
  const customerId = requireCustomer(caller);
  const fields = checkBeneficiary(body);
  const lists = await deps.screening?.current(deps.db, deps.clock());
  return deps.db.transaction(async (tx) => {
    const written = await insertBeneficiary(tx, { ...fields, id: randomUUID(), customerId, createdAt: deps.clock(), createdByUserId: caller.userId });
    if (written.conflict) throw await duplicate(tx, customerId, fields, written.conflict);
    return toBeneficiary(written.row, false, await screened(deps, tx, lists, written.row));
  });
}

export interface BeneficiaryListQuery {
  limit?: number | undefined;
  cursor?: string | undefined;
  active?: boolean | undefined;
  q?: string | undefined;
}

/** The filters a beneficiary cursor was issued for: a page continues only with the same ones. */
interface BeneficiaryFilters {
  active: boolean | null;
  search: string | null;
}

const beneficiaryCursor = cursorCodec<CreatedPosition, BeneficiaryFilters>({
  ...createdPosition,
  filters: { write: ({ active, search }) => ({ f: [active, search] }), mismatch: 'query.cursor belongs to other active or q filters' },
});

/** The caller's beneficiaries, newest first, a page at a time, bank details masked. */
export async function listBeneficiaries(deps: UseCaseDeps, caller: Principal, query: BeneficiaryListQuery): Promise<Schemas['BeneficiaryPage']> {
  const customerId = requireCustomer(caller);
  const limit = query.limit ?? 20;
  const filters: BeneficiaryFilters = { active: query.active ?? null, search: query.q ?? null };
  const after = query.cursor === undefined ? null : beneficiaryCursor.decode(query.cursor, filters);
  const rows = await deps.db.transaction((tx) => listRows(tx, { customerId, ...filters, after, limit: limit + 1 }));
  const last = rows.length > limit ? rows[limit - 1] : undefined;
  return {
    items: rows.slice(0, limit).map((row) => toBeneficiary(row, true)),
    nextCursor: last ? beneficiaryCursor.encode(last, filters) : null,
  };
}

/** One of the caller's beneficiaries, bank details whole. */
export async function getBeneficiary(deps: UseCaseDeps, caller: Principal, beneficiaryId: string): Promise<Beneficiary> {
  const customerId = requireCustomer(caller);
  return toBeneficiary(await deps.db.transaction((tx) => ownBeneficiary(tx, customerId, beneficiaryId)));
}

/** Apply a patch (absent keeps, null removes); the result follows the rules of a new beneficiary. */
export async function updateBeneficiary(
  deps: UseCaseDeps,
  caller: Principal,
  beneficiaryId: string,
  body: Schemas['UpdateBeneficiaryRequest'],
): Promise<Beneficiary> {
  const customerId = requireCustomer(caller);
  const { active, ...patch } = body;
  const lists = await deps.screening?.current(deps.db, deps.clock());
  return deps.db.transaction(async (tx) => {
    const current = await ownBeneficiary(tx, customerId, beneficiaryId, true);
    // Only `active`: a reactivation keeps the fields as they are (rows loaded from a world file included).
    const fields = Object.keys(patch).length === 0 ? current : checkBeneficiary(applyBeneficiaryPatch(current, patch));
    const written = await updateRow(tx, current.id, fields, active ?? current.active, deps.clock());
    if (written.conflict) throw await duplicate(tx, customerId, fields, written.conflict);
    return toBeneficiary(written.row, false, written.row.active ? await screened(deps, tx, lists, written.row) : undefined);
  });
}

/** Mark inactive (never deleted: snapshots refer to it); an inactive one is answered unchanged. */
export async function deactivateBeneficiary(deps: UseCaseDeps, caller: Principal, beneficiaryId: string): Promise<Beneficiary> {
  const customerId = requireCustomer(caller);
  return deps.db.transaction(async (tx) => {
    const current = await ownBeneficiary(tx, customerId, beneficiaryId, true);
    if (!current.active) return toBeneficiary(current);
    return toBeneficiary(await markBeneficiaryInactive(tx, current.id, deps.clock()));
  });
}

/**
 * A beneficiary created or changed is screened in the same transaction, when the service screens:
 * a hit flags it (the answer shows it, an admin reviews it); estimates paying it are refused until
 * the match is released.
 */
async function screened(deps: UseCaseDeps, tx: Queryable, lists: LoadedLists | undefined, row: BeneficiaryRecord): Promise<Beneficiary['screening']> {
  if (!lists || !deps.screening) return undefined;
  const now = deps.clock();
  const [result] = await screenBeneficiaries(tx, lists, deps.screening.threshold, [{ ...row, createdByUserId: null }], 'BENEFICIARY', now);
  return toBeneficiaryScreening(result!, lists.versions);
}

async function ownBeneficiary(tx: Queryable, customerId: string, beneficiaryId: string, forUpdate = false): Promise<BeneficiaryRecord> {
  const row = await findOwnBeneficiary(tx, customerId, beneficiaryId, forUpdate);
  if (!row) throw notFound(`Beneficiary ${beneficiaryId} not found`);
  return row;
}

/** The 409 naming the field and the beneficiary that already holds it (no SQL in the message). */
async function duplicate(tx: Queryable, customerId: string, fields: BeneficiaryFields, conflict: BeneficiaryConflict): Promise<DomainError> {
  const existing = await findConflictingBeneficiary(tx, customerId, fields, conflict);
  const who = existing ? `beneficiary ${existing.id}` : 'another beneficiary';
  const inactive = existing && !existing.active ? ' (inactive: reactivate it with active: true)' : '';
  const field = conflict === 'reference' ? 'reference' : fields.iban ? 'iban' : 'accountNumber';
  const message =
    conflict === 'reference'
      ? `body.reference: ${who} already has the reference ${fields.reference}${inactive}`
      : `body.${field}: ${who} already has this bank account${inactive}`;
  return new DomainError('DUPLICATE_BENEFICIARY', message, { field: bodyField(field) });
}
