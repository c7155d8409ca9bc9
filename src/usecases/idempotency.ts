import { createHash } from 'node:crypto';
import { DomainError, type ErrorCode } from '../domain/errors.js';
import type { Database, Queryable } from '../store/database/db.js';
import {
  claimIdempotencyKey,
  completeIdempotencyKey,
  isLockWaitTimeout,
  lockIdempotencyKey,
  takeOverIdempotencyKey,
  withLockWait,
} from '../store/access/idempotency.js';
import { joinTransaction } from '../store/database/savepoint.js';
import type { UseCaseDeps } from './deps.js';
import { faultPoint } from './operations/faults.js';
import { PackedJson } from './answers/packedJson.js';

/**
 * What an operation run under an Idempotency-Key ended with: its result (`R`, the caller's: what
 * it returned), or the domain error that refused it. A refusal is an answer like a result: kept
 * with the key and replayed to every repeat.
 */
export type IdempotentOutcome<R> = { ok: true; result: R } | { ok: false; error: DomainError };

/**
 * An outcome as the key keeps it, in the store's columns: a number and JSON text, or instead of
 * the text an answer held compressed (its envelope's data: a payroll request of any size). What
 * they mean is the caller's codec's business, not this use case's.
 */
export interface KeptOutcome {
  status: number;
  bodyText: string | null;
  answer: PackedJson<unknown> | null;
}

/** How the caller writes its outcomes for a key and reads them back, so that a repeat gets the same answer. */
export interface OutcomeCodec<R> {
  keep(outcome: IdempotentOutcome<R>): KeptOutcome;
  replay(kept: KeptOutcome): IdempotentOutcome<R>;
}

/** Refusals that are the service's failure, not an answer: never kept, so that a retry may succeed. */
const NOT_KEPT: ReadonlySet<ErrorCode> = new Set<ErrorCode>(['INTERNAL_ERROR', 'SERVICE_UNAVAILABLE']);

/** Runs `execute` once: what it returns, or the domain error that refused it (any other failure is thrown). */
export async function outcomeOf<R>(execute: () => Promise<R>): Promise<IdempotentOutcome<R>> {
  try {
    return { ok: true, result: await execute() };
  } catch (error) {
    if (!(error instanceof DomainError) || NOT_KEPT.has(error.code)) throw error;
    return { ok: false, error };
  }
}

/** A concurrent repeat waits this long for the first execution before IDEMPOTENCY_KEY_IN_PROGRESS. */
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

/**
 * Idempotency-Key semantics (Stripe's), in ONE transaction: the key is claimed, the operation runs
 * (`execute` gets a Database whose transactions are savepoints of this one) and its answer is
 * kept (by the caller's codec), all committed together. After any crash a retry therefore either
 * runs the operation for the first time (nothing committed) or replays the original outcome with the
 * original ids. A repeat with the same body replays the kept outcome; the same key with another body
 * is IDEMPOTENCY_KEY_REUSED; a repeat while the first still runs waits for its commit (10 s at most,
 * then IDEMPOTENCY_KEY_IN_PROGRESS; a lock wait inside the operation is a database timeout, 503, and releases
 * the key with everything else). The service's own failures are not kept (NOT_KEPT), so the
 * client may retry them.
 */
export async function runIdempotent<R>(
  deps: Pick<UseCaseDeps, 'db' | 'clock' | 'config'>,
  scope: Scope,
  execute: (db: Database) => Promise<R>,
  codec: OutcomeCodec<R>,
): Promise<IdempotentOutcome<R>> {
  let executed = false;
  let claiming = false;
  try {
    const outcome = await deps.db.transaction(async (tx) => {
      claiming = true;
      const replay = await claimOrReplay(tx, scope, deps.clock(), deps.config.retention.idempotencyKeyHours);
      claiming = false;
      if (replay) return codec.replay(replay);
      executed = true;
      // A failure of ours (not a refusal) is thrown: the transaction rolls back, effects and key alike.
      const done = await outcomeOf(() => execute(joinTransaction(tx, deps.db.kind)));
      await completeIdempotencyKey(tx, scope.userId, scope.key, storedForm(codec.keep(done)));
      faultPoint(deps.config, 'idempotency:before-commit');
      return done;
    });
    if (executed) faultPoint(deps.config, 'idempotency:after-commit');
    return outcome;
  } catch (error) {
    // Only a wait for the key itself means another request with it is running. A lock or statement
    // timeout inside the operation (a row another transaction holds) rolled the claim back with
    // everything else: it stays a database timeout, 503 with Retry-After, and a retry may succeed.
    if (claiming && isLockWaitTimeout(error)) {
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
async function claimOrReplay(tx: Queryable, scope: Scope, now: Date, retentionHours: number): Promise<KeptOutcome | null> {
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
  if (record.responseData !== null) {
    return { status: record.responseStatus, bodyText: null, answer: new PackedJson(record.responseData, record.responseDataBytes) };
  }
  return { status: record.responseStatus, bodyText: record.responseBody, answer: null };
}

/** A kept outcome in the store's terms: its text, or its compressed data and that data's length. */
function storedForm(kept: KeptOutcome): { status: number; bodyText: string | null; data: { gzip: Buffer; bytes: number } | null } {
  return { status: kept.status, bodyText: kept.answer ? null : kept.bodyText, data: kept.answer && { gzip: kept.answer.gzip, bytes: kept.answer.bytes } };
}
