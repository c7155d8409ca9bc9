/**
 * The immutable copy of a beneficiary kept with a split or a payout, built in SQL from the
 * beneficiaries row aliased `b`; absent optional fields are left out (jsonb_strip_nulls). A BUSINESS
 * recorded without personal names has empty ones (the snapshot's names are required).
 */
export const BENEFICIARY_SNAPSHOT_SQL = `jsonb_strip_nulls(jsonb_build_object('id', b.id, 'firstName', COALESCE(b.first_name, ''),
  'lastName', COALESCE(b.last_name, ''), 'displayName', b.display_name, 'type', b.type, 'nationality', b.nationality,
  'bankName', b.bank_name, 'iban', b.iban, 'accountNumber', b.account_number, 'reference', b.reference,
  'companyName', b.company_name, 'bankCode', b.bank_code, 'swiftBic', b.swift_bic))`;
