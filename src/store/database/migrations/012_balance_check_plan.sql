-- The ledger's balance check (migration 005) runs once per posting at commit, and PL/pgSQL keeps
-- its query's plan for the session. Planned while postings was small (a new database, a test
-- database cloned from its template), the kept plan scans the whole table: a transaction writing
-- 20,000 postings then took 25 s instead of a fraction of one. Planned on every call, the lookup
-- by journal entry takes the index whatever size the table had when the session began.
ALTER FUNCTION postings_balance_check() SET plan_cache_mode = force_custom_plan;
