-- The legal name of an account's holder as its bank knows it (world file: accounts[].legalName): the
-- debtor's name (Dbtr/Nm) of the payment files paying from the account. Optional: absent, the files
-- name the paying company's legal name (store/payouts/payoutBatchParties.ts).
ALTER TABLE accounts ADD COLUMN legal_name text;
