-- API keys: secret keys a customer user creates for server-to-server calls. Only the SHA-256 of
-- the secret is kept (the secret is 256 random bits: a fast hash is enough, no salt or KDF needed);
-- public_id is the visible part of the key that finds its row.
CREATE TABLE api_keys (
  id uuid PRIMARY KEY,
  customer_id uuid NOT NULL REFERENCES customers(id),
  user_id uuid NOT NULL REFERENCES users(id),
  name text NOT NULL,
  public_id text NOT NULL UNIQUE,
  prefix text NOT NULL,
  secret_hash bytea NOT NULL,
  created_at timestamptz NOT NULL,
  expires_at timestamptz,
  revoked_at timestamptz,
  last_used_at timestamptz
);
CREATE INDEX api_keys_customer ON api_keys (customer_id, created_at DESC, id DESC);

-- The audit log of API keys: their creation, revocation and every use (the request it
-- authenticated). Not the events table: events are the customer's feed (listEvents, webhooks).
CREATE TABLE api_key_audit (
  id bigserial PRIMARY KEY,
  api_key_id uuid NOT NULL REFERENCES api_keys(id),
  action text NOT NULL CHECK (action IN ('CREATED', 'REVOKED', 'USED')),
  at timestamptz NOT NULL,
  user_id uuid,
  request_id text,
  method text,
  path text,
  status_code integer
);
CREATE INDEX api_key_audit_key ON api_key_audit (api_key_id, at);
CREATE INDEX api_key_audit_at ON api_key_audit (at);
