import type { Candidate } from '../../domain/screening/matching.js';
import type { SanctionsEntry, SanctionsListName, SanctionsListVersion } from '../../domain/screening/sanctionsLists.js';
import type { Queryable } from '../database/db.js';

/** The sanctions lists' versions read, the screenings of beneficiaries, the hits and the payouts held for them. */

export interface RecordedListVersion extends SanctionsListVersion {
  id: string;
  rescreenedAt: Date | null;
}

const VERSION_COLUMNS = `id, list, file_name AS "fileName", sha256, to_char(published_on, 'YYYY-MM-DD') AS "publishedOn",
  record_count AS "recordCount", rescreened_at AS "rescreenedAt"`;

/** Records the versions read (once each: a version is its file's bytes) and returns them with their ids. */
export async function recordListVersions(
  tx: Queryable,
  versions: readonly SanctionsListVersion[],
  ids: readonly string[],
  at: Date,
): Promise<RecordedListVersion[]> {
  await tx.query(
    `INSERT INTO sanctions_list_versions (id, list, file_name, sha256, published_on, record_count, loaded_at)
     SELECT x.id, x.list, x."fileName", x.sha256, x."publishedOn"::date, x."recordCount", $2
       FROM jsonb_to_recordset($1::jsonb) AS x(id uuid, list text, "fileName" text, sha256 text, "publishedOn" text, "recordCount" int)
     ON CONFLICT (list, sha256) DO NOTHING`,
    [JSON.stringify(versions.map((version, index) => ({ ...version, id: ids[index] }))), at],
  );
  return tx.query<RecordedListVersion>(
    `SELECT ${VERSION_COLUMNS} FROM sanctions_list_versions v
      WHERE (v.list, v.sha256) IN (SELECT x.list, x.sha256 FROM jsonb_to_recordset($1::jsonb) AS x(list text, sha256 text))
      ORDER BY v.list`,
    [JSON.stringify(versions.map(({ list, sha256 }) => ({ list, sha256 })))],
  );
}

export async function markVersionsRescreened(tx: Queryable, versionIds: readonly string[], at: Date): Promise<void> {
  await tx.query('UPDATE sanctions_list_versions SET rescreened_at = $2 WHERE id = ANY($1::uuid[]) AND rescreened_at IS NULL', [versionIds, at]);
}

export async function listVersionsByIds(tx: Queryable, ids: readonly string[]): Promise<RecordedListVersion[]> {
  return tx.query<RecordedListVersion>(`SELECT ${VERSION_COLUMNS} FROM sanctions_list_versions WHERE id = ANY($1::uuid[]) ORDER BY list`, [ids]);
}

/** A beneficiary as screening reads it: its names, nationality and who created it. */
export interface ScreenableBeneficiary {
  id: string;
  customerId: string;
  firstName: string | null;
  lastName: string | null;
  companyName: string | null;
  displayName: string;
  nationality: string;
  createdByUserId: string | null;
}

const SCREENABLE = `b.id, b.customer_id AS "customerId", b.first_name AS "firstName", b.last_name AS "lastName",
  b.company_name AS "companyName", b.display_name AS "displayName", b.nationality, b.created_by_user_id AS "createdByUserId"`;

export async function screenableBeneficiaries(tx: Queryable, ids: readonly string[]): Promise<ScreenableBeneficiary[]> {
  return tx.query<ScreenableBeneficiary>(`SELECT ${SCREENABLE} FROM beneficiaries b WHERE b.id = ANY($1::uuid[])`, [ids]);
}

/** A page of the active beneficiaries of every customer, by id (a list update's pass). */
export async function activeBeneficiariesAfter(tx: Queryable, afterId: string | null, limit: number): Promise<ScreenableBeneficiary[]> {
  return tx.query<ScreenableBeneficiary>(
    `SELECT ${SCREENABLE} FROM beneficiaries b WHERE b.active AND ($1::uuid IS NULL OR b.id > $1) ORDER BY b.id LIMIT $2`,
    [afterId, limit],
  );
}

export interface ScreeningRow {
  id: string;
  beneficiaryId: string;
  cause: 'BENEFICIARY' | 'ESTIMATE' | 'PAYROLL_REQUEST' | 'PAYOUT' | 'LIST_UPDATE';
  listVersionIds: string[];
  threshold: number;
  candidates: Candidate[];
  /** The hits the candidates are, in whatever state (what the beneficiary's screening state keeps). */
  hitIds: string[];
  screenedAt: Date;
}

/**
 * Every screening, one statement for them all, and each beneficiary's screening state moved to it
 * (a later screening already stored by a concurrent transaction is kept).
 */
export async function insertScreenings(tx: Queryable, rows: readonly ScreeningRow[]): Promise<void> {
  if (rows.length === 0) return;
  await tx.query(
    `WITH x AS (
       SELECT x.id, x."beneficiaryId", x.cause, x."listVersionIds", x.threshold, x.candidates, x."hitIds"
         FROM jsonb_to_recordset($1::jsonb) AS x(id uuid, "beneficiaryId" uuid, cause text, "listVersionIds" uuid[], threshold numeric,
              candidates jsonb, "hitIds" uuid[])
     ), screenings AS (
       INSERT INTO beneficiary_screenings (id, beneficiary_id, cause, list_version_ids, threshold, candidates, screened_at)
       SELECT x.id, x."beneficiaryId", x.cause, x."listVersionIds", x.threshold, x.candidates, $2 FROM x
       RETURNING id
     )
     INSERT INTO beneficiary_screening_state AS s (beneficiary_id, screening_id, list_version_ids, hit_ids, screened_at)
     SELECT DISTINCT ON (x."beneficiaryId") x."beneficiaryId", x.id, x."listVersionIds", x."hitIds", $2
       FROM x JOIN screenings ON screenings.id = x.id
      ORDER BY x."beneficiaryId"
     ON CONFLICT (beneficiary_id) DO UPDATE
       SET screening_id = EXCLUDED.screening_id, list_version_ids = EXCLUDED.list_version_ids, hit_ids = EXCLUDED.hit_ids,
           screened_at = EXCLUDED.screened_at
     WHERE s.screened_at <= EXCLUDED.screened_at`,
    [
      JSON.stringify(rows.map((row) => ({ ...row, listVersionIds: `{${row.listVersionIds.join(',')}}`, hitIds: `{${row.hitIds.join(',')}}` }))),
      rows[0]!.screenedAt,
    ],
  );
}

export type HitState = 'OPEN' | 'RELEASED' | 'CONFIRMED';

export interface NewHit {
  id: string;
  customerId: string;
  beneficiaryId: string;
  list: SanctionsListName;
  entryId: string;
  entryFingerprint: string;
  beneficiaryFingerprint: string;
  score: number;
  candidate: Candidate;
  entry: Pick<SanctionsEntry, 'names' | 'datesOfBirth' | 'nationalities'>;
  listVersionId: string;
}

export interface HitRecord extends NewHit {
  state: HitState;
  createdAt: Date;
  decidedBy: string | null;
  decidedAt: Date | null;
  note: string | null;
}

const HIT_COLUMNS = `h.id, h.customer_id AS "customerId", h.beneficiary_id AS "beneficiaryId", h.list, h.entry_id AS "entryId",
  h.entry_fingerprint AS "entryFingerprint", h.beneficiary_fingerprint AS "beneficiaryFingerprint", h.score::float8 AS score,
  h.candidate, h.entry, h.list_version_id AS "listVersionId", h.state, h.created_at AS "createdAt", h.decided_by AS "decidedBy",
  h.decided_at AS "decidedAt", h.note`;

/**
 * Raises each match once per beneficiary and entry as they are written (a match already raised,
 * in whatever state, is left as it is) and returns every hit of these matches as it stands.
 */
export async function raiseHits(tx: Queryable, hits: readonly NewHit[], at: Date): Promise<HitRecord[]> {
  if (hits.length === 0) return [];
  const json = JSON.stringify(hits);
  await tx.query(
    `INSERT INTO screening_hits (id, customer_id, beneficiary_id, list, entry_id, entry_fingerprint, beneficiary_fingerprint, score, candidate, entry,
       list_version_id, created_at)
     SELECT x.id, x."customerId", x."beneficiaryId", x.list, x."entryId", x."entryFingerprint", x."beneficiaryFingerprint", x.score, x.candidate,
            x.entry, x."listVersionId", $2
       FROM jsonb_to_recordset($1::jsonb) AS x(id uuid, "customerId" uuid, "beneficiaryId" uuid, list text, "entryId" text, "entryFingerprint" text,
            "beneficiaryFingerprint" text, score numeric, candidate jsonb, entry jsonb, "listVersionId" uuid)
     ON CONFLICT (beneficiary_id, list, entry_id, entry_fingerprint, beneficiary_fingerprint) DO NOTHING`,
    [json, at],
  );
  return tx.query<HitRecord>(
    `SELECT ${HIT_COLUMNS} FROM screening_hits h
       JOIN jsonb_to_recordset($1::jsonb) AS x("beneficiaryId" uuid, list text, "entryId" text, "entryFingerprint" text, "beneficiaryFingerprint" text)
         ON h.beneficiary_id = x."beneficiaryId" AND h.list = x.list AND h.entry_id = x."entryId"
        AND h.entry_fingerprint = x."entryFingerprint" AND h.beneficiary_fingerprint = x."beneficiaryFingerprint"
      ORDER BY h.score DESC, h.id`,
    [json],
  );
}

export async function findHit(tx: Queryable, hitId: string, forUpdate = false): Promise<HitRecord | null> {
  const [row] = await tx.query<HitRecord>(`SELECT ${HIT_COLUMNS} FROM screening_hits h WHERE h.id = $1${forUpdate ? ' FOR UPDATE' : ''}`, [hitId]);
  return row ?? null;
}

export async function listHits(tx: Queryable, state: HitState | null, after: { createdAt: Date; id: string } | null, limit: number): Promise<HitRecord[]> {
  return tx.query<HitRecord>(
    `SELECT ${HIT_COLUMNS} FROM screening_hits h
      WHERE ($1::text IS NULL OR h.state = $1) AND ($2::timestamptz IS NULL OR (h.created_at, h.id) > ($2, $3::uuid))
      ORDER BY h.created_at, h.id LIMIT $4`,
    [state, after?.createdAt ?? null, after?.id ?? null, limit],
  );
}

export async function decideHit(tx: Queryable, hitId: string, state: 'RELEASED' | 'CONFIRMED', decidedBy: string, note: string, at: Date): Promise<HitRecord> {
  const [row] = await tx.query<HitRecord>(
    `UPDATE screening_hits h SET state = $2, decided_by = $3, note = $4, decided_at = $5 WHERE h.id = $1 AND h.state = 'OPEN' RETURNING ${HIT_COLUMNS}`,
    [hitId, state, decidedBy, note, at],
  );
  if (!row) throw new Error(`Screening hit ${hitId} is not open`);
  return row;
}

/** The holds written (a payout already held is left as it is): the ids of the payouts newly held. */
export async function insertHolds(tx: Queryable, holds: ReadonlyArray<{ transferId: string; hitId: string }>, batchId: string, at: Date): Promise<string[]> {
  if (holds.length === 0) return [];
  const rows = await tx.query<{ transferId: string }>(
    `INSERT INTO screening_holds (transfer_id, hit_id, batch_id, held_at)
     SELECT x."transferId", x."hitId", $2, $3 FROM jsonb_to_recordset($1::jsonb) AS x("transferId" uuid, "hitId" uuid)
     ON CONFLICT (transfer_id) DO NOTHING RETURNING transfer_id AS "transferId"`,
    [JSON.stringify(holds), batchId, at],
  );
  return rows.map((row) => row.transferId);
}

export interface HoldRecord {
  transferId: string;
  hitId: string;
  batchId: string;
  payrollRequestId: string;
  requestCreatedBy: string;
  heldAt: Date;
}

export async function holdsOfHits(tx: Queryable, hitIds: readonly string[]): Promise<HoldRecord[]> {
  return tx.query<HoldRecord>(
    `SELECT h.transfer_id AS "transferId", h.hit_id AS "hitId", h.batch_id AS "batchId", t.payroll_request_id AS "payrollRequestId",
            r.created_by_user_id::text AS "requestCreatedBy", h.held_at AS "heldAt"
       FROM screening_holds h JOIN transfers t ON t.id = h.transfer_id JOIN payroll_requests r ON r.id = t.payroll_request_id
      WHERE h.hit_id = ANY($1::uuid[]) ORDER BY h.held_at, h.transfer_id`,
    [hitIds],
  );
}

/** A decided hit's open holds resolved: released ones get the id of the file they go to the bank in. */
export async function resolveHolds(
  tx: Queryable,
  hitId: string,
  outcome: 'RELEASED' | 'CONFIRMED',
  releaseBatchId: string | null,
  at: Date,
): Promise<string[]> {
  const rows = await tx.query<{ transferId: string }>(
    `UPDATE screening_holds SET outcome = $2, resolved_at = $4, release_batch_id = $3
      WHERE hit_id = $1 AND resolved_at IS NULL RETURNING transfer_id AS "transferId"`,
    [hitId, outcome, releaseBatchId, at],
  );
  return rows.map((row) => row.transferId);
}

/** Released payouts still open, by the file they go in: what the worker sends to the bank and follows. */
export async function openReleasedPayouts(
  tx: Queryable,
  limit: number,
): Promise<Array<{ releaseBatchId: string; batchId: string; payrollRequestId: string; transferIds: string[]; unsubmitted: boolean }>> {
  return tx.query(
    `SELECT h.release_batch_id AS "releaseBatchId", h.batch_id AS "batchId", min(t.payroll_request_id::text) AS "payrollRequestId",
            array_agg(t.id::text ORDER BY t.position) AS "transferIds", bool_or(t.status IN ('PENDING', 'INITIATED')) AS unsubmitted
       FROM screening_holds h JOIN transfers t ON t.id = h.transfer_id
      WHERE h.release_batch_id IS NOT NULL AND t.status IN ('PENDING', 'INITIATED', 'PROCESSING')
      GROUP BY h.release_batch_id, h.batch_id
      ORDER BY min(h.resolved_at) LIMIT $1`,
    [limit],
  );
}

/** Held payouts an admin confirmed: PENDING → FAILED with the reason, each split showing what it credits back. */
export async function failConfirmedPayouts(
  tx: Queryable,
  transferIds: readonly string[],
  reason: string,
  at: Date,
): Promise<Array<{ id: string; status: 'FAILED'; amount: string; quotedSourceAmount: string | null }>> {
  return tx.query(
    `WITH moved AS (
       UPDATE transfers t SET status = 'FAILED', completed_at = $2, failure_reason = $3, locked_until = NULL
        WHERE t.id = ANY($1::uuid[]) AND t.status IN ('PENDING', 'INITIATED')
       RETURNING t.id, t.position, t.amount, t.amount_split_id
     ), returned AS (
       UPDATE amount_splits s SET returned_source_currency_amount = s.quoted_source_currency_amount
         FROM moved m WHERE s.id = m.amount_split_id
     )
     SELECT m.id, 'FAILED' AS status, m.amount::text AS amount, s.quoted_source_currency_amount::text AS "quotedSourceAmount"
       FROM moved m LEFT JOIN amount_splits s ON s.id = m.amount_split_id
      ORDER BY m.position`,
    [transferIds, at, reason],
  );
}

/** How many hits are open, and the oldest one's creation (the metrics). */
export async function openHitStats(tx: Queryable): Promise<{ open: number; oldest: Date | null }> {
  const [row] = await tx.query<{ open: number; oldest: Date | null }>(
    `SELECT count(*)::int AS open, min(created_at) AS oldest FROM screening_hits WHERE state = 'OPEN'`,
  );
  return row!;
}

/** Each payout's payroll request, by request. */
export async function payrollRequestsOfTransfers(
  tx: Queryable,
  transferIds: readonly string[],
): Promise<Array<{ transferId: string; payrollRequestId: string }>> {
  return tx.query(
    'SELECT id AS "transferId", payroll_request_id AS "payrollRequestId" FROM transfers WHERE id = ANY($1::uuid[]) ORDER BY payroll_request_id, position',
    [transferIds],
  );
}
