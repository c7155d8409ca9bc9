import type { components } from '../../../generated/api.js';
import { type ErrorDetail, bodyField } from '../errors.js';
import { Money } from '../money/money.js';
import { daysInPeriod, SifError } from '../bank/wpsSalaryFile.js';

/**
 * Who must pay salaries through the UAE Wage Protection System, and what such a payroll must
 * carry (docs/wps.md): an employer with an establishment id paying a payroll in AED. Each of its
 * splits names the pay period and the salary's fixed and variable parts; each beneficiary has a
 * labour-card person id and its bank's routing code; the employer has its agent's routing code.
 * Every missing field is listed, per entry, in one refusal.
 */

export type WpsSalaryDetails = components['schemas']['WpsSalaryDetails'];

export const WPS_CURRENCY = 'AED';

/** The employer's WPS registration (world file); an employer without an establishment id is not a WPS employer. */
export interface WpsEmployerFields {
  establishmentId: string | null;
  agentRoutingCode: string | null;
}

/** What a WPS split needs of its beneficiary. */
export interface WpsBeneficiaryFields {
  labourCardPersonId: string | null;
  wpsRoutingCode: string | null;
  /** The account the EDR names (by the SIF profile): checked only when given. */
  iban?: string | null;
  accountNumber?: string | null;
}

export interface WpsEntry {
  beneficiary: WpsBeneficiaryFields;
  wps: WpsSalaryDetails | undefined;
  /** The entry's amount, when it is in AED (a PAYROLL amount, or a SOURCE amount of an AED → AED payroll); null otherwise. */
  aedAmount: string | null;
}

/** Whether a payroll is to be paid through WPS: the employer is registered and the payroll currency is AED. */
export function isWpsPayroll(employer: WpsEmployerFields, payrollCurrency: string): boolean {
  return employer.establishmentId !== null && payrollCurrency === WPS_CURRENCY;
}

/** Each field the split's WPS details need, in the order docs/wps.md lists them. */
const SALARY_FIELDS = ['payPeriodStart', 'payPeriodEnd', 'fixedAmount', 'variableAmount', 'leaveDays'] as const;

/**
 * Every problem of a WPS payroll's entries, each naming its field (a JSON Pointer into the body;
 * a beneficiary's field is named under `/amountSplitDetails/<i>/beneficiary/…`) and entry. An
 * employer without its agent's routing code is one problem of its own, with no field (the world file sets it).
 */
export function wpsProblems(employer: WpsEmployerFields, entries: readonly WpsEntry[], account?: 'IBAN' | 'ACCOUNT_NUMBER'): ErrorDetail[] {
  const problems: ErrorDetail[] = [];
  if (!employer.agentRoutingCode)
    problems.push({ reason: 'WPS_FIELD_MISSING', message: "the employer has no WPS agent routing code (the world file's customer wpsAgentRoutingCode)" });
  entries.forEach((entry, entryIndex) => {
    const at = `amountSplitDetails[${entryIndex}]`;
    const problem = (reason: 'WPS_FIELD_MISSING' | 'WPS_FIELD_INVALID', path: readonly string[], message: string) =>
      problems.push({ field: bodyField('amountSplitDetails', entryIndex, ...path), entryIndex, reason, message: `${at}.${path.join('.')} ${message}` });
    if (!entry.beneficiary.labourCardPersonId)
      problem('WPS_FIELD_MISSING', ['beneficiary', 'labourCardPersonId'], 'is missing: the beneficiary has no labour-card person id');
    if (!entry.beneficiary.wpsRoutingCode)
      problem('WPS_FIELD_MISSING', ['beneficiary', 'wpsRoutingCode'], 'is missing: the beneficiary has no routing code of its bank');
    if (account === 'IBAN' && !/^AE\d{21}$/.test(entry.beneficiary.iban ?? ''))
      problem('WPS_FIELD_MISSING', ['beneficiary', 'iban'], 'is missing: the salary file names the account by a UAE IBAN (WPS_SIF_PROFILE)');
    if (account === 'ACCOUNT_NUMBER' && !entry.beneficiary.accountNumber)
      problem('WPS_FIELD_MISSING', ['beneficiary', 'accountNumber'], 'is missing: the salary file names the account by its number (WPS_SIF_PROFILE)');
    const wps = entry.wps;
    for (const field of SALARY_FIELDS) if (wps?.[field] === undefined) problem('WPS_FIELD_MISSING', ['wps', field], 'is missing');
    if (!wps || SALARY_FIELDS.some((field) => wps[field] === undefined)) return;
    const periodProblem = periodProblemOf(wps);
    if (periodProblem) problem('WPS_FIELD_INVALID', ['wps', 'payPeriodEnd'], periodProblem);
    if (entry.aedAmount === null) problem('WPS_FIELD_INVALID', ['amountCurrencyType'], 'must be PAYROLL: a WPS salary is given in AED');
    else if (!new Money(wps.fixedAmount!).plus(wps.variableAmount!).equals(entry.aedAmount))
      problem('WPS_FIELD_INVALID', ['wps', 'variableAmount'], `with wps.fixedAmount must add up to the amount ${entry.aedAmount}`);
  });
  return problems;
}

function periodProblemOf(wps: WpsSalaryDetails): string | null {
  try {
    const days = daysInPeriod(wps.payPeriodStart!, wps.payPeriodEnd!);
    return wps.leaveDays! > days ? `wps.leaveDays ${wps.leaveDays} exceeds the period's ${days} days` : null;
  } catch (error) {
    if (error instanceof SifError) return error.message;
    throw error;
  }
}
