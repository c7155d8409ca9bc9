import type { WpsBeneficiaryFields, WpsEmployerFields, WpsSalaryDetails } from '../../domain/payroll/wpsPayroll.js';
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
    `SELECT id, labour_card_person_id AS "labourCardPersonId", wps_routing_code AS "wpsRoutingCode", iban, account_number AS "accountNumber"
       FROM beneficiaries WHERE customer_id = $1 AND id = ANY($2::uuid[])`,
    [customerId, ids],
  );
  return new Map(rows.map(({ id, ...fields }) => [id, fields]));
}

/**
 * A split's WPS columns as insertSplitsWithSnapshots writes them: the salary's period and parts from
 * the entry, the beneficiary's WPS ids (alias `b`) copied as they are now, like its snapshot.
 */
export const WPS_SPLIT_COLUMNS =
  'wps_person_id, wps_routing_code, wps_pay_period_start, wps_pay_period_end, wps_fixed_amount, wps_variable_amount, wps_leave_days';
export const WPS_SPLIT_VALUES = `CASE WHEN e.wps_fixed_amount IS NOT NULL THEN b.labour_card_person_id END,
  CASE WHEN e.wps_fixed_amount IS NOT NULL THEN b.wps_routing_code END,
  e.wps_pay_period_start, e.wps_pay_period_end, e.wps_fixed_amount, e.wps_variable_amount, e.wps_leave_days`;
/** The entry's record columns (jsonb_to_recordset) the values read. */
export const WPS_SPLIT_RECORD =
  'wps_pay_period_start date, wps_pay_period_end date, wps_fixed_amount numeric, wps_variable_amount numeric, wps_leave_days integer';

export function wpsSplitColumns(wps: WpsSalaryDetails | undefined) {
  if (!wps) return {};
  return {
    wps_pay_period_start: wps.payPeriodStart,
    wps_pay_period_end: wps.payPeriodEnd,
    wps_fixed_amount: wps.fixedAmount,
    wps_variable_amount: wps.variableAmount,
    wps_leave_days: wps.leaveDays,
  };
}
