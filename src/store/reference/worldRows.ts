/**
 * The world loader's repository: bulk inserts of the rows src/world computes from a world
 * file, and the question whether a world is loaded already. The column lists below are the
 * only place the loader names SQL columns; the row types are derived from them.
 */
import { BENEFICIARY_SNAPSHOT_SQL } from '../beneficiaries/beneficiarySnapshot.js';
import type { Queryable } from '../database/db.js';

const FEE_SCHEDULE = ['account_provider text', 'currency_code text', 'percent_bps numeric', 'fixed numeric', 'min numeric', 'max numeric'] as const;

/** The columns written per table, in insert order: parents before the rows that refer to them. */
const WORLD_TABLES = {
  currencies: ['id uuid', 'code text', 'name text', 'symbol text', 'decimals integer'],
  customers: [
    'id uuid',
    'first_name text',
    'last_name text',
    'company_legal_name text',
    'spread_bips integer',
    'requires_payroll_approval boolean',
    ...['wps_establishment_id text', 'wps_agent_routing_code text'],
  ],
  users: ['id uuid', 'first_name text', 'last_name text', 'email text', 'role text', 'customer_id uuid', 'permissions text[]'],
  accounts: ['id uuid', 'account_provider text', 'customer_id uuid', 'iban text', 'bic text', 'legal_name text'],
  account_currencies: ['id uuid', 'account_id uuid', 'currency_code text', 'balance numeric', 'available numeric'],
  beneficiaries: [
    ...['id uuid', 'customer_id uuid', 'first_name text', 'last_name text', 'display_name text', 'type text'],
    ...['nationality text', 'bank_name text', 'iban text', 'account_number text', 'reference text', 'active boolean'],
    ...['company_name text', 'bank_code text', 'swift_bic text', 'email text', 'labour_card_person_id text', 'wps_routing_code text'],
  ],
  exchange_rates: ['from_code text', 'to_code text', 'rate numeric'],
  currency_pegs: ['currency_code text', 'anchor_code text', 'rate numeric'],
  bank_fees: ['currency_code text', 'per_beneficiary numeric'],
  bank_calendars: [
    'currency_code text',
    'country text',
    'country_declared boolean',
    'time_zone text',
    'weekend text[]',
    'cut_off text',
    'added_holidays text[]',
    'removed_holidays text[]',
  ],
  processor_fee_schedules: FEE_SCHEDULE,
  payout_fee_schedules: [...FEE_SCHEDULE, 'settlement_days integer'],
  internal_payout_fee_rules: ['customer_id uuid', 'currency_code text', 'percent_bps numeric', 'fixed numeric'],
  payroll_requests: [
    ...['id uuid', 'customer_id uuid', 'source_account_currency_id uuid', 'payroll_account_currency_id uuid'],
    ...['total_amount numeric', 'status text', 'estimated_fx_rate numeric', 'estimated_received_amount numeric'],
    ...['source_amount_for_exchange numeric', 'quote_rate numeric', 'quote_expires_at timestamptz', 'quoted_by_user_id uuid'],
    ...['quoted_at timestamptz', 'accepted_by_customer_at timestamptz', 'cancellation_reason text', 'failure_reason text'],
    ...['metadata jsonb', 'created_at timestamptz', 'updated_at timestamptz', 'debited_amount numeric'],
    ...['quote_source_amount_for_exchange numeric', 'quote_total_amount numeric', 'quote_received_amount numeric', 'quote_adjustment_amount numeric'],
  ],
  transfers: [
    ...['id uuid', 'payroll_request_id uuid', 'transfer_type text', 'status text', 'external_id text', 'amount numeric'],
    ...['currency_code text', 'fee_id uuid', 'fee_amount numeric', 'final_internal_fee numeric', 'amount_split_id uuid'],
    ...['executed_at timestamptz', 'completed_at timestamptz', 'failure_reason text', 'created_at timestamptz', 'position integer'],
  ],
  // beneficiary_snapshot is added by the insert, from the beneficiaries just written (one snapshot rule: BENEFICIARY_SNAPSHOT_SQL).
  amount_splits: [
    ...['id uuid', 'payroll_request_id uuid', 'beneficiary_id uuid', 'source_currency_amount numeric', 'amount numeric'],
    ...['purpose_code text', 'created_at timestamptz', 'position integer', 'amount_currency_type text'],
    ...['quoted_source_currency_amount numeric', 'quoted_amount numeric', 'returned_source_currency_amount numeric'],
  ],
  fx_exchanges: [
    ...['id uuid', 'payroll_request_id uuid', 'from_currency_code text', 'to_currency_code text', 'from_amount numeric'],
    ...['to_amount numeric', 'exchange_rate numeric', 'fee_id uuid', 'fee_amount numeric', 'final_internal_fee numeric'],
    ...['recorded_by_user_id uuid', 'recorded_at timestamptz', 'created_at timestamptz', 'payout_amount numeric', 'fx_result_amount numeric'],
  ],
} as const;

type WorldTable = keyof typeof WORLD_TABLES;

/** Decimals, ids and timestamps travel as strings (exact); jsonb as any JSON value; text[] as a JSON array of strings. */
type ValueOf<SqlType extends string> = SqlType extends 'integer'
  ? number
  : SqlType extends 'boolean'
    ? boolean
    : SqlType extends 'jsonb'
      ? unknown
      : SqlType extends 'text[]'
        ? string[]
        : string;

/** `['id uuid', 'decimals integer']` → `{ id: string | null; decimals: number | null }`. */
type RowOf<Columns extends readonly string[]> = {
  [Column in Columns[number] as Column extends `${infer Name} ${string}` ? Name : never]: Column extends `${string} ${infer SqlType}`
    ? ValueOf<SqlType> | null
    : never;
};

/** Every row of a world, per table. */
export type WorldTableRows = { [Table in WorldTable]: RowOf<(typeof WORLD_TABLES)[Table]>[] };

/** Rows per INSERT: keeps each statement's JSON parameter to a few megabytes. */
const BATCH_SIZE = 2000;

/**
 * INSERT ... SELECT FROM jsonb_to_recordset($1): one statement and one parameter per batch,
 * the same on every PostgreSQL, and no limit on the number of bind parameters.
 * WITH ORDINALITY keeps the file's order.
 */
function insertSql(table: WorldTable): string {
  const columns = WORLD_TABLES[table];
  const names = columns.map((column) => column.split(' ')[0]);
  const from = `ROWS FROM (jsonb_to_recordset($1::jsonb) AS (${columns.join(', ')})) WITH ORDINALITY AS r(${names.join(', ')}, ord)`;
  const selected = names.map((name) => `r.${name}`).join(', ');
  if (table === 'amount_splits') {
    // LEFT JOIN: a split whose beneficiary is missing fails on the foreign key instead of vanishing.
    return (
      `INSERT INTO ${table} (${names.join(', ')}, beneficiary_snapshot) SELECT ${selected}, ${BENEFICIARY_SNAPSHOT_SQL} ` +
      `FROM ${from} LEFT JOIN beneficiaries b ON b.id = r.beneficiary_id ORDER BY r.ord`
    );
  }
  return `INSERT INTO ${table} (${names.join(', ')}) SELECT ${selected} FROM ${from} ORDER BY r.ord`;
}

/** Writes every row, table by table in WORLD_TABLES order, inside the caller's transaction. */
export async function insertWorldRows(tx: Queryable, rows: WorldTableRows): Promise<void> {
  for (const table of Object.keys(WORLD_TABLES) as WorldTable[]) {
    const tableRows = rows[table];
    const sql = insertSql(table);
    for (let start = 0; start < tableRows.length; start += BATCH_SIZE) {
      await tx.query(sql, [JSON.stringify(tableRows.slice(start, start + BATCH_SIZE))]);
    }
  }
  await batchOpenPayouts(tx);
  // A request's split count is kept on it, so that lists never count its splits.
  await tx.query(
    'UPDATE payroll_requests r SET split_count = (SELECT count(*) FROM amount_splits s WHERE s.payroll_request_id = r.id) WHERE r.split_count IS NULL',
  );
}

/**
 * The worker moves payouts a batch at a time: the open payouts a world gives (in no batch) get one
 * batch per request as they are loaded, CREATED, so the worker submits them as any other.
 */
async function batchOpenPayouts(tx: Queryable): Promise<void> {
  const open = `t.transfer_type = 'BANK_TO_BENEFICIARY' AND t.status IN ('PENDING', 'INITIATED', 'PROCESSING')`;
  const made = await tx.query<{ id: string }>(
    `INSERT INTO payout_batches (id, payroll_request_id, currency_code, status, item_count, created_at)
     SELECT gen_random_uuid(), t.payroll_request_id, min(t.currency_code), 'CREATED', count(*), now()
       FROM transfers t WHERE t.batch_id IS NULL AND ${open}
      GROUP BY t.payroll_request_id
     RETURNING id`,
  );
  if (made.length === 0) return;
  await tx.query(
    `UPDATE transfers t SET batch_id = b.id FROM payout_batches b
      WHERE b.id = ANY($1::uuid[]) AND t.payroll_request_id = b.payroll_request_id AND t.batch_id IS NULL AND ${open}`,
    [made.map((row) => row.id)],
  );
}

/** True when no customer exists yet (no world has been loaded). */
export async function hasNoCustomer(db: Queryable): Promise<boolean> {
  const rows = await db.query<{ empty: boolean }>('SELECT NOT EXISTS (SELECT 1 FROM customers) AS empty');
  return rows[0]?.empty === true;
}
