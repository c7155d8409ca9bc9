import type { components } from '../../generated/api.js';
import type { Queryable } from './db.js';
import { iso, json, jsonArray, jsonObject, type JsonFields, orNull, quoted, text } from './jsonSql.js';
import { type ItemGroupRow, itemGroupsSql, itemSections } from './itemGroups.js';
import { itemsPageSql, splitJsonBytes } from './wireFormat.js';

type Schemas = components['schemas'];

/**
 * One payroll request as the API's JSON, built by PostgreSQL in one statement (the largest
 * read the API serves, a request of 1,000 splits) by string concatenation (store/jsonSql.ts), as
 * texts the caller joins: the request without its splits and transfers, then its items in groups
 * (store/itemGroups.ts). The route sends the texts as they are. Each object's fields are a table
 * keyed by the spec's names (`satisfies JsonFields<…>`), so `tsc` fails when the spec and the
 * table disagree on a field. It must say exactly what the TypeScript oracle of the tests
 * (test/support/oracles/payrollRequest.ts) says, for every request of the test and demo worlds:
 * - amounts are `numeric::text`, as the view's reads cast them: the stored scale, as is;
 * - timestamps are written as Date#toISOString writes them: UTC, milliseconds truncated;
 * - a transfer's optional fields are absent, not null, until they apply;
 * - each split's and transfer's JSON is kept on its row, written by PostgreSQL on every insert and
 *   update (its trigger functions are generated from store/wireFormat.ts): the read only joins them,
 *   a split's with its payout's id (splitJson: the FX record links a payout to its split, not back);
 * - returnedAmount (a sum at the source scale: a money rule) is not here: the caller adds it, in
 *   TypeScript, from `returnedAmounts`.
 */
const user = (alias: string): string =>
  jsonObject({
    id: quoted(`${alias}.id`),
    firstName: text(`${alias}.first_name`),
    lastName: text(`${alias}.last_name`),
    email: text(`${alias}.email`),
  } satisfies JsonFields<Schemas['UserSummary']>);

const SOURCE_ACCOUNT_CURRENCY = jsonObject({
  id: quoted('ac.id'),
  accountId: quoted('ac.account_id'),
  currency: json(
    jsonObject({
      id: quoted('c.id'),
      currencyCode: text('c.code'),
      currencyName: text('c.name'),
      currencySymbol: text('c.symbol'),
      decimals: json('c.decimals'),
    } satisfies JsonFields<Schemas['Currency']>),
  ),
  balance: quoted('ac.balance'),
  available: quoted('ac.available'),
  account: json(
    jsonObject({
      id: quoted('ac.account_id'),
      accountProvider: text('a.account_provider'),
      customerId: orNull(quoted('a.customer_id')),
    } satisfies JsonFields<Schemas['SourceAccount']>),
  ),
} satisfies JsonFields<Schemas['SourceAccountCurrency']>);

const PAYROLL_ACCOUNT_CURRENCY = jsonObject({
  id: quoted('ac.id'),
  currency: json(
    jsonObject({ currencyCode: text('c.code'), currencyName: text('c.name'), decimals: json('c.decimals') } satisfies JsonFields<Schemas['PayrollCurrency']>),
  ),
  account: json(jsonObject({ accountProvider: text('a.account_provider') } satisfies JsonFields<Schemas['PayrollAccount']>)),
} satisfies JsonFields<Schemas['PayrollAccountCurrency']>);

const QUOTE = `CASE WHEN r.quote_rate IS NULL OR r.quote_source_amount_for_exchange IS NULL OR r.quote_total_amount IS NULL
         OR r.quote_received_amount IS NULL OR r.quote_adjustment_amount IS NULL THEN NULL
    ELSE ${jsonObject({
      exchangeRate: quoted('r.quote_rate'),
      sourceAmountForExchange: quoted('r.quote_source_amount_for_exchange'),
      feeAmount: orNull(json(`r.metadata->'feeBreakdown'->'totalFee'`)),
      totalAmount: quoted('r.quote_total_amount'),
      receivedAmount: quoted('r.quote_received_amount'),
      debitedAmount: quoted('COALESCE(r.debited_amount, r.total_amount)'),
      adjustmentAmount: quoted('r.quote_adjustment_amount'),
    } satisfies JsonFields<Schemas['PayrollQuoteFigures']>)} END`;

/** Whether the request has more splits than $3: the caller streams those, so neither their items nor returnedAmounts are read here. */
const ITEMS_OMITTED = `COALESCE(r.split_count, (SELECT count(*)::int FROM amount_splits c WHERE c.payroll_request_id = r.id)) > $3`;

/** Request `id`'s splits' returned source amounts (exact strings), those that have one: the caller sums them, a money rule in TypeScript. */
const returnedAmountsOf = (id: string): string => `COALESCE((SELECT array_agg(sp.returned_source_currency_amount::text) FROM amount_splits sp
    WHERE sp.payroll_request_id = ${id} AND sp.returned_source_currency_amount IS NOT NULL), '{}')`;

const FX_EXCHANGE = `(SELECT ${jsonObject({
  id: quoted('f.id'),
  payrollRequestId: quoted('f.payroll_request_id'),
  fromCurrencyCode: text('f.from_currency_code'),
  toCurrencyCode: text('f.to_currency_code'),
  fromAmount: quoted('f.from_amount'),
  toAmount: quoted('f.to_amount'),
  exchangeRate: quoted('f.exchange_rate'),
  payoutAmount: orNull(quoted('f.payout_amount')),
  fxResultAmount: orNull(quoted('f.fx_result_amount')),
  feeDetails: json(
    jsonObject({
      id: quoted('f.fee_id'),
      amount: quoted('f.fee_amount'),
      finalInternalFee: quoted('f.final_internal_fee'),
    } satisfies JsonFields<Schemas['FeeDetails']>),
  ),
  recordedByUserId: quoted('u.id'),
  recordedByUser: json(user('u')),
  recordedAt: quoted(iso('f.recorded_at')),
  createdAt: quoted(iso('f.created_at')),
} satisfies JsonFields<Schemas['FxExchange']>)} FROM fx_exchanges f JOIN users u ON u.id = f.recorded_by_user_id WHERE f.payroll_request_id = r.id LIMIT 1)`;

/** Four-eyes approval; the approvers as store/payrollApproval.ts findApprovers lists them. */
const APPROVAL = jsonObject({
  required: json('r.approval_required'),
  approvers: json(
    `CASE WHEN r.approval_required THEN ${jsonArray(
      user('au'),
      `FROM users au WHERE au.customer_id = r.customer_id AND 'approver' = ANY(au.permissions) AND au.id IS DISTINCT FROM r.created_by_user_id`,
      'au.last_name, au.first_name, au.id',
    )} ELSE '[]' END`,
  ),
  createdByUserId: orNull(quoted('CASE WHEN r.approval_required THEN r.created_by_user_id END')),
  approvedByUserId: orNull(quoted('r.approved_by_user_id')),
  approvedAt: orNull(quoted(iso('r.approved_at'))),
  rejectedByUserId: orNull(quoted('r.rejected_by_user_id')),
  rejectedAt: orNull(quoted(iso('r.rejected_at'))),
  rejectionReason: orNull(text('r.rejection_reason')),
} satisfies JsonFields<Schemas['PayrollApproval']>);

/** The request's own fields: the caller adds returnedAmount, and the splits and transfers are joined from their rows. */
const REQUEST = jsonObject({
  id: quoted('r.id'),
  sourceAccountCurrencyId: quoted('r.source_account_currency_id'),
  sourceAccountCurrency: json('s.json'),
  payrollAccountCurrencyId: quoted('r.payroll_account_currency_id'),
  payrollAccountCurrency: json('p.json'),
  totalAmount: quoted('r.total_amount'),
  status: text('r.status'),
  estimatedFxRate: quoted('r.estimated_fx_rate'),
  estimatedReceivedAmount: quoted('r.estimated_received_amount'),
  sourceAmountForExchange: quoted('r.source_amount_for_exchange'),
  quotedFxRate: orNull(quoted('r.quote_rate')),
  quoteExpiresAt: orNull(quoted(iso('r.quote_expires_at'))),
  quotedByUserId: orNull(quoted('q.id')),
  quotedByUser: orNull(json(`CASE WHEN q.id IS NOT NULL THEN ${user('q')} END`)),
  quotedAt: orNull(quoted(iso('r.quoted_at'))),
  quote: orNull(json(QUOTE)),
  acceptedByCustomerAt: orNull(quoted(iso('r.accepted_by_customer_at'))),
  cancellationReason: orNull(text('r.cancellation_reason')),
  failureReason: orNull(text('r.failure_reason')),
  approval: json(APPROVAL),
  metadata: json('r.metadata'),
  fxExchange: orNull(json(FX_EXCHANGE)),
  customer: json(
    jsonObject({
      id: quoted('r.customer_id'),
      firstName: text('cu.first_name'),
      lastName: text('cu.last_name'),
      company: json(jsonObject({ legalName: text('cu.company_legal_name') } satisfies JsonFields<Schemas['Company']>)),
    } satisfies JsonFields<Schemas['Customer']>),
  ),
  createdAt: quoted(iso('r.created_at')),
  updatedAt: quoted(iso('r.updated_at')),
} satisfies JsonFields<Omit<Schemas['PayrollRequest'], 'returnedAmount' | 'amountSplitDetails' | 'transfers'>>);

/** Each account currency behind OFFSET 0, as in findPayrollRequestRow: it keeps the planner's join search small. */
const ACCOUNT_CURRENCY_OF = (column: string, json: string): string => `CROSS JOIN LATERAL (
    SELECT ${json} AS json, c.decimals FROM account_currencies ac JOIN accounts a ON a.id = ac.account_id JOIN currencies c ON c.code = ac.currency_code
     WHERE ac.id = ${column} OFFSET 0)`;

export interface PayrollRequestJson {
  /** The request as a JSON object, without returnedAmount, amountSplitDetails and transfers. */
  head: string;
  /** The splits' JSON objects as parts (store/itemGroups.ts): joined, comma-separated ([] when there are none). */
  splitsParts: string[];
  /** The transfers' JSON objects as parts, the same way. */
  transfersParts: string[];
  /** The splits' returned source amounts (exact strings), those that have one. */
  returnedAmounts: string[];
  sourceDecimals: number;
  /** True when the request has more splits than asked for: its items are left out ([]) and read a page at a time. */
  itemsOmitted: boolean;
}

/** The request with everything its head reads (not its splits), for one id and (with $2) one customer. */
const REQUEST_HEAD_FROM = `FROM payroll_requests r
       JOIN customers cu ON cu.id = r.customer_id
       ${ACCOUNT_CURRENCY_OF('r.source_account_currency_id', SOURCE_ACCOUNT_CURRENCY)} s
       ${ACCOUNT_CURRENCY_OF('r.payroll_account_currency_id', PAYROLL_ACCOUNT_CURRENCY)} p
       LEFT JOIN users q ON q.id = r.quoted_by_user_id`;
const REQUEST_WHERE = 'WHERE r.id = $1 AND ($2::uuid IS NULL OR r.customer_id = $2::uuid)';

/** The request's head as row 0, then its items' groups unless omitted (findPayrollRequestJson). */
const REQUEST_WITH_ITEM_GROUPS = `WITH req AS MATERIALIZED (
       SELECT r.id, ${REQUEST} AS head, s.decimals, ${ITEMS_OMITTED} AS omitted ${REQUEST_HEAD_FROM} ${REQUEST_WHERE}
     )
     SELECT 0 AS section, 0 AS seq, req.head AS json, req.decimals AS "sourceDecimals", req.omitted AS "itemsOmitted",
            CASE WHEN req.omitted THEN '{}' ELSE ${returnedAmountsOf('req.id')} END AS "returnedAmounts"
       FROM req
     UNION ALL
     SELECT g.section, g.seq, g.json, NULL, NULL, NULL FROM req CROSS JOIN LATERAL (${itemGroupsSql('req.id')}) g WHERE NOT req.omitted`;

/**
 * The request, or null when there is none with this id (or, with `customerId`, none of that
 * customer's). Above `itemsLimit` splits, without its items (`itemsOmitted`).
 */
export async function findPayrollRequestJson(
  tx: Queryable,
  requestId: string,
  customerId: string | null,
  itemsLimit = 2_147_483_647,
): Promise<PayrollRequestJson | null> {
  const rows = await tx.query<HeadRow & ItemGroupRow>(REQUEST_WITH_ITEM_GROUPS, [requestId, customerId, itemsLimit]);
  const head = rows.find((row) => row.section === 0);
  if (!head) return null;
  const items = itemSections(rows);
  return {
    head: head.json,
    splitsParts: items.splits,
    transfersParts: items.transfers,
    returnedAmounts: head.returnedAmounts,
    sourceDecimals: head.sourceDecimals,
    itemsOmitted: head.itemsOmitted,
  };
}

/** The head row of findPayrollRequestJson (section 0), its JSON the request's head; null in the items' rows. */
type HeadRow = Pick<PayrollRequestJson, 'returnedAmounts' | 'sourceDecimals' | 'itemsOmitted'>;

/** The request's head (the JSON object without its items) and what returnedAmount is computed from (the caller's money rule). */
export type PayrollRequestHead = Pick<PayrollRequestJson, 'head' | 'returnedAmounts' | 'sourceDecimals'>;

/** The head of a request that exists (the caller holds it), for the writers of its JSON beside the read (store/payrollRequestJsonWrites.ts). */
export async function getPayrollRequestHead(tx: Queryable, requestId: string): Promise<PayrollRequestHead> {
  const row = await findPayrollRequestHead(tx, requestId, null);
  if (!row) throw new Error(`Payroll request ${requestId} not found`);
  return row;
}

/** The head of the request, or null as for findPayrollRequestJson. */
export async function findPayrollRequestHead(tx: Queryable, requestId: string, customerId: string | null): Promise<PayrollRequestHead | null> {
  const [row] = await tx.query<PayrollRequestHead>(
    `SELECT ${REQUEST} AS head, s.decimals AS "sourceDecimals",
            ${returnedAmountsOf('r.id')} AS "returnedAmounts"
       ${REQUEST_HEAD_FROM}
      ${REQUEST_WHERE}`,
    [requestId, customerId],
  );
  return row ?? null;
}

/**
 * The bytes (UTF-8) of the request's splits' and transfers' JSON as its answer joins them, commas
 * between included: octet_length reads the stored sizes, the texts are not read (a split's payout link counted apart).
 */
export async function payrollItemsBytes(tx: Queryable, requestId: string): Promise<number> {
  const [row] = await tx.query<{ bytes: number }>(
    `SELECT (SELECT COALESCE(sum(${splitJsonBytes('s')} + 1) - 1, 0) FROM amount_splits s WHERE s.payroll_request_id = $1)::int8
          + (SELECT COALESCE(sum(octet_length(api_json) + 1) - 1, 0) FROM transfers WHERE payroll_request_id = $1)::int8 AS bytes`,
    [requestId],
  );
  return row?.bytes ?? 0;
}

/** A page of a request's splits or transfers: their JSON (kept on each row, `api_json`), comma-separated. */
export interface PayrollItemsJson {
  /** The items' JSON objects, comma-separated ('' when none). */
  json: string;
  /** The position of the page's last item; null when the page is empty. */
  lastPosition: number | null;
  /** Whether an item follows the page. */
  more: boolean;
}

/** Which page of a request's items: after `afterPosition`, up to `limit`; with `customerId`, only that customer's request. */
export interface PayrollItemsQuery {
  requestId: string;
  customerId: string | null;
  afterPosition: number;
  limit: number;
}

/** Up to `limit` splits of the request after `afterPosition`, in their order; null when there is no such request. */
export const findPayrollSplitsJson = (tx: Queryable, query: PayrollItemsQuery): Promise<PayrollItemsJson | null> =>
  findPayrollItemsJson(tx, 'amount_splits', query);

/** Up to `limit` transfers of the request after `afterPosition`, in their order; null when there is no such request. */
export const findPayrollTransfersJson = (tx: Queryable, query: PayrollItemsQuery): Promise<PayrollItemsJson | null> =>
  findPayrollItemsJson(tx, 'transfers', query);

async function findPayrollItemsJson(tx: Queryable, table: 'amount_splits' | 'transfers', query: PayrollItemsQuery): Promise<PayrollItemsJson | null> {
  const rows = await tx.query<PayrollItemsJson>(
    `SELECT COALESCE(string_agg(page.api_json, ',' ORDER BY page.position) FILTER (WHERE page.n <= $4), '') AS json,
            max(page.position) FILTER (WHERE page.n <= $4) AS "lastPosition", count(*) > $4 AS more
       FROM payroll_requests r
       LEFT JOIN LATERAL (
         SELECT i.api_json, i.position, row_number() OVER (ORDER BY i.position) AS n
           FROM (${itemsPageSql(table, { requestId: 'r.id', afterPosition: '$3', limit: '$4 + 1' })}) i
       ) page ON true
      WHERE r.id = $1 AND ($2::uuid IS NULL OR r.customer_id = $2::uuid)
      GROUP BY r.id`,
    [query.requestId, query.customerId, query.afterPosition, query.limit],
  );
  return rows[0] ?? null;
}
