-- ANALYZE (autovacuum's, after every few thousand inserts) samples 300 rows per unit of the
-- table's largest statistics target: 30,000 rows at the default of 100, each copied whole into
-- the worker's memory. A five-entry estimate's row is 1.3 KB with its entries inline (they go out
-- of line only past ~2 KB), and each copy takes about 2 KB of memory: under `npm run bench` an
-- autovacuum worker held 60 MB of private memory and the database's peak was 130–140 MB instead
-- of 70–80 MB. By hand (PostgreSQL 17, the embedded binaries, 90,000 rows of 1.8 KB): ANALYZE took
-- 63 MB at the default target, 2.8 MB with this migration's (a sample of 3,000 rows).
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
