import { createHash } from 'node:crypto';
import { DomainError } from '../domain/errors.js';
import type { Database, Queryable } from '../store/db.js';
import {
  claimIdempotencyKey,
  completeIdempotencyKey,
  isLockWaitTimeout,
  lockIdempotencyKey,
  takeOverIdempotencyKey,
  withLockWait,
} from '../store/idempotency.js';
import { joinTransaction } from '../store/savepoint.js';
import type { UseCaseDeps } from './deps.js';
import { faultPoint } from './faults.js';
import { StoredJson } from './storedJson.js';

export interface StoredResponse {
  status: number;
  /** The envelope; a success's `data` may be a StoredJson (kept with the key, and replayed from it). */
  body: unknown;
}

/** A concurrent repeat waits this long for the first execution before answering 409. */
const WAIT_FOR_FIRST_MS = 10_000;

/**
 * Same method, path, JSON body (whatever its key order or spacing) and query → same fingerprint.
 * An empty query adds nothing, so keys stored before queries counted keep their fingerprint.
 */
export function fingerprint(method: string, path: string, body: unknown, query: Record<string, unknown> = {}): string {
  const queryPart = Object.keys(query).length > 0 ? `?${canonicalJson(query)}` : '';
  return createHash('sha256')
    .update(`${method} ${path}${queryPart}\n${canonicalJson(body ?? null)}`)
    .digest('hex');
}

function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([key, item]) => `${JSON.stringify(key)}:${canonicalJson(item)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

interface Scope {
  userId: string;
  key: string;
  requestHash: string;
}

/** A 5xx answer: its transaction rolls back (effects and key alike) and it is answered as is. */
class NotStored extends Error {
  constructor(readonly response: StoredResponse) {
    super('not stored');
  }
}

/**
 * Idempotency-Key semantics (Stripe's), in ONE transaction: the key is claimed, the operation runs
 * (`execute` gets a Database whose transactions are savepoints of this one) and its answer is
 * stored, all committed together. After any crash a retry therefore either runs the operation for
 * the first time (nothing committed) or replays the original answer with the original ids. A
 * repeat with the same body replays the stored answer; the same key with another body is 422
 * IDEMPOTENCY_KEY_REUSED; a repeat while the first still runs waits for its commit (10 s at most,
 * then 409 IDEMPOTENCY_KEY_IN_PROGRESS). 5xx answers are not stored, so the client may retry them.
 */
export async function runIdempotent(
  deps: Pick<UseCaseDeps, 'db' | 'clock' | 'config'>,
  scope: Scope,
  execute: (db: Database) => Promise<StoredResponse>,
): Promise<StoredResponse> {
  let executed = false;
  try {
    const response = await deps.db.transaction(async (tx) => {
      const replay = await claimOrReplay(tx, scope, deps.clock(), deps.config.retention.idempotencyKeyHours);
      if (replay) return replay;
      executed = true;
      const answer = await execute(joinTransaction(tx, deps.db.kind));
      if (answer.status >= 500) throw new NotStored(answer);
      await completeIdempotencyKey(tx, scope.userId, scope.key, keptResponse(answer));
      faultPoint(deps.config, 'idempotency:before-commit');
      return answer;
    });
    if (executed) faultPoint(deps.config, 'idempotency:after-commit');
    return response;
  } catch (error) {
    if (error instanceof NotStored) return error.response;
    if (isLockWaitTimeout(error)) {
      throw new DomainError('IDEMPOTENCY_KEY_IN_PROGRESS', 'A request with this Idempotency-Key is still being processed; retry shortly');
    }
    throw error;
  }
}

/**
 * Claims the key for this transaction (null: execute), or returns the answer to replay. A key past
 * its retention window, or left IN_PROGRESS by a version that claimed keys in a transaction of
 * their own, is taken over: it counts as new.
 */
async function claimOrReplay(tx: Queryable, scope: Scope, now: Date, retentionHours: number): Promise<StoredResponse | null> {
  const { userId, key, requestHash } = scope;
  const record = await withLockWait(tx, WAIT_FOR_FIRST_MS, async () => {
    if (await claimIdempotencyKey(tx, userId, key, requestHash, now)) return undefined;
    return lockIdempotencyKey(tx, userId, key);
  });
  // undefined: claimed, ours to execute. null: deleted between our insert and our read (the
  // retention worker): try again.
  if (record === undefined) return null;
  if (record === null) return claimOrReplay(tx, scope, now, retentionHours);
  const expired = now.getTime() - record.createdAt.getTime() > retentionHours * 3_600_000;
  if (expired || record.status === 'IN_PROGRESS') {
    await takeOverIdempotencyKey(tx, userId, key, requestHash, now);
    return null;
  }
  if (record.requestHash !== requestHash) {
    throw new DomainError('IDEMPOTENCY_KEY_REUSED', 'This Idempotency-Key was used with a different request; use a new key');
  }
  if (record.responseAnswerId !== null) {
    return { status: record.responseStatus, body: { success: true, data: new StoredJson(record.responseAnswerId, record.responseAnswerBytes) } };
  }
  return { status: record.responseStatus, body: JSON.parse(record.responseBody) as unknown };
}

/**
 * What the key keeps of an answer: the body as JSON text, or, when its data is a stored answer
 * (already written in this transaction), that answer's id: the text is never in the process.
 */
function keptResponse(answer: StoredResponse): { status: number; bodyText: string | null; answerId: string | null } {
  const data = (answer.body as { data?: unknown }).data;
  if (data instanceof StoredJson) return { status: answer.status, bodyText: null, answerId: data.answerId };
  return { status: answer.status, bodyText: JSON.stringify(answer.body), answerId: null };
}
