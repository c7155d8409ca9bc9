/**
 * The JSON Schema of a world file, written in TypeScript so that the World types are derived
 * from it (src/world/types.ts). src/world/world.schema.json is the same schema as JSON, for
 * editors (worlds/*.json name it in `$schema`); test/contract/world.test.ts fails when the two differ.
 */
import { payrollRequestDefs } from './payrollRequests.js';
import { referenceDataDefs } from './referenceData.js';
import { ref } from './build.js';
import { scalarDefs } from './scalars.js';

const DESCRIPTION = [
  'A world file: the reference data the service runs on, loaded into an empty database by `npm run seed -- <file>` (or automatically by `npm start` from worlds/demo.json when the database holds no customer). The whole file is validated first (this schema, then references between entries) and then inserted in one transaction: either all of it loads or none of it does. Every object rejects unknown keys. Amounts, rates and fees are decimal strings (`123.45`, never a JSON number, never a sign or an exponent); ids are lowercase UUIDs; currency codes are 3 to 5 capital letters; timestamps are RFC 3339 date-times.',
  '',
  'Keys:',
  '- `currencies`: the currencies the service knows, with their minor units (`decimals`, e.g. USD 2, USDC 8, JPY 0). `id` is optional (a random UUID is generated when absent) but fixed ids keep a world reproducible.',
  "- `customers`: business customers. `spreadBips` is the FX spread of the customer's fee profile in basis points; absent means no fee profile, which means a spread of 0. `requiresPayrollApproval` true makes the customer's payroll requests wait in AWAITING_APPROVAL for four-eyes approval (default false; an admin changes it with updateCustomerSettings). `wpsEstablishmentId` and `wpsAgentRoutingCode` (optional) register the customer with the UAE Wage Protection System: its payrolls in AED then need each split's `wps` details and each beneficiary's `labourCardPersonId` and `wpsRoutingCode`, and the bank rail writes a Salary Information File beside the payment file (docs/wps.md).",
  "- `users`: people who call the API. role `customer` requires `customerId` (the customer the user acts for); role `admin` (operations staff who quote FX rates) has no `customerId`. `permissions` (customer users only): `approver` approves and rejects the customer's payroll requests.",
  "- `accounts`: accounts at a provider (`accountProvider`, e.g. FIREBLOCKS, CIRCLE, PAYROLL_PARTNER_BANK), each holding one or more account currencies with an opening `balance`; `available` starts equal to the balance. `customerId` null marks one of the platform's partner-bank accounts, which every customer may use as the payroll account of a distribution. `iban` and `bic` (optional) identify the account at its bank: the debtor of the ISO 20022 payment files when `BANK_RAIL=iso20022` pays from it (docs/bank-files.md). `legalName` (optional) is the holder's legal name as the bank knows it, the debtor's name in those files; absent, it is the owner's `companyLegalName` (for a partner-bank account, that of the customer paying).",
  '- `beneficiaries`: the people or businesses a customer pays. `active` defaults to true; inactive beneficiaries cannot be paid. `iban`, `accountNumber`, `reference`, `companyName`, `bankCode`, `swiftBic` and `email` are optional; `reference`, `iban` and (`accountNumber`, `bankCode`, `swiftBic`) are unique per customer.',
  '- `rates`: exchange rates; `rate` is the number of `to` units one `from` unit buys (USD to AED 3.6725). A pair that is not listed has no rate (EXCHANGE_RATE_UNAVAILABLE).',
  "- `pegs` (optional, default none): currencies pegged to another (1 USD = 3.6725 AED: anchor USD, currency AED, rate 3.6725). With a rate feed (`RATE_SOURCE=feed`), a pegged currency the feed does not publish is the anchor's fed rate times the peg (a pair through it is as old as that rate); `RATE_PEGS` declares more and wins for the same currency. The world's own `rates` are unaffected.",
  '- `fees.bankFeePerBeneficiary`: the fixed bank fee per beneficiary, in the payroll currency, keyed by currency code.',
  "- `fees.processor`: the payment processor's debit fee per (accountProvider, source currency): clamp(amount x percentBps/10000 + fixed, min, max).",
  "- `fees.payout`: the payout provider's fee per (accountProvider, payout currency), same formula, plus the settlement time in business days. A pair without a schedule has no payout estimate (isEstimateAvailable false).",
  "- `fees.internalPayout`: the platform's own payout fee, amount x percentBps/10000 + fixed, per currency; `customerId` absent or null is the platform default, a customer's own rule replaces the default for that customer (ruleSet true).",
  '- `payrollRequests` (optional): payroll requests that already exist, in any status but AWAITING_APPROVAL (an approval flow starts from the API), with their amount splits, transfers and FX exchange record, for demonstrations and read tests. Beneficiary snapshots are taken from the beneficiaries of this file at load time. An amount split and its BANK_TO_BENEFICIARY transfer are linked by `amountSplitDetails[].payoutTransferId` and/or `transfers[].amountSplitId` (either is enough; when both are given they must agree).',
  '',
  "Balances and the ledger: every account currency's `balance` is the balance BEFORE the payroll requests of the file. Loading writes one journal entry per account currency (OPENING_BALANCE: from the outside world to the account), then the journal entries each payroll request's history implies, by the settlement rules of the API (creation debit, cancellation, acceptance of the quote with its adjustment, the processor and bank legs, the FX record and each settled payout; a failed payout credits its split's quoted source amount back). Every account currency's balance and available equal the sums of its postings. A request's `totalAmount` and `sourceAmountForExchange` are its creation figures (what was debited); once its quote is accepted (`acceptedByCustomerAt`) the loader stores the quote's figures, computed from `quoteRate`, and every settled payout must pay exactly its split's quoted amount. Every figure keeps to its currency's minor units (min(8, decimals) for the source currency, min(2, decimals) for the payroll currency). A world whose requests would debit an account currency below zero is rejected.",
  '',
  '`description` is free text (a string or an array of lines) for people reading the file; the loader ignores it, as it ignores `$schema`.',
].join('\n');

export const worldSchema = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  $id: 'https://payroll-fee-service.example/schemas/world.schema.json',
  title: 'World',
  description: DESCRIPTION,
  type: 'object',
  additionalProperties: false,
  required: ['currencies', 'customers', 'users', 'accounts', 'beneficiaries', 'rates', 'fees'],
  properties: {
    $schema: { type: 'string' },
    description: {
      description: 'Free text for readers of the file (ignored by the loader).',
      anyOf: [{ type: 'string' }, { type: 'array', items: { type: 'string' } }],
    },
    currencies: { type: 'array', minItems: 1, items: ref('currency') },
    customers: { type: 'array', items: ref('customer') },
    users: { type: 'array', items: ref('user') },
    accounts: { type: 'array', items: ref('account') },
    beneficiaries: { type: 'array', items: ref('beneficiary') },
    rates: { type: 'array', items: ref('rate') },
    pegs: { type: 'array', items: ref('peg') },
    calendars: { type: 'array', items: ref('calendar') },
    fees: ref('fees'),
    payrollRequests: { type: 'array', items: ref('payrollRequest') },
  },
  $defs: { ...scalarDefs, ...referenceDataDefs, ...payrollRequestDefs },
} as const;
