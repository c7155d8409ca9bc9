import type { Queryable } from '../database/db.js';

/**
 * A key's record. COMPLETED once committed, with the answer stored; IN_PROGRESS only inside the
 * transaction that claimed it (or left by an older version), before any answer.
 */
export type IdempotencyRecord = { requestHash: string; createdAt: Date } & (
  | { status: 'IN_PROGRESS'; responseStatus: number | null; responseBody: string | null; responseData: Buffer | null; responseDataBytes: number | null }
  | ({ status: 'COMPLETED'; responseStatus: number } & KeptAnswer)
);

/**
 * What a completed key keeps: the response body exactly as first sent (JSON text), or the body's
 * `data` as first sent, compressed (gzip), with the length of its text in bytes.
 */
type KeptAnswer =
  { responseBody: string; responseData: null; responseDataBytes: null } | { responseBody: null; responseData: Buffer; responseDataBytes: number };

/**
 * Runs `fn` with the transaction's lock waits bounded by `ms` (PostgreSQL's lock_timeout, local to
 * the transaction), then puts the previous bound back. A wait that runs out fails the statement
 * with SQLSTATE 55P03 (see isLockWaitTimeout) and aborts the transaction.
 */
export async function withLockWait<T>(tx: Queryable, ms: number, fn: () => Promise<T>): Promise<T> {
  const [previous] = await tx.query<{ value: string }>("SELECT current_setting('lock_timeout') AS value");
  await tx.query("SELECT set_config('lock_timeout', $1, true)", [`${ms}ms`]);
  const result = await fn();
  await tx.query("SELECT set_config('lock_timeout', $1, true)", [previous!.value]);
  return result;
}

export function isLockWaitTimeout(error: unknown): boolean {
  return (error as { code?: unknown } | null)?.code === '55P03';
}

/**
 * Takes the key for a first execution; false when it exists. While the transaction that inserted
 * it runs, a second insert of the same key waits for it (the unique index), so a concurrent repeat
 * sees the outcome: the stored answer after a commit, no key at all after a rollback.
 */
export async function claimIdempotencyKey(tx: Queryable, userId: string, key: string, requestHash: string, now: Date): Promise<boolean> {
  const rows = await tx.query(
    `INSERT INTO idempotency_keys (user_id, key, request_hash, status, created_at, locked_at)
     VALUES ($1, $2, $3, 'IN_PROGRESS', $4, $4) ON CONFLICT (user_id, key) DO NOTHING RETURNING key`,
    [userId, key, requestHash, now],
  );
  return rows.length === 1;
}

/** The key's record, locked for the rest of the transaction. */
export async function lockIdempotencyKey(tx: Queryable, userId: string, key: string): Promise<IdempotencyRecord | null> {
  const rows = await tx.query<IdempotencyRecord>(
    `SELECT k.request_hash AS "requestHash", k.status, k.response_status AS "responseStatus", k.response_body AS "responseBody",
            k.response_data AS "responseData", k.response_data_bytes AS "responseDataBytes", k.created_at AS "createdAt"
       FROM idempotency_keys k WHERE k.user_id = $1 AND k.key = $2 FOR UPDATE OF k`,
    [userId, key],
  );
  return rows[0] ?? null;
}

/** Makes a locked key new again (past its retention, or left IN_PROGRESS by an older version). */
export async function takeOverIdempotencyKey(tx: Queryable, userId: string, key: string, requestHash: string, now: Date): Promise<void> {
  await tx.query(
    `UPDATE idempotency_keys SET request_hash = $3, status = 'IN_PROGRESS', response_status = NULL, response_body = NULL, response_data = NULL, response_data_bytes = NULL,
            created_at = $4, locked_at = $4
      WHERE user_id = $1 AND key = $2`,
    [userId, key, requestHash, now],
  );
}

/** The key's answer: its body as JSON text, or its data compressed (with the text's length). */
export async function completeIdempotencyKey(
  tx: Queryable,
  userId: string,
  key: string,
  response: { status: number; bodyText: string | null; data: { gzip: Buffer; bytes: number } | null },
): Promise<void> {
  await tx.query(
    `UPDATE idempotency_keys SET status = 'COMPLETED', response_status = $3, response_body = $4, response_data = $5, response_data_bytes = $6
      WHERE user_id = $1 AND key = $2`,
    [userId, key, response.status, response.bodyText, response.data?.gzip ?? null, response.data?.bytes ?? null],
  );
}
