import type { Queryable } from './db.js';

export interface IdempotencyRecord {
  request_hash: string;
  status: 'IN_PROGRESS' | 'COMPLETED';
  response_status: number | null;
  /** The response body exactly as first sent (JSON text). */
  response_body: string | null;
  created_at: Date;
  locked_at: Date;
}

/** Takes the key for a first execution; false when someone already holds or used it. */
export async function claimIdempotencyKey(tx: Queryable, userId: string, key: string, requestHash: string, now: Date): Promise<boolean> {
  const rows = await tx.query(
    `INSERT INTO idempotency_keys (user_id, key, request_hash, status, created_at, locked_at)
     VALUES ($1, $2, $3, 'IN_PROGRESS', $4, $4) ON CONFLICT (user_id, key) DO NOTHING RETURNING key`,
    [userId, key, requestHash, now],
  );
  return rows.length === 1;
}

export async function findIdempotencyKey(tx: Queryable, userId: string, key: string): Promise<IdempotencyRecord | null> {
  const rows = await tx.query<IdempotencyRecord>(
    'SELECT request_hash, status, response_status, response_body, created_at, locked_at FROM idempotency_keys WHERE user_id = $1 AND key = $2',
    [userId, key],
  );
  return rows[0] ?? null;
}

/** Takes over a key whose holder went silent (crashed) or that has outlived its retention. */
export async function takeOverIdempotencyKey(tx: Queryable, userId: string, key: string, seenLockedAt: Date, requestHash: string, now: Date): Promise<boolean> {
  const rows = await tx.query(
    `UPDATE idempotency_keys SET locked_at = $4, request_hash = $5, status = 'IN_PROGRESS', response_status = NULL, response_body = NULL,
            created_at = CASE WHEN status = 'COMPLETED' THEN $4 ELSE created_at END
      WHERE user_id = $1 AND key = $2 AND locked_at = $3 RETURNING key`,
    [userId, key, seenLockedAt, now, requestHash],
  );
  return rows.length === 1;
}

export async function completeIdempotencyKey(tx: Queryable, userId: string, key: string, status: number, bodyText: string): Promise<void> {
  await tx.query("UPDATE idempotency_keys SET status = 'COMPLETED', response_status = $3, response_body = $4 WHERE user_id = $1 AND key = $2", [
    userId,
    key,
    status,
    bodyText,
  ]);
}

export async function releaseIdempotencyKey(tx: Queryable, userId: string, key: string): Promise<void> {
  await tx.query('DELETE FROM idempotency_keys WHERE user_id = $1 AND key = $2', [userId, key]);
}
