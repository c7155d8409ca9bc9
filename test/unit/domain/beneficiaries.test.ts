// Beneficiary rules: names per type, a real country, bank details validated with
// ibantools and normalised, the list mask.
import { describe, expect, it } from 'vitest';
import {
  type BeneficiaryDraft,
  applyBeneficiaryPatch,
  checkBeneficiary,
  compactBankIdentifier,
  isCountryCode,
  maskBankIdentifier,
} from '../../../src/domain/reference/beneficiaries.js';
import { DomainError } from '../../../src/domain/errors.js';

const individual: BeneficiaryDraft = {
  type: 'INDIVIDUAL',
  firstName: 'Priya',
  lastName: 'Nair',
  nationality: 'IN',
  bankName: 'Emirates NBD',
  iban: 'ae07 0331 2345 6789 0123 456',
};

/** The field the VALIDATION_ERROR of `draft` names (a JSON Pointer into the body). */
function refusal(draft: BeneficiaryDraft): string | undefined {
  try {
    checkBeneficiary(draft);
  } catch (error) {
    expect(error).toBeInstanceOf(DomainError);
    expect((error as DomainError).code).toBe('VALIDATION_ERROR');
    return (error as DomainError).field;
  }
  throw new Error('accepted');
}

describe('checkBeneficiary', () => {
  it('normalises the IBAN, defaults the display name and nulls what is absent', () => {
    expect(checkBeneficiary({ ...individual, swiftBic: 'ebilaead', reference: ' EMP-1 ' })).toEqual({
      type: 'INDIVIDUAL',
      firstName: 'Priya',
      lastName: 'Nair',
      companyName: null,
      displayName: 'Priya Nair',
      nationality: 'IN',
      bankName: 'Emirates NBD',
      iban: 'AE070331234567890123456',
      accountNumber: null,
      bankCode: null,
      swiftBic: 'EBILAEAD',
      reference: 'EMP-1',
      email: null,
      labourCardPersonId: null,
      wpsRoutingCode: null,
    });
  });

  it('a BUSINESS needs a companyName, no personal names, and is displayed by it', () => {
    const business = { type: 'BUSINESS', nationality: 'US', bankName: 'Chase', accountNumber: '0001 2345 6789', bankCode: '021000021' } as const;
    expect(refusal(business)).toBe('/companyName');
    const checked = checkBeneficiary({ ...business, companyName: 'Atlas Supplies LLC' });
    expect(checked).toMatchObject({ firstName: null, lastName: null, displayName: 'Atlas Supplies LLC', accountNumber: '000123456789' });
  });

  it('an INDIVIDUAL needs both names, not blank', () => {
    expect(refusal({ ...individual, lastName: undefined })).toBe('/lastName');
    expect(refusal({ ...individual, firstName: '  ' })).toBe('/firstName');
  });

  it('refuses an IBAN with wrong check digits, the wrong length for its country or an unknown country', () => {
    expect(refusal({ ...individual, iban: 'AE070331234567890123457' })).toBe('/iban');
    expect(refusal({ ...individual, iban: 'AE07033123456789012345' })).toBe('/iban');
    expect(refusal({ ...individual, iban: 'ZZ070331234567890123456' })).toBe('/iban');
    // US is a country but has no IBAN.
    expect(refusal({ ...individual, iban: 'US070331234567890123456' })).toBe('/iban');
  });

  it('refuses a malformed BIC, missing or double bank details, an account number without a bank', () => {
    expect(refusal({ ...individual, swiftBic: 'EBIL1EAD' })).toBe('/swiftBic');
    expect(refusal({ ...individual, iban: undefined })).toBe('/iban');
    expect(refusal({ ...individual, accountNumber: '123456789' })).toBe('/accountNumber');
    expect(refusal({ ...individual, iban: null, accountNumber: '123456789' })).toBe('/bankCode');
    expect(checkBeneficiary({ ...individual, iban: null, accountNumber: '123456789', swiftBic: 'HDFCINBB' }).swiftBic).toBe('HDFCINBB');
  });

  it('refuses a nationality that is no country', () => {
    expect(refusal({ ...individual, nationality: 'ZZ' })).toBe('/nationality');
    expect(isCountryCode('AE')).toBe(true);
    expect(isCountryCode('ae')).toBe(false);
    expect(isCountryCode('UK')).toBe(false);
  });
});

describe('applyBeneficiaryPatch', () => {
  it('absent keeps, null removes, a value replaces; the result is checked again', () => {
    const stored = checkBeneficiary({ ...individual, reference: 'EMP-1', email: 'p@example.com' });
    const merged = applyBeneficiaryPatch(stored, { email: null, lastName: 'Menon' });
    expect(merged).toMatchObject({ email: null, lastName: 'Menon', reference: 'EMP-1', iban: 'AE070331234567890123456' });
    expect(refusal(applyBeneficiaryPatch(stored, { iban: null }))).toBe('/iban');
  });
});

describe('maskBankIdentifier', () => {
  it.each([
    ['AE070331234567890123456', 'AE07 **** **** 3456'],
    ['DE89370400440532013000', 'DE89 **** **** 3000'],
    ['000123456789', '0001 **** **** 6789'],
    ['12345678901', '**** **** 8901'],
    ['12345678', '**** **** 5678'],
    ['1234567', '**** ****'],
  ])('%s → %s', (value, masked) => {
    expect(maskBankIdentifier(value)).toBe(masked);
  });

  it('never shows more than 8 characters of the value', () => {
    for (let length = 1; length <= 34; length += 1) {
      const value = 'X'.repeat(length);
      expect(maskBankIdentifier(value).replace(/[ *]/g, '').length).toBeLessThanOrEqual(Math.min(8, Math.max(0, length - 4)));
    }
  });

  it('compactBankIdentifier removes spaces and capitalises', () => {
    expect(compactBankIdentifier(' gb82 west 1234 5698 7654 32 ')).toBe('GB82WEST12345698765432');
  });
});
