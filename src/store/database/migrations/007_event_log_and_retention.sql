-- A complete event log: every status change writes an event whether or not anyone
-- subscribed, numbered per resource (sequence 1, 2, 3, …) and placed in one global order for
-- listing: (tx_id, position), where tx_id is the writing transaction's id. A lister only returns
-- events whose transaction is older than every transaction still running, so paging forward never
-- skips an event that commits late (a plain serial would: its values are drawn before commit).
ALTER TABLE events ADD COLUMN resource_id uuid;
ALTER TABLE events ADD COLUMN sequence integer;
ALTER TABLE events ADD COLUMN position bigserial;
ALTER TABLE events ADD COLUMN tx_id xid8 NOT NULL DEFAULT pg_current_xact_id();

-- Events written before this migration: the resource is the payload's id; numbered in the order
-- they occurred.
UPDATE events e SET resource_id = (e.payload ->> 'id')::uuid, sequence = numbered.n
  FROM (SELECT id, row_number() OVER (PARTITION BY type, payload ->> 'id' ORDER BY occurred_at, position) AS n FROM events) numbered
 WHERE numbered.id = e.id;
ALTER TABLE events ALTER COLUMN resource_id SET NOT NULL;
ALTER TABLE events ALTER COLUMN sequence SET NOT NULL;

-- One event per (resource, sequence): two writers racing on one resource cannot both number theirs 3.
CREATE UNIQUE INDEX events_resource_sequence ON events (type, resource_id, sequence);
-- listEvents: a customer's events in the global order.
CREATE INDEX events_customer_order ON events (customer_id, tx_id, position);
-- Retention: the oldest events first.
CREATE INDEX events_occurred ON events (occurred_at);
CREATE INDEX webhook_deliveries_event ON webhook_deliveries (event_id);

-- Retention of the rest: expired, never used fee estimates, and idempotency keys past their window.
CREATE INDEX payroll_fee_estimates_unused_expiry ON payroll_fee_estimates (expires_at) WHERE consumed_at IS NULL;
CREATE INDEX payout_fee_estimates_unused_expiry ON payout_fee_estimates (expires_at) WHERE consumed_at IS NULL;
CREATE INDEX idempotency_keys_created ON idempotency_keys (created_at);
