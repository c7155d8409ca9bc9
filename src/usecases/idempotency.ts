import { createHash } from 'node:crypto';
import { DomainError } from '../domain/errors.js';
import type { Database } from '../store/db.js';
import {
  claimIdempotencyKey,
  completeIdempotencyKey,
  findIdempotencyKey,
  releaseIdempotencyKey,
  takeOverIdempotencyKey,
} from '../store/idempotency.js';

export interface StoredResponse {
  status: number;
  body: unknown;
}

/** Keys are kept at least this long (the spec promises 24 hours). */
const IDEMPOTENCY_RETENTION_MS = 24 * 60 * 60 * 1000;
/** A holder silent for this long is taken to have crashed; its key can be taken over. */
const STALE_HOLD_MS = 60_000;
/** A concurrent repeat waits this long for the first execution before answering 409. */
const WAIT_FOR_FIRST_MS = 10_000;
const POLL_MS = 25;

/** Same method, path and JSON body (whatever its key order or spacing) → same fingerprint. */
export function fingerprint(method: string, path: string, body: unknown): string {
  return createHash('sha256').update(`${method} ${path}\n${canonicalJson(body ?? null)}`).digest('hex');
}

function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([key, item]) => `${JSON.stringify(key)}:${canonicalJson(item)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

/**
 * Idempotency-Key semantics (Stripe's): the first request with a key executes; a repeat with the
 * same body replays the stored response; the same key with another body is 422
 * IDEMPOTENCY_KEY_REUSED; a repeat while the first still runs waits for it. 5xx answers are not
 * stored, so the client may retry them.
 */
export async function runIdempotent(
  db: Database,
  clock: () => Date,
  scope: { userId: string; key: string; requestHash: string },
  execute: () => Promise<StoredResponse>,
): Promise<StoredResponse> {
  const { userId, key, requestHash } = scope;
  const started = Date.now();
  for (;;) {
    const now = clock();
    const claimed = await db.transaction(async (tx) => {
      if (await claimIdempotencyKey(tx, userId, key, requestHash, now)) return { owner: true as const };
      const record = await findIdempotencyKey(tx, userId, key);
      if (!record) return { owner: false as const, record: null };
      const expired = now.getTime() - record.created_at.getTime() > IDEMPOTENCY_RETENTION_MS;
      const abandoned = record.status === 'IN_PROGRESS' && now.getTime() - record.locked_at.getTime() > STALE_HOLD_MS;
      if ((expired || abandoned) && (await takeOverIdempotencyKey(tx, userId, key, record.locked_at, requestHash, now))) return { owner: true as const };
      return { owner: false as const, record };
    });
    if (claimed.owner) return executeAndStore(db, userId, key, execute);
    const record = claimed.record;
    if (!record) continue; // released between our two reads: try to claim again
    if (record.request_hash !== requestHash) {
      throw new DomainError('IDEMPOTENCY_KEY_REUSED', 'This Idempotency-Key was used with a different request; use a new key');
    }
    if (record.status === 'COMPLETED') return { status: record.response_status!, body: JSON.parse(record.response_body!) as unknown };
    if (Date.now() - started > WAIT_FOR_FIRST_MS) {
      throw new DomainError('IDEMPOTENCY_KEY_IN_PROGRESS', 'A request with this Idempotency-Key is still being processed; retry shortly');
    }
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}

async function executeAndStore(db: Database, userId: string, key: string, execute: () => Promise<StoredResponse>): Promise<StoredResponse> {
  let response: StoredResponse;
  try {
    response = await execute();
  } catch (error) {
    await db.transaction((tx) => releaseIdempotencyKey(tx, userId, key));
    throw error;
  }
  await db.transaction((tx) =>
    response.status >= 500 ? releaseIdempotencyKey(tx, userId, key) : completeIdempotencyKey(tx, userId, key, response.status, JSON.stringify(response.body)),
  );
  return response;
}
