import type { Queryable } from './db.js';

/** Reads of the reference data loaded from the world file. Amounts stay exact strings. */

export interface UserRow {
  id: string;
  role: 'customer' | 'admin';
  customer_id: string | null;
}

export async function findUser(tx: Queryable, userId: string): Promise<UserRow | null> {
  const rows = await tx.query<UserRow>('SELECT id, role, customer_id FROM users WHERE id = $1', [userId]);
  return rows[0] ?? null;
}

/** The users with this email address, compared case-insensitively (the column is not unique). */
export async function findUsersByEmail(tx: Queryable, email: string): Promise<UserRow[]> {
  return tx.query<UserRow>('SELECT id, role, customer_id FROM users WHERE lower(email) = lower($1) ORDER BY id', [email]);
}

export interface CurrencyRow {
  code: string;
  decimals: number;
}

export async function findCurrency(tx: Queryable, code: string): Promise<CurrencyRow | null> {
  const rows = await tx.query<CurrencyRow>('SELECT code, decimals FROM currencies WHERE code = $1', [code]);
  return rows[0] ?? null;
}

export interface AccountCurrencyRow {
  id: string;
  account_id: string;
  /** null for the platform's partner-bank accounts. */
  customer_id: string | null;
  account_provider: string;
  currency_code: string;
  decimals: number;
}

export interface EstimateReferenceData {
  source: AccountCurrencyRow | null;
  payroll: AccountCurrencyRow | null;
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
  const rows = await tx.query<AccountCurrencyRow & { spread_bips: number | null; bank_fee_per_beneficiary: string | null; reference_version: string }>(
    `SELECT (SELECT version::text FROM reference_version) AS reference_version, ac.id, ac.account_id, a.customer_id, a.account_provider, ac.currency_code, c.decimals,
            (SELECT spread_bips FROM customers WHERE id = $1) AS spread_bips,
            (SELECT per_beneficiary::text FROM bank_fees WHERE currency_code = ac.currency_code) AS bank_fee_per_beneficiary
       FROM account_currencies ac
       JOIN accounts a ON a.id = ac.account_id
       JOIN currencies c ON c.code = ac.currency_code
      WHERE ac.id IN ($2, $3)`,
    [customerId, sourceAccountCurrencyId, payrollAccountCurrencyId],
  );
  const byId = new Map(
    rows.map(({ spread_bips: _spread, bank_fee_per_beneficiary: _fee, reference_version: _version, ...accountCurrency }) => [
      accountCurrency.id,
      accountCurrency,
    ]),
  );
  const payrollRow = rows.find((row) => row.id === payrollAccountCurrencyId.toLowerCase());
  return {
    source: byId.get(sourceAccountCurrencyId.toLowerCase()) ?? null,
    payroll: byId.get(payrollAccountCurrencyId.toLowerCase()) ?? null,
    spreadBips: rows[0]?.spread_bips ?? null,
    bankFeePerBeneficiary: payrollRow?.bank_fee_per_beneficiary ?? null,
    referenceVersion: rows[0]?.reference_version ?? null,
  };
}

export interface AccountRow {
  id: string;
  customer_id: string | null;
  account_provider: string;
  currency_codes: string[];
}

export async function findAccount(tx: Queryable, accountId: string): Promise<AccountRow | null> {
  const rows = await tx.query<AccountRow>(
    `SELECT a.id, a.customer_id, a.account_provider,
            COALESCE(array_agg(ac.currency_code ORDER BY ac.currency_code) FILTER (WHERE ac.id IS NOT NULL), '{}') AS currency_codes
       FROM accounts a LEFT JOIN account_currencies ac ON ac.account_id = a.id
      WHERE a.id = $1
      GROUP BY a.id`,
    [accountId],
  );
  return rows[0] ?? null;
}

export interface BeneficiaryRow {
  id: string;
  customer_id: string;
  active: boolean;
}

/** The caller's beneficiaries among `ids`, in one query whatever the count. */
export async function findBeneficiaries(tx: Queryable, customerId: string, ids: readonly string[]): Promise<BeneficiaryRow[]> {
  return tx.query<BeneficiaryRow>('SELECT id, customer_id, active FROM beneficiaries WHERE customer_id = $1 AND id = ANY($2::uuid[])', [customerId, ids]);
}

/** The caller's beneficiaries with one of `ids` or one of `references` (a payroll CSV file names them so). */
export async function findBeneficiariesByIdOrReference(
  tx: Queryable,
  customerId: string,
  ids: readonly string[],
  references: readonly string[],
): Promise<{ id: string; reference: string | null; active: boolean }[]> {
  return tx.query('SELECT id, reference, active FROM beneficiaries WHERE customer_id = $1 AND (id = ANY($2::uuid[]) OR reference = ANY($3::text[]))', [
    customerId,
    ids,
    references,
  ]);
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
export async function findProcessorFeeSchedule(tx: Queryable, accountProvider: string, currencyCode: string): Promise<FeeScheduleText | null> {
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
