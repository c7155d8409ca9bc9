import type { Queryable } from './db.js';
import { eventsWrittenFrom } from './events.js';
import type { PayrollRequestTopLevel } from './payrollRequestTopLevel.js';
import type { StoredAnswerSize } from './storedAnswers.js';
import { itemJson } from './wireFormat.js';

/**
 * The payroll request's JSON written where it is kept: into a `payroll_request.status_changed`
 * event, and into an operation's stored answer (migration 018). Its items (each split's and
 * transfer's JSON, kept on its row, a split's with its payout: store/wireFormat.ts itemJson) are
 * joined by PostgreSQL, never through the process; its top level is the caller's
 * (store/payrollRequestTopLevel.ts), as the read writes it.
 */

/** The request's splits' (or transfers') JSON objects, comma-separated, in their order: NULL when there are none. */
const itemsOf = (table: 'amount_splits' | 'transfers', when: string): string =>
  `(SELECT string_agg(${itemJson(table, 'i')}, ',' ORDER BY i.position) FROM ${table} i WHERE i.payroll_request_id = r.id AND ${when})`;

/** The number of splits, kept on the request (migration 016) or, for a request written before it was, counted. */
const SPLIT_COUNT = 'COALESCE(r.split_count, (SELECT count(*)::int FROM amount_splits c WHERE c.payroll_request_id = r.id))';

/**
 * payroll_request.status_changed with the request as its GET returns it (`top`: its top level),
 * built and stored in one statement, with its webhook deliveries (store/events.ts). A request of
 * more than `itemsLimit` splits goes without its splits and transfers (`"itemsOmitted":true` in
 * their place; the client reads them a page at a time), so that no event is a copy of a
 * 100,000-split request: neither is read for it.
 */
export async function insertPayrollRequestEvent(
  tx: Queryable,
  event: { id: string; requestId: string; occurredAt: Date; top: PayrollRequestTopLevel },
  itemsLimit: number,
): Promise<void> {
  const { top } = event;
  await tx.query(
    `WITH x AS MATERIALIZED (
       SELECT r.id, r.customer_id, ${SPLIT_COUNT} > $3 AS omitted,
              COALESCE(${itemsOf('amount_splits', `${SPLIT_COUNT} <= $3`)}, '') AS splits,
              COALESCE(${itemsOf('transfers', `${SPLIT_COUNT} <= $3`)}, '') AS transfers
         FROM payroll_requests r WHERE r.id = $1
     ), source AS (
       SELECT $2::uuid AS id, x.customer_id, 'payroll_request.status_changed'::text AS type, x.id AS resource_id, $4::timestamptz AS at,
              (CASE WHEN x.omitted THEN $8::text ELSE concat($5::text, x.splits, $6::text, x.transfers, $7::text) END)::jsonb AS payload, 1 AS ord
         FROM x
     ), ${eventsWrittenFrom('source')}
     SELECT 1`,
    [event.requestId, event.id, itemsLimit, event.occurredAt, top.opening, top.between, top.closing, top.withoutItems],
  );
}

/**
 * The request's splits' and transfers' JSON objects, comma-separated ('' when none), when it has
 * at most `limit` splits; null when it has more (or there is no such request).
 */
export async function findPayrollItemsUpTo(tx: Queryable, requestId: string, limit: number): Promise<{ splitsJson: string; transfersJson: string } | null> {
  const rows = await tx.query<{ splitsJson: string; transfersJson: string }>(
    `SELECT COALESCE(${itemsOf('amount_splits', 'true')}, '') AS "splitsJson", COALESCE(${itemsOf('transfers', 'true')}, '') AS "transfersJson"
       FROM payroll_requests r WHERE r.id = $1 AND ${SPLIT_COUNT} <= $2`,
    [requestId, limit],
  );
  return rows[0] ?? null;
}

/** The items of a stored answer's section, `size` to a part: the first part opens with the section, the others with a comma. */
const chunksOf = (table: 'amount_splits' | 'transfers', section: number): string =>
  `SELECT ${section}, c.chunk, CASE WHEN c.chunk > 0 THEN ',' ELSE '' END || string_agg(c.api_json, ',' ORDER BY c.position)
     FROM (SELECT ${itemJson(table, 'i')} AS api_json, i.position, (row_number() OVER (ORDER BY i.position) - 1) / $4 AS chunk
             FROM ${table} i JOIN request q ON i.payroll_request_id = q.id) c
    GROUP BY c.chunk`;

/**
 * The request as the operation that changed it answers it (its GET's JSON), written as the stored
 * answer `answerId` (migrations 018 and 023: transient until an Idempotency-Key keeps it) in parts
 * of at most `itemsPerPart` splits or transfers: the top level's opening, the splits, its `between`,
 * the transfers, and its closing (`top`). Null when there is no such request.
 */
export async function insertPayrollRequestAnswer(
  tx: Queryable,
  answer: { answerId: string; requestId: string; top: PayrollRequestTopLevel; at: Date; itemsPerPart: number },
): Promise<StoredAnswerSize | null> {
  const rows = await tx.query<StoredAnswerSize>(
    `WITH request AS MATERIALIZED (SELECT r.id FROM payroll_requests r WHERE r.id = $1),
     parts (section, chunk, body) AS (
       SELECT 0, 0, $3::text FROM request
       UNION ALL ${chunksOf('amount_splits', 1)}
       UNION ALL SELECT 2, 0, $6::text FROM request
       UNION ALL ${chunksOf('transfers', 3)}
       UNION ALL SELECT 4, 0, $7::text FROM request
     ),
     written AS (
       INSERT INTO transient_answer_parts (answer_id, seq, body, created_at)
       SELECT $2, (row_number() OVER (ORDER BY section, chunk))::int - 1, body, $5 FROM parts
       RETURNING octet_length(body) AS bytes
     )
     SELECT count(*)::int AS parts, COALESCE(sum(bytes), 0)::bigint AS bytes FROM written`,
    [answer.requestId, answer.answerId, answer.top.opening, answer.itemsPerPart, answer.at, answer.top.between, answer.top.closing],
  );
  const size = rows[0];
  return size && size.parts > 0 ? size : null;
}
