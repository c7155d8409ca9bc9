import type { WpsBeneficiaryFields, WpsEmployerFields } from '../../domain/payroll/wpsPayroll.js';
import type { Queryable } from '../database/db.js';

/** A customer's registration with the UAE Wage Protection System, and its name as the salary file writes it. */
export interface WpsEmployerRecord extends WpsEmployerFields {
  companyLegalName: string;
}

export async function findWpsEmployer(tx: Queryable, customerId: string): Promise<WpsEmployerRecord | null> {
  const [row] = await tx.query<WpsEmployerRecord>(
    `SELECT wps_establishment_id AS "establishmentId", wps_agent_routing_code AS "agentRoutingCode", company_legal_name AS "companyLegalName"
       FROM customers WHERE id = $1`,
    [customerId],
  );
  return row ?? null;
}

/** The WPS ids of the customer's beneficiaries among `ids`, by id (lower case). */
export async function wpsFieldsOfBeneficiaries(tx: Queryable, customerId: string, ids: readonly string[]): Promise<Map<string, WpsBeneficiaryFields>> {
  const rows = await tx.query<WpsBeneficiaryFields & { id: string }>(
    `SELECT id, labour_card_person_id AS "labourCardPersonId", wps_routing_code AS "wpsRoutingCode"
       FROM beneficiaries WHERE customer_id = $1 AND id = ANY($2::uuid[])`,
    [customerId, ids],
  );
  return new Map(rows.map(({ id, ...fields }) => [id, fields]));
}
