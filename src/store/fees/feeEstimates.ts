import type { components } from '../../../generated/api.js';
import type { LockedEstimateEntry } from '../../domain/fees/estimateView.js';
import type { Queryable } from '../database/db.js';
import { insertRow } from '../database/insertRow.js';

export interface PayrollFeeEstimateRecord {
  feeHash: string;
  customerId: string;
  createdByUserId: string;
  sourceAccountCurrencyId: string;
  payrollAccountCurrencyId: string;
  /** Normalised entries with their converted amounts, as exact strings. */
  entries: readonly LockedEstimateEntry[];
  feeBreakdown: unknown;
  sourceCurrencyAmount: string;
  feeAmount: string;
  totalAmount: string;
  estimatedReceivedAmount: string;
  createdAt: Date;
  expiresAt: Date;
}

const ESTIMATE_COLUMNS = `fee_hash, customer_id, created_by_user_id, source_account_currency_id, payroll_account_currency_id,
  entries, fee_breakdown, source_currency_amount, fee_amount, total_amount, estimated_received_amount, created_at, expires_at`;
// $6 is cast to json, the column's type (the entries kept as text): a jsonb cast would parse 2 MB of entries and print them back.
const ESTIMATE_VALUES = `$1::text, $2::uuid, $3::uuid, $4::uuid, $5::uuid, $6::json, $7::jsonb,
  $8::numeric, $9::numeric, $10::numeric, $11::numeric, $12::timestamptz, $13::timestamptz`;

function estimateParams(record: PayrollFeeEstimateRecord): unknown[] {
  return [
    record.feeHash,
    record.customerId,
    record.createdByUserId,
    record.sourceAccountCurrencyId,
    record.payrollAccountCurrencyId,
    JSON.stringify(record.entries),
    JSON.stringify(record.feeBreakdown),
    record.sourceCurrencyAmount,
    record.feeAmount,
    record.totalAmount,
    record.estimatedReceivedAmount,
    record.createdAt,
    record.expiresAt,
  ];
}

export async function insertPayrollFeeEstimate(tx: Queryable, record: PayrollFeeEstimateRecord): Promise<void> {
  await tx.query(`INSERT INTO payroll_fee_estimates (${ESTIMATE_COLUMNS}) VALUES (${ESTIMATE_VALUES})`, estimateParams(record));
}

/** What the checked insert found; the estimate was stored only when both hold. */
export interface CheckedInsert {
  /** Every beneficiary exists, is the customer's and is active. */
  beneficiariesOk: boolean;
  /** reference_version still is the version the figures were computed from. */
  referenceCurrent: boolean;
}

/**
 * The estimate's one round trip: checks the beneficiaries (distinct ids; null: checked by the caller) and that the reference
 * data the figures came from is still current, and stores the locked estimate only when both
 * hold. A single statement is atomic on its own, so it needs no BEGIN/COMMIT.
 */
export async function insertPayrollFeeEstimateIfCurrent(
  db: Queryable,
  record: PayrollFeeEstimateRecord,
  checks: { beneficiaryIds: readonly string[] | null; referenceVersion: string },
): Promise<CheckedInsert> {
  const rows = await db.query<CheckedInsert>(
    `WITH checks AS (
       SELECT $14::uuid[] IS NULL OR (SELECT count(*) FROM beneficiaries WHERE customer_id = $2::uuid AND active AND id = ANY($14::uuid[]))
                = cardinality($14::uuid[]) AS "beneficiariesOk",
              (SELECT version FROM reference_version) = $15::bigint AS "referenceCurrent"
     ), inserted AS (
       INSERT INTO payroll_fee_estimates (${ESTIMATE_COLUMNS})
       SELECT ${ESTIMATE_VALUES} FROM checks WHERE "beneficiariesOk" AND "referenceCurrent"
       RETURNING 1
     )
     SELECT "beneficiariesOk", "referenceCurrent" FROM checks`,
    [...estimateParams(record), checks.beneficiaryIds, checks.referenceVersion],
  );
  return rows[0]!;
}

export interface LockedPayrollFeeEstimate {
  feeHash: string;
  customerId: string;
  sourceAccountCurrencyId: string;
  payrollAccountCurrencyId: string;
  entries: LockedEstimateEntry[];
  feeBreakdown: components['schemas']['FeeBreakdown'];
  sourceCurrencyAmount: string;
  feeAmount: string;
  totalAmount: string;
  estimatedReceivedAmount: string;
  expiresAt: Date;
}

export type ConsumeResult =
  { ok: true; estimate: LockedPayrollFeeEstimate } | { ok: false; reason: 'NOT_FOUND' | 'ALREADY_USED' } | { ok: false; reason: 'EXPIRED'; expiresAt: Date };

/**
 * Consumes a feeHash once. The single conditional UPDATE is the lock: of two concurrent
 * consumers the second waits on the row and then finds consumed_at set, so it can never also
 * succeed. A failure is told apart afterwards; another customer's hash reads as unknown.
 * Call it inside the transaction that creates the request, so a rollback un-consumes it.
 */
export async function consumePayrollFeeEstimate(tx: Queryable, feeHash: string, customerId: string, requestId: string, now: Date): Promise<ConsumeResult> {
  const consumed = await tx.query<Omit<LockedPayrollFeeEstimate, 'entries'>>(
    `UPDATE payroll_fee_estimates SET consumed_at = $3, consumed_by_request_id = $4
      WHERE fee_hash = $1 AND customer_id = $2 AND consumed_at IS NULL AND expires_at > $3
      RETURNING fee_hash AS "feeHash", customer_id AS "customerId", source_account_currency_id AS "sourceAccountCurrencyId",
                payroll_account_currency_id AS "payrollAccountCurrencyId", fee_breakdown AS "feeBreakdown",
                source_currency_amount::text AS "sourceCurrencyAmount", fee_amount::text AS "feeAmount", total_amount::text AS "totalAmount",
                estimated_received_amount::text AS "estimatedReceivedAmount", expires_at AS "expiresAt"`,
    [feeHash, customerId, now, requestId],
  );
  if (consumed[0]) return { ok: true, estimate: { ...consumed[0], entries: await lockedEntries(tx, feeHash) } };
  const rows = await tx.query<{ consumedAt: Date | null; expiresAt: Date }>(
    'SELECT consumed_at AS "consumedAt", expires_at AS "expiresAt" FROM payroll_fee_estimates WHERE fee_hash = $1 AND customer_id = $2',
    [feeHash, customerId],
  );
  const row = rows[0];
  if (!row) return { ok: false, reason: 'NOT_FOUND' };
  if (row.consumedAt) return { ok: false, reason: 'ALREADY_USED' };
  return { ok: false, reason: 'EXPIRED', expiresAt: row.expiresAt };
}

/**
 * The locked entries, in order, a row each: the entries of a 100,000-line estimate as one JSON
 * value would arrive as one message of about 20 MB, which the driver reads into a buffer it grows
 * by doubling, and then a string as large to parse.
 */
async function lockedEntries(tx: Queryable, feeHash: string): Promise<LockedEstimateEntry[]> {
  return tx.query<LockedEstimateEntry>(
    `SELECT e."beneficiaryId", e.amount, e."amountCurrencyType", e."sourceCurrencyAmount", e."amountInPayrollCurrency"
       FROM payroll_fee_estimates f,
            ROWS FROM (json_to_recordset(f.entries) AS ("beneficiaryId" text, amount text, "amountCurrencyType" text, "sourceCurrencyAmount" text,
                       "amountInPayrollCurrency" text)) WITH ORDINALITY AS e("beneficiaryId", amount, "amountCurrencyType", "sourceCurrencyAmount",
                       "amountInPayrollCurrency", n)
      WHERE f.fee_hash = $1
      ORDER BY e.n`,
    [feeHash],
  );
}

export interface PayoutFeeEstimateRecord {
  id: string;
  customerId: string;
  accountId: string;
  beneficiaryId: string;
  currencyCode: string;
  amount: string;
  fee: string;
  internalFee: string;
  totalFee: string;
  totalAmount: string;
  ruleSet: boolean;
  isEstimateAvailable: boolean;
  estimatedDate: Date;
  createdAt: Date;
  expiresAt: Date;
}

export async function insertPayoutFeeEstimate(tx: Queryable, record: PayoutFeeEstimateRecord): Promise<void> {
  const { id, customerId, accountId, beneficiaryId, currencyCode, amount, fee, internalFee, totalFee, totalAmount } = record;
  await insertRow(tx, 'payout_fee_estimates', {
    ...{ id, customer_id: customerId, account_id: accountId, beneficiary_id: beneficiaryId, currency_code: currencyCode },
    ...{ amount, fee, internal_fee: internalFee, total_fee: totalFee, total_amount: totalAmount },
    ...{ rule_set: record.ruleSet, estimate_available: record.isEstimateAvailable, estimated_date: record.estimatedDate },
    ...{ created_at: record.createdAt, expires_at: record.expiresAt },
  });
}

/** A consumed payout estimate: the figures the payout is made of. */
type LockedPayoutFeeEstimate = Pick<
  PayoutFeeEstimateRecord,
  'id' | 'customerId' | 'accountId' | 'beneficiaryId' | 'currencyCode' | 'amount' | 'fee' | 'internalFee' | 'totalFee' | 'totalAmount'
> & { expiresAt: Date; ruleSet: boolean; isEstimateAvailable: boolean };

export type ConsumePayoutResult = { ok: true; estimate: LockedPayoutFeeEstimate } | { ok: false; reason: 'NOT_FOUND' | 'ALREADY_USED' | 'EXPIRED' };

/** Consumes a payout estimate once: the same single conditional UPDATE as the payroll feeHash. */
export async function consumePayoutFeeEstimate(tx: Queryable, estimateId: string, customerId: string, now: Date): Promise<ConsumePayoutResult> {
  const consumed = await tx.query<LockedPayoutFeeEstimate>(
    `UPDATE payout_fee_estimates SET consumed_at = $3
      WHERE id = $1 AND customer_id = $2 AND consumed_at IS NULL AND expires_at > $3
      RETURNING id, customer_id AS "customerId", account_id AS "accountId", beneficiary_id AS "beneficiaryId", currency_code AS "currencyCode",
                amount::text AS "amount", fee::text AS "fee", internal_fee::text AS "internalFee", total_fee::text AS "totalFee",
                total_amount::text AS "totalAmount", expires_at AS "expiresAt", rule_set AS "ruleSet", estimate_available AS "isEstimateAvailable"`,
    [estimateId, customerId, now],
  );
  if (consumed[0]) return { ok: true, estimate: consumed[0] };
  const rows = await tx.query<{ consumedAt: Date | null }>('SELECT consumed_at AS "consumedAt" FROM payout_fee_estimates WHERE id = $1 AND customer_id = $2', [
    estimateId,
    customerId,
  ]);
  if (!rows[0]) return { ok: false, reason: 'NOT_FOUND' };
  return { ok: false, reason: rows[0].consumedAt ? 'ALREADY_USED' : 'EXPIRED' };
}
