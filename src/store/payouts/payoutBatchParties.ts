/**
 * The parties of a payout batch (domain/payouts/payoutBatch.ts) as SQL, written once for the payroll's
 * batch (store/payouts/payoutBatches.ts) and a single payout's batch of one (store/bank/bankFiles.ts).
 */

/** The creditor (domain/payouts/payoutBatch.ts's Creditor) from a beneficiary snapshot column: its display name, or its first and last names where it has none. */
export const creditorJson = (snapshot: string): string =>
  `json_build_object(${[
    `'name', COALESCE(${snapshot}->>'displayName', concat_ws(' ', ${snapshot}->>'firstName', ${snapshot}->>'lastName'))`,
    `'iban', ${snapshot}->>'iban'`,
    `'accountNumber', ${snapshot}->>'accountNumber'`,
    `'bankName', ${snapshot}->>'bankName'`,
    `'bic', ${snapshot}->>'swiftBic'`,
  ].join(', ')})`;

/**
 * The debtor (Debtor): account currency `accountCurrencyId` of the account `account` (an alias of
 * accounts), named by the holder's legal name as the bank knows it (the world's accounts[].legalName)
 * or else by the legal name of the company that pays: the account's owner, or for a platform
 * partner-bank account (no owner) the customer whose payroll or payout it is (`customerId`, an SQL
 * expression). A bank reads `Dbtr/Nm` as a legal name; the provider label is only the last resort.
 */
export const debtorJson = (accountCurrencyId: string, account: string, customerId: string): string =>
  `json_build_object('accountCurrencyId', ${accountCurrencyId}, 'accountProvider', ${account}.account_provider,
     'name', COALESCE(${account}.legal_name,
                      (SELECT payer.company_legal_name FROM customers payer WHERE payer.id = COALESCE(${account}.customer_id, ${customerId})),
                      ${account}.account_provider),
     'iban', ${account}.iban, 'bic', ${account}.bic)`;
