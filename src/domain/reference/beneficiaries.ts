import { ValidationErrorsIBAN, getCountrySpecifications, isValidBIC, validateIBAN } from 'ibantools';
import type { components } from '../../../generated/api.js';
import { bodyField, validationError } from '../errors.js';

/**
 * A beneficiary's own rules, pure: which names a type needs, a real country, bank details that
 * identify one account (a valid IBAN, or an account number with a bank code and/or a BIC), their
 * stored (normalised) form, and how they are masked in lists. Every message names the body field.
 */

type BeneficiaryType = components['schemas']['BeneficiaryType'];

/** A beneficiary's fields as stored: normalised, absent ones null. */
export interface BeneficiaryFields {
  type: BeneficiaryType;
  firstName: string | null;
  lastName: string | null;
  companyName: string | null;
  displayName: string;
  nationality: string;
  bankName: string;
  iban: string | null;
  accountNumber: string | null;
  bankCode: string | null;
  swiftBic: string | null;
  reference: string | null;
  email: string | null;
  /** The labour-card person id and the bank's WPS routing code (docs/wps.md): what a WPS salary file names the employee by. */
  labourCardPersonId: string | null;
  wpsRoutingCode: string | null;
}

/** What a client sends (a create body, or a stored beneficiary with a patch applied); `displayName` may be left to default. */
export type BeneficiaryDraft = { [K in keyof BeneficiaryFields]?: BeneficiaryFields[K] | undefined } & Pick<BeneficiaryFields, 'type'>;

const COUNTRIES: ReadonlySet<string> = new Set(Object.keys(getCountrySpecifications()));

/** An ISO 3166-1 alpha-2 code of a real country (ibantools' country list, XK included). */
export function isCountryCode(code: string): boolean {
  return /^[A-Z]{2}$/.test(code) && COUNTRIES.has(code);
}

/** The electronic form of an IBAN or account number: no spaces, capitals. */
export function compactBankIdentifier(value: string): string {
  return value.replace(/\s+/g, '').toUpperCase();
}

/** Why `iban` (electronic form) is not a valid IBAN, or null when it is. */
function ibanProblem(iban: string): string | null {
  const { valid, errorCodes } = validateIBAN(iban);
  if (valid) return null;
  const country = iban.slice(0, 2);
  const expected = getCountrySpecifications()[country]?.chars;
  if (errorCodes.includes(ValidationErrorsIBAN.NoIBANCountry) || !expected) return `body.iban: ${country} is not the country prefix of an IBAN`;
  if (errorCodes.includes(ValidationErrorsIBAN.WrongBBANLength)) return `body.iban has ${iban.length} characters; an IBAN of ${country} has ${expected}`;
  if (errorCodes.includes(ValidationErrorsIBAN.WrongBBANFormat)) return `body.iban: the account part of ${iban} does not follow the IBAN format of ${country}`;
  return `body.iban: the check digits of ${iban} are wrong (ISO 13616 mod 97)`;
}

/** Why `bic` (capitals) is not a valid BIC, or null when it is. */
function bicProblem(bic: string): string | null {
  return isValidBIC(bic) ? null : `body.swiftBic: ${bic} is not a valid BIC (8 or 11 characters: bank, country, location, optional branch)`;
}

/**
 * How `iban` and `accountNumber` appear in lists: 12 characters or more show the first 4 and the
 * last 4 around two fixed groups (`AE07 **** **** 3456`, whatever the length); 8 to 11 show only
 * the last 4 (`**** **** 5678`); fewer show nothing (`**** ****`).
 */
export function maskBankIdentifier(value: string): string {
  if (value.length >= 12) return `${value.slice(0, 4)} **** **** ${value.slice(-4)}`;
  if (value.length >= 8) return `**** **** ${value.slice(-4)}`;
  return '**** ****';
}

/** A trimmed text; null when absent; a blank one is refused. */
function text(field: string, value: string | null | undefined): string | null {
  if (value === undefined || value === null) return null;
  const trimmed = value.trim();
  if (trimmed === '') throw validationError(`body.${field} must not be blank`, { field: bodyField(field) });
  return trimmed;
}

function names(draft: BeneficiaryDraft): Pick<BeneficiaryFields, 'firstName' | 'lastName' | 'companyName' | 'displayName'> {
  const firstName = text('firstName', draft.firstName);
  const lastName = text('lastName', draft.lastName);
  const companyName = text('companyName', draft.companyName);
  if (draft.type === 'INDIVIDUAL') {
    if (!firstName) throw validationError('body.firstName is required for an INDIVIDUAL beneficiary', { field: '/firstName' });
    if (!lastName) throw validationError('body.lastName is required for an INDIVIDUAL beneficiary', { field: '/lastName' });
  } else if (!companyName) {
    throw validationError('body.companyName is required for a BUSINESS beneficiary', { field: '/companyName' });
  }
  const defaultName = draft.type === 'BUSINESS' ? companyName! : `${firstName} ${lastName}`;
  return { firstName, lastName, companyName, displayName: text('displayName', draft.displayName) ?? defaultName };
}

function bankDetails(draft: BeneficiaryDraft): Pick<BeneficiaryFields, 'iban' | 'accountNumber' | 'bankCode' | 'swiftBic'> {
  const iban = draft.iban ? compactBankIdentifier(draft.iban) : null;
  const accountNumber = draft.accountNumber ? compactBankIdentifier(draft.accountNumber) : null;
  const bankCode = text('bankCode', draft.bankCode);
  const swiftBic = draft.swiftBic ? compactBankIdentifier(draft.swiftBic) : null;
  if (iban && accountNumber) throw validationError('body.accountNumber: give either an iban or an accountNumber, not both', { field: '/accountNumber' });
  if (!iban && !accountNumber)
    throw validationError('body.iban: bank details missing: give an iban, or an accountNumber with a bankCode and/or a swiftBic', { field: '/iban' });
  const ibanIssue = iban && ibanProblem(iban);
  if (ibanIssue) throw validationError(ibanIssue, { field: '/iban' });
  const bicIssue = swiftBic && bicProblem(swiftBic);
  if (bicIssue) throw validationError(bicIssue, { field: '/swiftBic' });
  if (accountNumber && !bankCode && !swiftBic)
    throw validationError('body.bankCode: an accountNumber needs a bankCode and/or a swiftBic', { field: '/bankCode' });
  if (accountNumber && !/^[A-Z0-9-]+$/.test(accountNumber))
    throw validationError('body.accountNumber may hold only letters, digits and hyphens', { field: '/accountNumber' });
  return { iban, accountNumber, bankCode, swiftBic };
}

/** The draft checked against every rule and normalised as stored; a VALIDATION_ERROR naming the field otherwise. */
export function checkBeneficiary(draft: BeneficiaryDraft): BeneficiaryFields {
  const nationality = draft.nationality ?? '';
  if (!isCountryCode(nationality))
    throw validationError(`body.nationality: ${nationality} is not an ISO 3166-1 alpha-2 country code`, { field: '/nationality' });
  const bankName = text('bankName', draft.bankName);
  if (!bankName) throw validationError('body.bankName is required', { field: '/bankName' });
  return {
    type: draft.type,
    ...names(draft),
    nationality,
    bankName,
    ...bankDetails(draft),
    reference: text('reference', draft.reference),
    email: text('email', draft.email),
    labourCardPersonId: draft.labourCardPersonId ?? null,
    wpsRoutingCode: draft.wpsRoutingCode ?? null,
  };
}

/** A patch: absent keeps, null removes. */
export type BeneficiaryPatch = { [K in keyof BeneficiaryFields]?: BeneficiaryFields[K] | undefined };

/** The stored fields with the patch applied, still to be checked (checkBeneficiary). */
export function applyBeneficiaryPatch(current: BeneficiaryFields, patch: BeneficiaryPatch): BeneficiaryDraft {
  const merged: BeneficiaryDraft = { ...current };
  for (const key of Object.keys(current) as (keyof BeneficiaryFields)[]) {
    if (patch[key] !== undefined) Object.assign(merged, { [key]: patch[key] });
  }
  return merged;
}
