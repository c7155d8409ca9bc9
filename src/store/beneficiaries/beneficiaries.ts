import type { BeneficiaryFields } from '../../domain/reference/beneficiaries.js';
import { notFound } from '../../domain/errors.js';
import type { Queryable } from '../database/db.js';

/** A customer's beneficiaries as the self-service API reads and writes them. */

export interface BeneficiaryRecord extends BeneficiaryFields {
  id: string;
  customerId: string;
  active: boolean;
  createdAt: Date;
  updatedAt: Date;
}

const COLUMNS = `id, customer_id AS "customerId", type, first_name AS "firstName", last_name AS "lastName",
  company_name AS "companyName", display_name AS "displayName", nationality, bank_name AS "bankName", iban,
  account_number AS "accountNumber", bank_code AS "bankCode", swift_bic AS "swiftBic", reference, email, active,
  labour_card_person_id AS "labourCardPersonId", wps_routing_code AS "wpsRoutingCode",
  created_at AS "createdAt", updated_at AS "updatedAt"`;

/** Which uniqueness rule a write broke: the same `reference`, or the same bank account. */
export type BeneficiaryConflict = 'reference' | 'bankAccount';

const CONFLICT_OF_INDEX: Record<string, BeneficiaryConflict> = {
  beneficiaries_customer_reference: 'reference',
  beneficiaries_customer_iban: 'bankAccount',
  beneficiaries_customer_account: 'bankAccount',
};

type Written = { row: BeneficiaryRecord; conflict?: never } | { row?: never; conflict: BeneficiaryConflict };

/**
 * Runs one write in a savepoint: a unique-index violation rolls back to it (the transaction goes on)
 * and is reported as the rule it broke, so the caller can name the beneficiary it collides with.
 * The index decides, so two concurrent writes of the same account cannot both succeed.
 */
async function writeUnique(tx: Queryable, sql: string, params: unknown[]): Promise<Written> {
  await tx.query('SAVEPOINT beneficiary_write');
  try {
    const rows = await tx.query<BeneficiaryRecord>(sql, params);
    await tx.query('RELEASE SAVEPOINT beneficiary_write');
    return { row: rows[0]! };
  } catch (error) {
    const { code, constraint } = error as { code?: string; constraint?: string };
    const conflict = code === '23505' && constraint ? CONFLICT_OF_INDEX[constraint] : undefined;
    if (!conflict) throw error;
    await tx.query('ROLLBACK TO SAVEPOINT beneficiary_write');
    return { conflict };
  }
}

const fieldParams = (f: BeneficiaryFields) => [
  ...[f.type, f.firstName, f.lastName, f.companyName, f.displayName, f.nationality, f.bankName],
  ...[f.iban, f.accountNumber, f.bankCode, f.swiftBic, f.reference, f.email, f.labourCardPersonId, f.wpsRoutingCode],
];

export function insertBeneficiary(tx: Queryable, record: Omit<BeneficiaryRecord, 'active' | 'updatedAt'> & { createdByUserId: string }): Promise<Written> {
  return writeUnique(
    tx,
    `INSERT INTO beneficiaries (id, customer_id, type, first_name, last_name, company_name, display_name, nationality, bank_name,
       iban, account_number, bank_code, swift_bic, reference, email, labour_card_person_id, wps_routing_code, active, created_at, updated_at, created_by_user_id)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, true, $18, $18, $19) RETURNING ${COLUMNS}`,
    [record.id, record.customerId, ...fieldParams(record), record.createdAt, record.createdByUserId],
  );
}

export function updateBeneficiary(tx: Queryable, id: string, fields: BeneficiaryFields, active: boolean, at: Date): Promise<Written> {
  return writeUnique(
    tx,
    `UPDATE beneficiaries SET type = $2, first_name = $3, last_name = $4, company_name = $5, display_name = $6, nationality = $7,
       bank_name = $8, iban = $9, account_number = $10, bank_code = $11, swift_bic = $12, reference = $13, email = $14,
       labour_card_person_id = $15, wps_routing_code = $16, active = $17, updated_at = $18
     WHERE id = $1 RETURNING ${COLUMNS}`,
    [id, ...fieldParams(fields), active, at],
  );
}

/** Marks a beneficiary inactive, its fields as they are (no uniqueness rule can break); NOT_FOUND when there is none. */
export async function markBeneficiaryInactive(tx: Queryable, id: string, at: Date): Promise<BeneficiaryRecord> {
  const [row] = await tx.query<BeneficiaryRecord>(`UPDATE beneficiaries SET active = false, updated_at = $2 WHERE id = $1 RETURNING ${COLUMNS}`, [id, at]);
  if (!row) throw notFound(`Beneficiary ${id} not found`);
  return row;
}

/** One of the customer's beneficiaries, locked for an update when `forUpdate`; null when none (or another customer's). */
export async function findOwnBeneficiary(tx: Queryable, customerId: string, id: string, forUpdate = false): Promise<BeneficiaryRecord | null> {
  const rows = await tx.query<BeneficiaryRecord>(
    `SELECT ${COLUMNS} FROM beneficiaries WHERE customer_id = $1 AND id = $2${forUpdate ? ' FOR NO KEY UPDATE' : ''}`,
    [customerId, id],
  );
  return rows[0] ?? null;
}

/** The customer's other beneficiary that holds this reference or bank account (the unique indexes' keys). */
export async function findConflictingBeneficiary(
  tx: Queryable,
  customerId: string,
  fields: BeneficiaryFields,
  conflict: BeneficiaryConflict,
): Promise<{ id: string; active: boolean } | null> {
  const rows =
    conflict === 'reference'
      ? await tx.query<{ id: string; active: boolean }>('SELECT id, active FROM beneficiaries WHERE customer_id = $1 AND reference = $2', [
          customerId,
          fields.reference,
        ])
      : await tx.query<{ id: string; active: boolean }>(
          `SELECT id, active FROM beneficiaries WHERE customer_id = $1 AND (iban = $2
             OR (iban IS NULL AND $2::text IS NULL AND account_number = $3
                 AND COALESCE(bank_code, '') = COALESCE($4, '') AND COALESCE(swift_bic, '') = COALESCE($5, '')))`,
          [customerId, fields.iban, fields.accountNumber, fields.bankCode, fields.swiftBic],
        );
  return rows[0] ?? null;
}

export interface BeneficiaryListQuery {
  customerId: string;
  active: boolean | null;
  /** Text searched in the names and the reference, ignoring case. */
  search: string | null;
  after: { createdAt: Date; id: string } | null;
  limit: number;
}

/** A page of the customer's beneficiaries, newest first, keyed on (created_at, id). */
export function listBeneficiaries(tx: Queryable, query: BeneficiaryListQuery): Promise<BeneficiaryRecord[]> {
  const pattern = query.search === null ? null : `%${query.search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  return tx.query<BeneficiaryRecord>(
    `SELECT ${COLUMNS} FROM beneficiaries
      WHERE customer_id = $1
        AND ($2::boolean IS NULL OR active = $2)
        AND ($3::text IS NULL OR display_name ILIKE $3 OR first_name ILIKE $3 OR last_name ILIKE $3
             OR company_name ILIKE $3 OR reference ILIKE $3)
        AND ($4::timestamptz IS NULL OR (created_at, id) < ($4, $5::uuid))
      ORDER BY created_at DESC, id DESC
      LIMIT $6`,
    [query.customerId, query.active, pattern, query.after?.createdAt ?? null, query.after?.id ?? null, query.limit],
  );
}
