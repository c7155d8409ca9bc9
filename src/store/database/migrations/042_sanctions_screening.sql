-- Sanctions screening: the list versions the service has read, every screening of a beneficiary
-- with its best candidates, the hits a person decides, and the payouts held until they do.

CREATE TABLE sanctions_list_versions (
  id uuid PRIMARY KEY,
  list text NOT NULL CHECK (list IN ('OFAC_SDN', 'UN_CONSOLIDATED')),
  file_name text NOT NULL,
  sha256 text NOT NULL,
  published_on date NOT NULL,
  record_count integer NOT NULL,
  loaded_at timestamptz NOT NULL,
  UNIQUE (list, sha256)
);

CREATE TABLE beneficiary_screenings (
  id uuid PRIMARY KEY,
  beneficiary_id uuid NOT NULL REFERENCES beneficiaries (id),
  -- What asked for it: the beneficiary's creation or change, a payroll estimate or request, a payout about to be instructed, a list update.
  cause text NOT NULL CHECK (cause IN ('BENEFICIARY', 'ESTIMATE', 'PAYROLL_REQUEST', 'PAYOUT', 'LIST_UPDATE')),
  list_version_ids uuid[] NOT NULL,
  threshold numeric(5, 4) NOT NULL,
  candidates jsonb NOT NULL,
  screened_at timestamptz NOT NULL
);
CREATE INDEX beneficiary_screenings_beneficiary ON beneficiary_screenings (beneficiary_id, screened_at);

-- One hit per beneficiary, entry and the two as they were written (their fingerprints): a released
-- match is not raised again until the list entry or the beneficiary changes.
CREATE TABLE screening_hits (
  id uuid PRIMARY KEY,
  customer_id uuid NOT NULL,
  beneficiary_id uuid NOT NULL REFERENCES beneficiaries (id),
  list text NOT NULL,
  entry_id text NOT NULL,
  entry_fingerprint text NOT NULL,
  beneficiary_fingerprint text NOT NULL,
  score numeric(5, 4) NOT NULL,
  candidate jsonb NOT NULL,
  entry jsonb NOT NULL,
  list_version_id uuid NOT NULL REFERENCES sanctions_list_versions (id),
  state text NOT NULL DEFAULT 'OPEN' CHECK (state IN ('OPEN', 'RELEASED', 'CONFIRMED')),
  created_at timestamptz NOT NULL,
  decided_by text,
  decided_at timestamptz,
  note text,
  UNIQUE (beneficiary_id, list, entry_id, entry_fingerprint, beneficiary_fingerprint),
  CHECK ((state = 'OPEN') = (decided_at IS NULL))
);
CREATE INDEX screening_hits_state ON screening_hits (state, created_at, id);
CREATE INDEX screening_hits_beneficiary ON screening_hits (beneficiary_id) WHERE state <> 'RELEASED';

-- A payout held out of its request's bank file until its hit is decided. Released, it goes to the
-- bank in a file of its own (release_batch_id: the bank's idempotency key, written before the bank
-- hears of it); confirmed, it fails and is credited back.
CREATE TABLE screening_holds (
  transfer_id uuid PRIMARY KEY REFERENCES transfers (id),
  hit_id uuid NOT NULL REFERENCES screening_hits (id),
  batch_id uuid NOT NULL REFERENCES payout_batches (id),
  held_at timestamptz NOT NULL,
  outcome text CHECK (outcome IN ('RELEASED', 'CONFIRMED')),
  resolved_at timestamptz,
  release_batch_id uuid UNIQUE,
  CHECK ((outcome IS NULL) = (resolved_at IS NULL)),
  CHECK ((outcome = 'RELEASED') = (release_batch_id IS NOT NULL))
);
CREATE INDEX screening_holds_released ON screening_holds (resolved_at) WHERE release_batch_id IS NOT NULL;
CREATE INDEX screening_holds_hit ON screening_holds (hit_id) WHERE resolved_at IS NULL;
CREATE INDEX screening_holds_batch ON screening_holds (batch_id) WHERE resolved_at IS NULL;

-- When every active beneficiary was screened against this version (a list update's pass, once).
ALTER TABLE sanctions_list_versions ADD COLUMN rescreened_at timestamptz;

-- Who created a beneficiary: its hits are never reviewed by them. Null for beneficiaries created before.
ALTER TABLE beneficiaries ADD COLUMN created_by_user_id uuid REFERENCES users (id);
