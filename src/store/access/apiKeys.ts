import type { Queryable } from '../database/db.js';

export interface ApiKeyRecord {
  id: string;
  customerId: string;
  userId: string;
  name: string;
  prefix: string;
  createdAt: Date;
  expiresAt: Date | null;
  lastUsedAt: Date | null;
  revokedAt: Date | null;
}

/** What authenticating with a key needs: the row with the hash to compare against. */
export interface ApiKeyCredential extends ApiKeyRecord {
  secretHash: Buffer;
}

const KEY_COLUMNS = `id, customer_id AS "customerId", user_id AS "userId", name, prefix, created_at AS "createdAt", expires_at AS "expiresAt",
  last_used_at AS "lastUsedAt", revoked_at AS "revokedAt"`;

export async function insertApiKey(tx: Queryable, key: Omit<ApiKeyCredential, 'lastUsedAt' | 'revokedAt'> & { publicId: string }): Promise<ApiKeyRecord> {
  const rows = await tx.query<ApiKeyRecord>(
    `INSERT INTO api_keys (id, customer_id, user_id, name, public_id, prefix, secret_hash, created_at, expires_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) RETURNING ${KEY_COLUMNS}`,
    [key.id, key.customerId, key.userId, key.name, key.publicId, key.prefix, key.secretHash, key.createdAt, key.expiresAt],
  );
  return rows[0]!;
}

/** The keys that still authenticate at `now`: neither revoked nor expired. */
export async function countActiveApiKeys(tx: Queryable, customerId: string, now: Date): Promise<number> {
  const rows = await tx.query<{ n: number }>(
    'SELECT count(*)::int AS n FROM api_keys WHERE customer_id = $1 AND revoked_at IS NULL AND (expires_at IS NULL OR expires_at > $2)',
    [customerId, now],
  );
  return rows[0]!.n;
}

/** One page of a customer's keys, newest first, after `page.after` (the last row of the previous page). */
export async function listApiKeys(
  tx: Queryable,
  customerId: string,
  page: { after: { createdAt: Date; id: string } | null; limit: number },
): Promise<ApiKeyRecord[]> {
  return tx.query<ApiKeyRecord>(
    `SELECT ${KEY_COLUMNS} FROM api_keys WHERE customer_id = $1 AND ($2::timestamptz IS NULL OR (created_at, id) < ($2, $3::uuid))
      ORDER BY created_at DESC, id DESC LIMIT $4`,
    [customerId, page.after?.createdAt ?? null, page.after?.id ?? null, page.limit],
  );
}

export async function findApiKey(tx: Queryable, apiKeyId: string): Promise<ApiKeyRecord | null> {
  const rows = await tx.query<ApiKeyRecord>(`SELECT ${KEY_COLUMNS} FROM api_keys WHERE id = $1`, [apiKeyId]);
  return rows[0] ?? null;
}

export async function findApiKeyCredential(tx: Queryable, publicId: string): Promise<ApiKeyCredential | null> {
  const rows = await tx.query<ApiKeyCredential>(`SELECT ${KEY_COLUMNS}, secret_hash AS "secretHash" FROM api_keys WHERE public_id = $1`, [publicId]);
  return rows[0] ?? null;
}

/** Revokes a key once: a second revocation keeps the first time. */
export async function revokeApiKeyRow(tx: Queryable, apiKeyId: string, at: Date): Promise<ApiKeyRecord> {
  const rows = await tx.query<ApiKeyRecord>(`UPDATE api_keys SET revoked_at = COALESCE(revoked_at, $2) WHERE id = $1 RETURNING ${KEY_COLUMNS}`, [apiKeyId, at]);
  return rows[0]!;
}

export interface ApiKeyAuditEntry {
  apiKeyId: string;
  action: 'CREATED' | 'REVOKED' | 'USED';
  at: Date;
  userId: string | null;
  requestId: string | null;
  method: string | null;
  path: string | null;
  statusCode: number | null;
}

/**
 * Appends audit entries in one statement, and moves each used key's last_used_at forward to its
 * latest use among them (never backwards: another instance may have written a later one).
 */
export async function appendApiKeyAudit(tx: Queryable, entries: readonly ApiKeyAuditEntry[]): Promise<void> {
  if (entries.length === 0) return;
  const column = <K extends keyof ApiKeyAuditEntry>(key: K) => entries.map((entry) => entry[key]);
  await tx.query(
    `WITH entries AS (
       SELECT * FROM unnest($1::uuid[], $2::text[], $3::timestamptz[], $4::uuid[], $5::text[], $6::text[], $7::text[], $8::int[])
                AS e(api_key_id, action, at, user_id, request_id, method, path, status_code)
     ), audited AS (
       INSERT INTO api_key_audit (api_key_id, action, at, user_id, request_id, method, path, status_code)
       SELECT api_key_id, action, at, user_id, request_id, method, path, status_code FROM entries
     )
     UPDATE api_keys k SET last_used_at = GREATEST(k.last_used_at, used.at)
       FROM (SELECT api_key_id, max(at) AS at FROM entries WHERE action = 'USED' GROUP BY api_key_id) used
      WHERE k.id = used.api_key_id`,
    [column('apiKeyId'), column('action'), column('at'), column('userId'), column('requestId'), column('method'), column('path'), column('statusCode')],
  );
}

/** The audit entries of one key, oldest first (tests and operators). */
export async function listApiKeyAudit(tx: Queryable, apiKeyId: string): Promise<ApiKeyAuditEntry[]> {
  return tx.query<ApiKeyAuditEntry>(
    `SELECT api_key_id AS "apiKeyId", action, at, user_id AS "userId", request_id AS "requestId", method, path, status_code AS "statusCode"
       FROM api_key_audit WHERE api_key_id = $1 ORDER BY id`,
    [apiKeyId],
  );
}
