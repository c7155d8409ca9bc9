import { itemJson } from './wireFormat.js';

/**
 * A request's splits and transfers as an answer sends them, read as rows of a few dozen items each
 * rather than as one text per section. Every row is a protocol message the driver gathers whole
 * and then a JavaScript string the route writes: a whole section in one row is a message of
 * megabytes, gathered in a buffer doubled again and again, and a string too large for the young
 * generation, which only a full collection frees. Rows of a few tens of kilobytes keep the
 * driver's buffer at one size and die young; PostgreSQL also sends the first groups while it
 * still builds the later ones.
 */
const ITEMS_PER_GROUP = 32;

/** The section a group belongs to, as its row numbers it. */
const SECTION = { amount_splits: 1, transfers: 2 } as const;

/** One group of a section: its place and its items' JSON objects, comma-separated (opened with a comma after the section's first group). */
export interface ItemGroupRow {
  section: number;
  seq: number;
  json: string;
}

/**
 * The groups of one section: the positions that open a group (every ITEMS_PER_GROUP-th of the
 * section's distinct positions, in order), each group the items from its opening position up to
 * the next one's, read through the request's index. Each group is aggregated from a range of
 * ITEMS_PER_GROUP rows, never from a sort of the whole section, and the ranges partition the
 * section whatever its positions are (the last closes past any integer position; `requestId`: an SQL
 * expression).
 */
const sectionGroups = (table: keyof typeof SECTION, requestId: string): string =>
  `SELECT ${SECTION[table]} AS section, b.seq,
          (SELECT CASE WHEN b.seq > 0 THEN ',' ELSE '' END || string_agg(${itemJson(table, 'i')}, ',' ORDER BY i.position)
             FROM ${table} i WHERE i.payroll_request_id = ${requestId} AND i.position >= b.opening AND i.position < b.closing) AS json
     FROM (SELECT o.opening, COALESCE(lead(o.opening) OVER (ORDER BY o.opening), 2147483648) AS closing,
                  (row_number() OVER (ORDER BY o.opening) - 1)::int AS seq
             FROM (SELECT d.position AS opening
                     FROM (SELECT p.position, row_number() OVER (ORDER BY p.position) AS n
                             FROM (SELECT DISTINCT x.position FROM ${table} x WHERE x.payroll_request_id = ${requestId}) p) d
                    WHERE (d.n - 1) % ${ITEMS_PER_GROUP} = 0) o) b`;

/**
 * The rows (section, seq, json) of request `requestId`'s items (an SQL expression, a lateral
 * reference say): section 1 its splits, 2 its transfers, each group's JSON as ItemGroupRow says.
 * The rows come in no promised order: each names its place (itemSections).
 */
export const itemGroupsSql = (requestId: string): string => `${sectionGroups('amount_splits', requestId)} UNION ALL ${sectionGroups('transfers', requestId)}`;

/** The parts of each section, in order: joined, a section's comma-separated JSON objects. */
export interface ItemSections {
  splits: string[];
  transfers: string[];
}

/** Each group put in its place; rows of another section (a head row read with them) are left aside. */
export function itemSections(rows: readonly ItemGroupRow[]): ItemSections {
  const sections: ItemSections = { splits: [], transfers: [] };
  let groups = 0;
  for (const row of rows) {
    const section = row.section === SECTION.amount_splits ? sections.splits : row.section === SECTION.transfers ? sections.transfers : null;
    if (!section) continue;
    section[row.seq] = row.json;
    groups += 1;
  }
  // Groups are numbered from 0 without a gap: a missing one would leave a hole in the answer.
  if (groups !== sections.splits.length + sections.transfers.length) throw new Error('a request was read with a group of its items missing');
  return sections;
}
