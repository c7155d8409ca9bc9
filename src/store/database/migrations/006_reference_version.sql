-- The reference data an estimate is computed from (currencies, accounts and their currencies, the
-- customers' spreads, exchange rates, bank fees, processor schedules) is cached in each service
-- process. Every change to it, whoever makes it (the admin rate endpoint of any instance, a seed,
-- an operator's SQL), bumps this single version; the estimate's one statement inserts only while
-- the version its figures were computed with is still current, and otherwise the process reloads.
-- Balance updates (account_currencies.balance/available) do not touch the columns watched here.
CREATE TABLE reference_version (
  id boolean PRIMARY KEY DEFAULT true CHECK (id),
  version bigint NOT NULL
);
INSERT INTO reference_version (id, version) VALUES (true, 1);

CREATE FUNCTION bump_reference_version() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE reference_version SET version = version + 1;
  RETURN NULL;
END
$$;

CREATE TRIGGER currencies_reference_version AFTER INSERT OR DELETE OR TRUNCATE OR UPDATE OF code, decimals ON currencies
  FOR EACH STATEMENT EXECUTE FUNCTION bump_reference_version();
CREATE TRIGGER customers_reference_version AFTER INSERT OR DELETE OR TRUNCATE OR UPDATE OF id, spread_bips ON customers
  FOR EACH STATEMENT EXECUTE FUNCTION bump_reference_version();
CREATE TRIGGER accounts_reference_version AFTER INSERT OR DELETE OR TRUNCATE OR UPDATE OF id, account_provider, customer_id ON accounts
  FOR EACH STATEMENT EXECUTE FUNCTION bump_reference_version();
CREATE TRIGGER account_currencies_reference_version AFTER INSERT OR DELETE OR TRUNCATE OR UPDATE OF id, account_id, currency_code ON account_currencies
  FOR EACH STATEMENT EXECUTE FUNCTION bump_reference_version();
CREATE TRIGGER exchange_rates_reference_version AFTER INSERT OR DELETE OR UPDATE OR TRUNCATE ON exchange_rates
  FOR EACH STATEMENT EXECUTE FUNCTION bump_reference_version();
CREATE TRIGGER bank_fees_reference_version AFTER INSERT OR DELETE OR UPDATE OR TRUNCATE ON bank_fees
  FOR EACH STATEMENT EXECUTE FUNCTION bump_reference_version();
CREATE TRIGGER processor_fee_schedules_reference_version AFTER INSERT OR DELETE OR UPDATE OR TRUNCATE ON processor_fee_schedules
  FOR EACH STATEMENT EXECUTE FUNCTION bump_reference_version();
