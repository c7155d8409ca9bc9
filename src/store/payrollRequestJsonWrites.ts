import type { Queryable } from './db.js';
import { REQUEST_HEAD_SQL } from './payrollRequestJson.js';
import type { StoredAnswerSize } from './storedAnswers.js';

/**
 * The payroll request's JSON (store/payrollRequestJson.ts) written by PostgreSQL where it is kept,
 * never through the process: into a `payroll_request.status_changed` event, and into an
 * operation's stored answer (migration 018). `returnedAmount` is the caller's (a money rule, in
 * TypeScript), written first as the read writes it.
 */

/** The request's splits' (or transfers') JSON objects, comma-separated, in their order: NULL when there are none. */
const itemsOf = (table: 'amount_splits' | 'transfers', when: string): string =>
  `(SELECT string_agg(i.api_json, ',' ORDER BY i.position) FROM ${table} i WHERE i.payroll_request_id = r.id AND ${when})`;

/** The number of splits, kept on the request (migration 016) or, for a request written before it was, counted. */
const SPLIT_COUNT = 'COALESCE(r.split_count, (SELECT count(*)::int FROM amount_splits c WHERE c.payroll_request_id = r.id))';

/**
 * payroll_request.status_changed with the request as its GET returns it, built and stored in one
 * statement. A request of more than `itemsLimit` splits goes without its splits and transfers
 * (`"itemsOmitted":true` in their place; the client reads them a page at a time), so that no event
 * is a copy of a 100,000-split request: neither is read for it. Returns the event's customer, for
 * its webhook deliveries (null when there is no such request).
 */
export async function insertPayrollRequestEvent(
  tx: Queryable,
  event: { id: string; requestId: string; occurredAt: Date; returnedAmount: string },
  itemsLimit: number,
): Promise<string | null> {
  const rows = await tx.query<{ customerId: string }>(
    `WITH x AS MATERIALIZED (
       SELECT r.id, r.customer_id, ${REQUEST_HEAD_SQL.head} AS head, ${SPLIT_COUNT} > $6 AS omitted,
              COALESCE(${itemsOf('amount_splits', `${SPLIT_COUNT} <= $6`)}, '') AS splits,
              COALESCE(${itemsOf('transfers', `${SPLIT_COUNT} <= $6`)}, '') AS transfers
       ${REQUEST_HEAD_SQL.from}
     )
     INSERT INTO events (id, customer_id, type, resource_id, sequence, occurred_at, payload)
     SELECT $3, x.customer_id, 'payroll_request.status_changed', x.id,
            COALESCE((SELECT max(e.sequence) FROM events e WHERE e.type = 'payroll_request.status_changed' AND e.resource_id = x.id), 0) + 1, $4,
            concat('{"returnedAmount":', to_json($5::text), ',', substr(x.head, 2, length(x.head) - 2),
                   CASE WHEN x.omitted THEN ',"itemsOmitted":true}'
                        ELSE concat(',"amountSplitDetails":[', x.splits, '],"transfers":[', x.transfers, ']}') END)::jsonb
       FROM x
     RETURNING customer_id AS "customerId"`,
    [event.requestId, null, event.id, event.occurredAt, event.returnedAmount, itemsLimit],
  );
  return rows[0]?.customerId ?? null;
}

/** The items of a stored answer's section, `size` to a part: the first part opens with the section, the others with a comma. */
const chunksOf = (table: 'amount_splits' | 'transfers', section: number): string =>
  `SELECT ${section}, c.chunk, CASE WHEN c.chunk > 0 THEN ',' ELSE '' END || string_agg(c.api_json, ',' ORDER BY c.position)
     FROM (SELECT i.api_json, i.position, (row_number() OVER (ORDER BY i.position) - 1) / $5 AS chunk
             FROM ${table} i JOIN request q ON i.payroll_request_id = q.id) c
    GROUP BY c.chunk`;

/**
 * The request as the operation that changed it answers it (its GET's JSON), written as the stored
 * answer `answerId` (migrations 018 and 023: transient until an Idempotency-Key keeps it) in parts
 * of at most `itemsPerPart` splits or transfers: the head, the splits, `],"transfers":[`, the
 * transfers, and the closing `]}`. Null when there is no such request.
 */
export async function insertPayrollRequestAnswer(
  tx: Queryable,
  answer: { answerId: string; requestId: string; returnedAmount: string; at: Date; itemsPerPart: number },
): Promise<StoredAnswerSize | null> {
  const rows = await tx.query<StoredAnswerSize>(
    `WITH request AS MATERIALIZED (SELECT r.id, ${REQUEST_HEAD_SQL.head} AS head ${REQUEST_HEAD_SQL.from}),
     parts (section, chunk, body) AS (
       SELECT 0, 0, concat('{"returnedAmount":', to_json($4::text), ',', substr(q.head, 2, length(q.head) - 2), ',"amountSplitDetails":[') FROM request q
       UNION ALL ${chunksOf('amount_splits', 1)}
       UNION ALL SELECT 2, 0, '],"transfers":[' FROM request
       UNION ALL ${chunksOf('transfers', 3)}
       UNION ALL SELECT 4, 0, ']}' FROM request
     ),
     written AS (
       INSERT INTO transient_answer_parts (answer_id, seq, body, created_at)
       SELECT $3, (row_number() OVER (ORDER BY section, chunk))::int - 1, body, $6 FROM parts
       RETURNING octet_length(body) AS bytes
     )
     SELECT count(*)::int AS parts, COALESCE(sum(bytes), 0)::bigint AS bytes FROM written`,
    [answer.requestId, null, answer.answerId, answer.returnedAmount, answer.itemsPerPart, answer.at],
  );
  const size = rows[0];
  return size && size.parts > 0 ? size : null;
}
