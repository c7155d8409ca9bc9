import { notFound } from '../../domain/errors.js';
import type { Queryable } from '../database/db.js';

/** Reads of the reference data loaded from the world file. Amounts stay exact strings. */

export interface UserRecord {
  id: string;
  role: 'customer' | 'admin';
  customerId: string | null;
}

const USER_COLUMNS = 'id, role, customer_id AS "customerId"';

export async function findUser(tx: Queryable, userId: string): Promise<UserRecord | null> {
  const rows = await tx.query<UserRecord>(`SELECT ${USER_COLUMNS} FROM users WHERE id = $1`, [userId]);
  return rows[0] ?? null;
}

/** A user as the console's development sign-in lists them: who they are and what they may do. */
export interface SignInUser extends UserRecord {
  name: string;
  email: string;
  permissions: string[];
  companyLegalName: string | null;
}

const SIGN_IN_USER = `SELECT u.id, u.role, u.customer_id AS "customerId", u.first_name || ' ' || u.last_name AS name, u.email, u.permissions,
            c.company_legal_name AS "companyLegalName"
       FROM users u LEFT JOIN customers c ON c.id = u.customer_id`;

/** Every user, admins first, then by company and name (the development sign-in's list). */
export async function listSignInUsers(tx: Queryable): Promise<SignInUser[]> {
  return tx.query<SignInUser>(`${SIGN_IN_USER} ORDER BY u.role, c.company_legal_name, u.last_name, u.first_name, u.id`);
}

/** One user as the console shows who is signed in. */
export async function findSignInUser(tx: Queryable, userId: string): Promise<SignInUser | null> {
  return (await tx.query<SignInUser>(`${SIGN_IN_USER} WHERE u.id = $1`, [userId]))[0] ?? null;
}

/** The users with this email address, compared case-insensitively (the column is not unique). */
export async function findUsersByEmail(tx: Queryable, email: string): Promise<UserRecord[]> {
  return tx.query<UserRecord>(`SELECT ${USER_COLUMNS} FROM users WHERE lower(email) = lower($1) ORDER BY id`, [email]);
}

export interface CurrencyRecord {
  code: string;
  decimals: number;
}

export async function findCurrency(tx: Queryable, code: string): Promise<CurrencyRecord | null> {
  const rows = await tx.query<CurrencyRecord>('SELECT code, decimals FROM currencies WHERE code = $1', [code]);
  return rows[0] ?? null;
}

/** The same, for a currency that must exist (one an account holds): a missing one is NOT_FOUND. */
export async function getCurrency(tx: Queryable, code: string): Promise<CurrencyRecord> {
  const currency = await findCurrency(tx, code);
  if (!currency) throw notFound(`Currency ${code} not found`);
  return currency;
}

/** An account currency as a payroll estimate reads it. */
export interface EstimateAccountCurrency {
  id: string;
  accountId: string;
  /** null for the platform's partner-bank accounts. */
  customerId: string | null;
  accountProvider: string;
  currencyCode: string;
  decimals: number;
}

export interface EstimateReferenceData {
  source: EstimateAccountCurrency | null;
  payroll: EstimateAccountCurrency | null;
  /** The customer's fee-profile spread; null without a profile. */
  spreadBips: number | null;
  /** The payroll currency's fixed bank fee per beneficiary (exact string); null when it has none. */
  bankFeePerBeneficiary: string | null;
  /** reference_version when this was read (read first: whatever follows is at least as new); null when no row. */
  referenceVersion: string | null;
}

/**
 * The reference data of a payroll estimate in one round trip instead of four: both account
 * currencies, the customer's spread and the bank fee of the
 * payroll account currency's currency.
 */
export async function findEstimateReferenceData(
  tx: Queryable,
  customerId: string,
  sourceAccountCurrencyId: string,
  payrollAccountCurrencyId: string,
): Promise<EstimateReferenceData> {
  const rows = await tx.query<EstimateAccountCurrency & { spreadBips: number | null; bankFeePerBeneficiary: string | null; referenceVersion: string }>(
    `SELECT (SELECT version::text FROM reference_version) AS "referenceVersion", ac.id, ac.account_id AS "accountId", a.customer_id AS "customerId",
            a.account_provider AS "accountProvider", ac.currency_code AS "currencyCode", c.decimals,
            (SELECT spread_bips FROM customers WHERE id = $1) AS "spreadBips",
            (SELECT per_beneficiary::text FROM bank_fees WHERE currency_code = ac.currency_code) AS "bankFeePerBeneficiary"
       FROM account_currencies ac
       JOIN accounts a ON a.id = ac.account_id
       JOIN currencies c ON c.code = ac.currency_code
      WHERE ac.id IN ($2, $3)`,
    [customerId, sourceAccountCurrencyId, payrollAccountCurrencyId],
  );
  const byId = new Map(
    rows.map(({ spreadBips: _spread, bankFeePerBeneficiary: _fee, referenceVersion: _version, ...accountCurrency }) => [accountCurrency.id, accountCurrency]),
  );
  const payrollRow = rows.find((row) => row.id === payrollAccountCurrencyId.toLowerCase());
  return {
    source: byId.get(sourceAccountCurrencyId.toLowerCase()) ?? null,
    payroll: byId.get(payrollAccountCurrencyId.toLowerCase()) ?? null,
    spreadBips: rows[0]?.spreadBips ?? null,
    bankFeePerBeneficiary: payrollRow?.bankFeePerBeneficiary ?? null,
    referenceVersion: rows[0]?.referenceVersion ?? null,
  };
}

export interface AccountRecord {
  id: string;
  customerId: string | null;
  accountProvider: string;
  currencyCodes: string[];
}

export async function findAccount(tx: Queryable, accountId: string): Promise<AccountRecord | null> {
  const rows = await tx.query<AccountRecord>(
    `SELECT a.id, a.customer_id AS "customerId", a.account_provider AS "accountProvider",
            COALESCE(array_agg(ac.currency_code ORDER BY ac.currency_code) FILTER (WHERE ac.id IS NOT NULL), '{}') AS "currencyCodes"
       FROM accounts a LEFT JOIN account_currencies ac ON ac.account_id = a.id
      WHERE a.id = $1
      GROUP BY a.id`,
    [accountId],
  );
  return rows[0] ?? null;
}

export interface BeneficiaryStatus {
  id: string;
  customerId: string;
  active: boolean;
}

/** The caller's beneficiaries among `ids`, in one query whatever the count. */
export async function findBeneficiaries(tx: Queryable, customerId: string, ids: readonly string[]): Promise<BeneficiaryStatus[]> {
  return tx.query<BeneficiaryStatus>('SELECT id, customer_id AS "customerId", active FROM beneficiaries WHERE customer_id = $1 AND id = ANY($2::uuid[])', [
    customerId,
    ids,
  ]);
}

/**
 * The caller's beneficiaries with one of `ids` or one of `references` (a payroll CSV file names them
 * so). Both lists go in, and the beneficiaries come back, as one JSON text each (an array of
 * [id, reference, active] per beneficiary): a file of 100,000 rows would otherwise be 100,000 array
 * elements escaped one by one and 100,000 result rows parsed one by one, several times the cost of
 * JSON's. A few names are looked up in the indexes, one probe each; past HASHED_LOOKUP_NAMES, the
 * customer's beneficiaries are read once against a hash of the names, cheaper than as many probes
 * (docs/decisions/0014-plain-csv-reader.md).
 */
export async function findBeneficiariesByIdOrReference(
  tx: Queryable,
  customerId: string,
  ids: readonly string[],
  references: readonly string[],
): Promise<{ id: string; reference: string | null; active: boolean }[]> {
  const named =
    ids.length + references.length > HASHED_LOOKUP_NAMES
      ? `b.id IN (SELECT json_array_elements_text($2::json)::uuid) OR b.reference IN (SELECT json_array_elements_text($3::json))`
      : `b.id = ANY(ARRAY(SELECT json_array_elements_text($2::json))::uuid[]) OR b.reference = ANY(ARRAY(SELECT json_array_elements_text($3::json)))`;
  const [row] = await tx.query<{ found: string | null }>(
    `SELECT json_agg(json_build_array(b.id, b.reference, b.active))::text AS found FROM beneficiaries b WHERE b.customer_id = $1 AND (${named})`,
    [customerId, JSON.stringify(ids), JSON.stringify(references)],
  );
  const found = JSON.parse(row?.found ?? '[]') as Array<[string, string | null, boolean]>;
  return found.map(([id, reference, active]) => ({ id, reference, active }));
}

/** Names (ids and references together) above which the lookup reads the customer's beneficiaries once rather than probing per name. */
const HASHED_LOOKUP_NAMES = 1000;

/** The reference of the customer's first active beneficiary that has one (oldest first), or null. */
export async function firstActiveBeneficiaryReference(tx: Queryable, customerId: string): Promise<string | null> {
  const [row] = await tx.query<{ reference: string }>(
    `SELECT reference FROM beneficiaries WHERE customer_id = $1 AND active AND reference IS NOT NULL ORDER BY created_at, id LIMIT 1`,
    [customerId],
  );
  return row?.reference ?? null;
}

/** A fee schedule as stored: exact decimal strings. */
export interface FeeScheduleText {
  percentBps: string;
  fixed: string;
  min: string;
  max: string;
}

const SCHEDULE_COLUMNS = 'percent_bps::text AS "percentBps", fixed::text AS "fixed", min::text AS "min", max::text AS "max"';

export async function findPayoutSchedule(
  tx: Queryable,
  accountProvider: string,
  currencyCode: string,
): Promise<(FeeScheduleText & { settlementDays: number }) | null> {
  const rows = await tx.query<FeeScheduleText & { settlementDays: number }>(
    `SELECT ${SCHEDULE_COLUMNS}, settlement_days AS "settlementDays"
       FROM payout_fee_schedules WHERE account_provider = $1 AND currency_code = $2`,
    [accountProvider, currencyCode],
  );
  return rows[0] ?? null;
}

/** The processor's debit-fee schedule for an account provider and currency; null: no fee. */
async function findProcessorFeeSchedule(tx: Queryable, accountProvider: string, currencyCode: string): Promise<FeeScheduleText | null> {
  const rows = await tx.query<FeeScheduleText>(`SELECT ${SCHEDULE_COLUMNS} FROM processor_fee_schedules WHERE account_provider = $1 AND currency_code = $2`, [
    accountProvider,
    currencyCode,
  ]);
  return rows[0] ?? null;
}

export interface InternalFeeRuleRow {
  percentBps: string;
  fixed: string;
  customerSpecific: boolean;
}

/** The customer's own rule for the currency when there is one, else the platform default. */
export async function findInternalPayoutRule(tx: Queryable, customerId: string, currencyCode: string): Promise<InternalFeeRuleRow | null> {
  const rows = await tx.query<InternalFeeRuleRow>(
    `SELECT percent_bps::text AS "percentBps", fixed::text AS "fixed", customer_id IS NOT NULL AS "customerSpecific"
       FROM internal_payout_fee_rules
      WHERE currency_code = $2 AND (customer_id = $1 OR customer_id IS NULL)
      ORDER BY customer_id NULLS LAST LIMIT 1`,
    [customerId, currencyCode],
  );
  return rows[0] ?? null;
}

/** The processor's schedules on this database (the simulated processor's ProcessorSchedules). */
export function processorSchedulesOf(db: Queryable) {
  return { processorFeeSchedule: (accountProvider: string, currencyCode: string) => findProcessorFeeSchedule(db, accountProvider, currencyCode) };
}
