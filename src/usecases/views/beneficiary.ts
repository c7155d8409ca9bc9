import type { components } from '../../../generated/api.js';
import { maskBankIdentifier } from '../../domain/reference/beneficiaries.js';
import type { BeneficiaryRecord } from '../../store/beneficiaries/beneficiaries.js';

type Beneficiary = components['schemas']['Beneficiary'];

/**
 * A beneficiary as the API shows it, absent fields left out. `masked`: `iban` and `accountNumber`
 * in the list's masked form (maskBankIdentifier); whole otherwise (get, create, update, deactivate).
 * `screening`: the screening the creation or change made, when the service screens.
 */
export function toBeneficiary(row: BeneficiaryRecord, masked = false, screening?: Beneficiary['screening']): Beneficiary {
  const show = (value: string | null) => (value === null ? undefined : masked ? maskBankIdentifier(value) : value);
  const view: Beneficiary = {
    id: row.id,
    type: row.type,
    firstName: row.firstName ?? undefined,
    lastName: row.lastName ?? undefined,
    companyName: row.companyName ?? undefined,
    displayName: row.displayName,
    nationality: row.nationality,
    bankName: row.bankName,
    iban: show(row.iban),
    accountNumber: show(row.accountNumber),
    bankCode: row.bankCode ?? undefined,
    swiftBic: row.swiftBic ?? undefined,
    reference: row.reference ?? undefined,
    email: row.email ?? undefined,
    labourCardPersonId: row.labourCardPersonId ?? undefined,
    wpsRoutingCode: row.wpsRoutingCode ?? undefined,
    active: row.active,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    screening,
  };
  return Object.fromEntries(Object.entries(view).filter(([, value]) => value !== undefined)) as Beneficiary;
}
