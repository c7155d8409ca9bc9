-- Webhooks: endpoints, the event outbox (written in the state change's transaction), one delivery
-- per (event, endpoint) and every delivery attempt.
CREATE TABLE webhook_endpoints (
  id uuid PRIMARY KEY,
  customer_id uuid NOT NULL REFERENCES customers(id),
  url text NOT NULL,
  event_types text[] NOT NULL,
  description text,
  secret text NOT NULL,
  status text NOT NULL CHECK (status IN ('ENABLED', 'FAILING')),
  consecutive_failures integer NOT NULL DEFAULT 0,
  deleted_at timestamptz,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL
);
CREATE INDEX webhook_endpoints_customer ON webhook_endpoints (customer_id) WHERE deleted_at IS NULL;

CREATE TABLE events (
  id uuid PRIMARY KEY,
  customer_id uuid NOT NULL REFERENCES customers(id),
  type text NOT NULL,
  occurred_at timestamptz NOT NULL,
  payload jsonb NOT NULL
);

CREATE TABLE webhook_deliveries (
  id uuid PRIMARY KEY,
  event_id uuid NOT NULL REFERENCES events(id),
  endpoint_id uuid NOT NULL REFERENCES webhook_endpoints(id),
  status text NOT NULL CHECK (status IN ('PENDING', 'SUCCEEDED', 'ABANDONED')),
  attempt_count integer NOT NULL DEFAULT 0,
  next_attempt_at timestamptz,
  locked_until timestamptz,
  created_at timestamptz NOT NULL,
  delivered_at timestamptz,
  UNIQUE (event_id, endpoint_id)
);
CREATE INDEX webhook_deliveries_due ON webhook_deliveries (next_attempt_at) WHERE status = 'PENDING';
CREATE INDEX webhook_deliveries_endpoint ON webhook_deliveries (endpoint_id, created_at DESC);

CREATE TABLE webhook_delivery_attempts (
  id bigserial PRIMARY KEY,
  delivery_id uuid NOT NULL REFERENCES webhook_deliveries(id),
  attempted_at timestamptz NOT NULL,
  status_code integer,
  duration_ms integer NOT NULL,
  error text
);
CREATE INDEX webhook_delivery_attempts_delivery ON webhook_delivery_attempts (delivery_id, id);
