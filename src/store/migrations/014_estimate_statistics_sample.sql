-- ANALYZE (autovacuum's, after every few thousand inserts) samples 300 rows per unit of the
-- table's largest statistics target: 30,000 rows at the default of 100, each copied whole into
-- the worker's memory. A locked estimate's row is about 1.8 KB with its entries inline (up to a
-- dozen entries), so the worker held about 60 MB while it ran: ANALYZE of 90,000 five-entry
-- estimates took 63 MB of private memory (PostgreSQL 17, the embedded binaries), and when it ran
-- during `npm run bench` the database's memory peaked at 130–140 MB instead of 70–80 MB. At a
-- target of 10 it samples 3,000 rows: 2.8 MB.
-- The table is only ever looked up by fee_hash (its key, with the customer) and through its
-- unused-expiry partial index; 3,000 rows describe those columns well enough. The entries and the fee
-- breakdown are never queried inside: no statistics at all. A column added later must set its
-- own target, or the sample goes back to 30,000 rows (test/store/feeEstimates.test.ts checks).
ALTER TABLE payroll_fee_estimates
  ALTER COLUMN fee_hash SET STATISTICS 10,
  ALTER COLUMN customer_id SET STATISTICS 10,
  ALTER COLUMN created_by_user_id SET STATISTICS 10,
  ALTER COLUMN source_account_currency_id SET STATISTICS 10,
  ALTER COLUMN payroll_account_currency_id SET STATISTICS 10,
  ALTER COLUMN entries SET STATISTICS 0,
  ALTER COLUMN fee_breakdown SET STATISTICS 0,
  ALTER COLUMN source_currency_amount SET STATISTICS 10,
  ALTER COLUMN fee_amount SET STATISTICS 10,
  ALTER COLUMN total_amount SET STATISTICS 10,
  ALTER COLUMN estimated_received_amount SET STATISTICS 10,
  ALTER COLUMN created_at SET STATISTICS 10,
  ALTER COLUMN expires_at SET STATISTICS 10,
  ALTER COLUMN consumed_at SET STATISTICS 10,
  ALTER COLUMN consumed_by_request_id SET STATISTICS 10;
