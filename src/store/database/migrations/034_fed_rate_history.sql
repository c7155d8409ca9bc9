-- Each rate a feed's poll stored, kept for a day and a little more: a new rate is bounded against
-- the one that stood a day before (RATE_MAX_WINDOW_BPS) as well as against the last one, so a feed
-- that moves a little every poll cannot walk a rate anywhere. Older rows are pruned as rates are
-- stored, keeping the one that stood at the window's start.
CREATE TABLE fed_rate_history (
  base_code text NOT NULL,
  currency_code text NOT NULL,
  rate numeric NOT NULL CHECK (rate > 0),
  fetched_at timestamptz NOT NULL,
  PRIMARY KEY (base_code, currency_code, fetched_at)
);
