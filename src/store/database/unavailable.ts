import { DomainError } from '../../domain/errors.js';

/**
 * How a failure of the database reaches the use cases: either a conflict between transactions,
 * which the runner retries (deadlock 40P01, serialization failure 40001), or the database being
 * out of reach or out of time, which becomes SERVICE_UNAVAILABLE (503 with Retry-After) — never
 * a 500, and never a stack or SQL in the answer.
 */
const RETRYABLE = new Set(['40P01', '40001']);

/**
 * SQLSTATEs meaning "the server is not there for us": 08xxx connection exceptions, 57P01–57P03
 * the server shutting down or starting, 53300 too many connections, 25006 a write refused because
 * the server is now a standby (a failover demoted it; with several hosts the primary is sought again). A session bound reached
 * (55P03 lock_timeout, 57014 statement_timeout) stays a pg error: a caller may expect it (an
 * Idempotency-Key still in progress), and the HTTP error handler answers the rest 503.
 */
const UNAVAILABLE_STATES = new Set(['57P01', '57P02', '57P03', '53300', '25006']);
/** Node's socket errors, and pg's own words for a pool or connection timeout (it gives them no code). */
const UNAVAILABLE_SOCKET_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN']);
const PG_TIMEOUT_MESSAGES = [
  'timeout exceeded when trying to connect',
  'timeout expired',
  'Connection terminated',
  'Query read timeout',
  'Client has encountered a connection error',
  'Connection terminated unexpectedly',
];

function codeOf(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
}

export function isRetryableConflict(error: unknown): boolean {
  const code = codeOf(error);
  return code !== undefined && RETRYABLE.has(code);
}

export function isDatabaseUnavailable(error: unknown): boolean {
  if (error instanceof DomainError) return false;
  const code = codeOf(error);
  if (code !== undefined && (UNAVAILABLE_STATES.has(code) || code.startsWith('08') || UNAVAILABLE_SOCKET_CODES.has(code))) return true;
  const message = error instanceof Error ? error.message : '';
  return PG_TIMEOUT_MESSAGES.some((text) => message.includes(text));
}

function serviceUnavailable(): DomainError {
  return new DomainError('SERVICE_UNAVAILABLE', 'The database is unavailable; nothing was changed. Retry after the Retry-After seconds');
}

/** A database failure as the use cases should see it: unavailable → SERVICE_UNAVAILABLE, anything else unchanged. */
export function asStoreError(error: unknown): unknown {
  return isDatabaseUnavailable(error) ? serviceUnavailable() : error;
}
