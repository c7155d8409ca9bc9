import type { Queryable } from './db.js';
import { eventsWrittenFrom } from './events.js';
import type { PayrollRequestTopLevel } from './payrollRequestTopLevel.js';
import type { StoredAnswerSize } from './storedAnswers.js';
import { type ItemGroupRow, type ItemSections, itemGroupsSql, itemSections } from './itemGroups.js';
import { itemJson, itemsPageSql } from './wireFormat.js';

/**
 * The payroll request's JSON written where it is kept: into a `payroll_request.status_changed`
 * event, and into an operation's stored answer (storedAnswers.ts). Its items (each split's and
 * transfer's JSON, kept on its row, a split's with its payout: store/wireFormat.ts itemJson) are
 * joined by PostgreSQL, never through the process; its top level is the caller's
 * (store/payrollRequestTopLevel.ts), as the read writes it.
 */

/** The request's splits' (or transfers') JSON objects, comma-separated, in their order: NULL when there are none. */
const itemsOf = (table: 'amount_splits' | 'transfers', when: string): string =>
  `(SELECT string_agg(${itemJson(table, 'i')}, ',' ORDER BY i.position) FROM ${table} i WHERE i.payroll_request_id = r.id AND ${when})`;

/** The number of splits, kept on the request (split_count) or, for a request written before it was, counted. */
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

/** A row for the request when it has at most $2 splits (so that one without items is told from none), then its items' groups. */
const ITEMS_UP_TO = `WITH req AS MATERIALIZED (SELECT r.id FROM payroll_requests r WHERE r.id = $1 AND ${SPLIT_COUNT} <= $2)
     SELECT 0 AS section, 0 AS seq, '' AS json FROM req
     UNION ALL
     SELECT g.section, g.seq, g.json FROM req CROSS JOIN LATERAL (${itemGroupsSql('req.id')}) g`;

/**
 * The request's splits' and transfers' JSON objects as parts (store/itemGroups.ts), when it has at
 * most `limit` splits; null when it has more (or there is no such request).
 */
export async function findPayrollItemsUpTo(tx: Queryable, requestId: string, limit: number): Promise<ItemSections | null> {
  const rows = await tx.query<ItemGroupRow>(ITEMS_UP_TO, [requestId, limit]);
  return rows.length > 0 ? itemSections(rows) : null;
}

/**
 * One part of a stored answer's section: the `limit` items after `afterPosition`, in their order, as
 * part `seq` (opened with `prefix`: a comma after the section's first part). A page is read in
 * position order from the request's index, so nothing larger than a part is ever sorted.
 */
const sectionPart = (table: 'amount_splits' | 'transfers'): string =>
  `WITH page AS (${itemsPageSql(table, { requestId: '$1', afterPosition: '$2', limit: '$3' })}),
   part AS (SELECT string_agg(api_json, ',' ORDER BY position) AS body, max(position) AS last, count(*)::int AS items FROM page),
   written AS (
     INSERT INTO transient_answer_parts (answer_id, seq, body, created_at)
     SELECT $4, $5, $6::text || part.body, $7 FROM part WHERE part.items > 0
     RETURNING octet_length(body) AS bytes
   )
   SELECT part.last, part.items, COALESCE((SELECT bytes FROM written), 0)::bigint AS bytes FROM part`;

interface AnswerBeingWritten {
  answerId: string;
  requestId: string;
  at: Date;
  itemsPerPart: number;
  written: StoredAnswerSize;
}

/** A text of the answer's top level as its next part (only when the request is there: the first says whether it is). */
async function writeTextPart(tx: Queryable, answer: AnswerBeingWritten, body: string): Promise<boolean> {
  const [row] = await tx.query<{ bytes: number }>(
    `INSERT INTO transient_answer_parts (answer_id, seq, body, created_at)
     SELECT $1, $2, $3::text, $4 FROM payroll_requests WHERE id = $5
     RETURNING octet_length(body) AS bytes`,
    [answer.answerId, answer.written.parts, body, answer.at, answer.requestId],
  );
  if (!row) return false;
  answer.written.parts += 1;
  answer.written.bytes += row.bytes;
  return true;
}

/** The section's items as parts of at most `itemsPerPart`, page after page (keyset on position). */
async function writeSectionParts(tx: Queryable, answer: AnswerBeingWritten, table: 'amount_splits' | 'transfers'): Promise<void> {
  const statement = sectionPart(table);
  for (let afterPosition = -1, prefix = ''; ; prefix = ',') {
    const [page] = await tx.query<{ last: number | null; items: number; bytes: string }>(statement, [
      answer.requestId,
      afterPosition,
      answer.itemsPerPart,
      answer.answerId,
      answer.written.parts,
      prefix,
      answer.at,
    ]);
    if (!page || page.items === 0 || page.last === null) return;
    answer.written.parts += 1;
    answer.written.bytes += Number(page.bytes);
    if (page.items < answer.itemsPerPart) return;
    afterPosition = page.last;
  }
}

/**
 * The request as the operation that changed it answers it (its GET's JSON), written as the stored
 * answer `answerId` (a stored answer: transient until an Idempotency-Key keeps it) in parts
 * of at most `itemsPerPart` splits or transfers: the top level's opening, the splits, its `between`,
 * the transfers, and its closing (`top`). Each part is built and written by PostgreSQL from a page
 * of the items, so neither the process nor a sort holds more than a part. Null when there is no
 * such request.
 */
export async function insertPayrollRequestAnswer(
  tx: Queryable,
  answer: { answerId: string; requestId: string; top: PayrollRequestTopLevel; at: Date; itemsPerPart: number },
): Promise<StoredAnswerSize | null> {
  const { top, ...where } = answer;
  const writing: AnswerBeingWritten = { ...where, written: { parts: 0, bytes: 0 } };
  if (!(await writeTextPart(tx, writing, top.opening))) return null;
  await writeSectionParts(tx, writing, 'amount_splits');
  await writeTextPart(tx, writing, top.between);
  await writeSectionParts(tx, writing, 'transfers');
  await writeTextPart(tx, writing, top.closing);
  return writing.written;
}
