-- Customer self-service of beneficiaries: the fields a customer records through the API,
-- and the uniqueness rules enforced by the database, so two concurrent creations cannot both pass.
-- Additive only: new nullable columns, timestamps with a default, NOT NULL relaxed on the personal
-- names (a BUSINESS has a company name instead), new indexes.
ALTER TABLE beneficiaries ADD COLUMN company_name text;
ALTER TABLE beneficiaries ADD COLUMN bank_code text;
ALTER TABLE beneficiaries ADD COLUMN swift_bic text;
ALTER TABLE beneficiaries ADD COLUMN email text;
-- Rows that existed before: created and last updated when this migration ran. Milliseconds, as
-- the API shows them: the list's cursor carries created_at as the API writes it.
ALTER TABLE beneficiaries ADD COLUMN created_at timestamptz NOT NULL DEFAULT date_trunc('milliseconds', now());
ALTER TABLE beneficiaries ADD COLUMN updated_at timestamptz NOT NULL DEFAULT date_trunc('milliseconds', now());

ALTER TABLE beneficiaries ALTER COLUMN first_name DROP NOT NULL;
ALTER TABLE beneficiaries ALTER COLUMN last_name DROP NOT NULL;
-- An INDIVIDUAL keeps both names; a BUSINESS has its company name or (rows of before) personal names.
ALTER TABLE beneficiaries ADD CONSTRAINT beneficiaries_names
  CHECK ((type = 'INDIVIDUAL' AND first_name IS NOT NULL AND last_name IS NOT NULL)
      OR (type <> 'INDIVIDUAL' AND (company_name IS NOT NULL OR (first_name IS NOT NULL AND last_name IS NOT NULL))));

-- One beneficiary per reference, per IBAN and per account (number, bank code, BIC) of a customer,
-- inactive ones included. The use case maps a violation to 409 DUPLICATE_BENEFICIARY by index name.
CREATE UNIQUE INDEX beneficiaries_customer_reference ON beneficiaries (customer_id, reference) WHERE reference IS NOT NULL;
CREATE UNIQUE INDEX beneficiaries_customer_iban ON beneficiaries (customer_id, iban) WHERE iban IS NOT NULL;
CREATE UNIQUE INDEX beneficiaries_customer_account
  ON beneficiaries (customer_id, account_number, COALESCE(bank_code, ''), COALESCE(swift_bic, ''))
  WHERE iban IS NULL AND account_number IS NOT NULL;

-- listBeneficiaries: a customer's beneficiaries newest first, keyed on (created_at, id).
CREATE INDEX beneficiaries_customer_created ON beneficiaries (customer_id, created_at DESC, id DESC);
