import type { components } from '../../../generated/api.js';
import { validationProblems } from '../../domain/errors.js';
import { WPS_CURRENCY, type WpsSalaryDetails, isWpsPayroll, wpsProblems } from '../../domain/payroll/wpsPayroll.js';
import type { Queryable } from '../../store/database/db.js';
import { findWpsEmployer, wpsFieldsOfBeneficiaries } from '../../store/payroll/wpsRegistration.js';

type CreateAmountSplitEntry = components['schemas']['CreateAmountSplitEntry'];

/**
 * A payroll of an employer registered for the UAE Wage Protection System, in AED, must carry what
 * its Salary Information File needs (docs/wps.md): refused with every missing field listed
 * otherwise. Returns each entry's WPS details to store with its split, or null for a payroll that
 * is not paid through WPS (its entries' `wps` are then ignored).
 */
export async function requireWpsFields(
  tx: Queryable,
  customerId: string,
  currencies: { source: string; payroll: string },
  entries: readonly CreateAmountSplitEntry[],
  account: 'IBAN' | 'ACCOUNT_NUMBER',
): Promise<WpsSalaryDetails[] | null> {
  const employer = await findWpsEmployer(tx, customerId);
  if (!employer || !isWpsPayroll(employer, currencies.payroll)) return null;
  const beneficiaries = await wpsFieldsOfBeneficiaries(
    tx,
    customerId,
    entries.map((entry) => entry.beneficiaryId.toLowerCase()),
  );
  const inAed = (entry: CreateAmountSplitEntry) => (entry.amountCurrencyType ?? 'SOURCE') === 'PAYROLL' || currencies.source === WPS_CURRENCY;
  const problems = wpsProblems(
    employer,
    entries.map((entry) => ({
      beneficiary: beneficiaries.get(entry.beneficiaryId.toLowerCase()) ?? { labourCardPersonId: null, wpsRoutingCode: null },
      wps: entry.wps,
      aedAmount: inAed(entry) ? entry.amount : null,
    })),
    account,
  );
  if (problems.length > 0) throw validationProblems('The payroll of a WPS employer', problems);
  return entries.map((entry) => entry.wps!);
}
