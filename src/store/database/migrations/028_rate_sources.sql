-- Where each rate comes from. exchange_rates keeps the world's rows (WORLD) and the admin's (MANUAL);
-- a rate feed's quotes live in fed_rates, each against the feed's base currency, with the instant
-- the feed says it is valid for (as_of) and when we fetched it. A feed's rates move estimates
-- exactly as the admin's do: through reference_version.
ALTER TABLE exchange_rates ADD COLUMN source text NOT NULL DEFAULT 'WORLD' CHECK (source IN ('WORLD', 'MANUAL'));

CREATE TABLE fed_rates (
  base_code text NOT NULL,
  currency_code text NOT NULL,
  rate numeric NOT NULL CHECK (rate > 0),
  as_of timestamptz NOT NULL,
  fetched_at timestamptz NOT NULL,
  PRIMARY KEY (base_code, currency_code)
);
CREATE TRIGGER fed_rates_reference_version AFTER INSERT OR DELETE OR UPDATE OR TRUNCATE ON fed_rates
  FOR EACH STATEMENT EXECUTE FUNCTION bump_reference_version();

-- Pegs declared in the world file (1 anchor = rate currency): with a feed, a pegged currency the feed
-- does not publish is the anchor's fed rate times the peg. RATE_PEGS declares more, and wins.
CREATE TABLE currency_pegs (
  currency_code text PRIMARY KEY REFERENCES currencies(code),
  anchor_code text NOT NULL REFERENCES currencies(code),
  rate numeric NOT NULL CHECK (rate > 0),
  CHECK (anchor_code <> currency_code)
);
CREATE TRIGGER currency_pegs_reference_version AFTER INSERT OR DELETE OR UPDATE OR TRUNCATE ON currency_pegs
  FOR EACH STATEMENT EXECUTE FUNCTION bump_reference_version();

-- The feed's one poller: a worker polls only when it claims this row while it is due (FOR UPDATE
-- SKIP LOCKED, as work items are claimed), and moves next_poll_at on by the interval in the same
-- statement, so a fleet of workers polls once per interval. base_code: the base of the last good
-- fetch, against which fed_rates are read.
CREATE TABLE rate_feed_state (
  id boolean PRIMARY KEY DEFAULT true CHECK (id),
  next_poll_at timestamptz NOT NULL,
  base_code text,
  last_success_at timestamptz,
  last_failure_at timestamptz,
  last_failure text
);
INSERT INTO rate_feed_state (id, next_poll_at) VALUES (true, '-infinity');
