-- Each beneficiary's latest screening as it stands: the list versions it was screened against and
-- the hits its candidates are, so that the check before a bank file is written reads stored state
-- for the whole batch at once instead of matching names again. A beneficiary without a row here,
-- or screened against an older version than one now loaded, is screened again first.
CREATE TABLE beneficiary_screening_state (
  beneficiary_id uuid PRIMARY KEY REFERENCES beneficiaries (id),
  screening_id uuid NOT NULL REFERENCES beneficiary_screenings (id),
  list_version_ids uuid[] NOT NULL,
  hit_ids uuid[] NOT NULL,
  screened_at timestamptz NOT NULL
);
