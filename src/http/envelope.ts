import type { Response } from 'express';
import type { components } from '../../generated/api.js';
import { JsonText } from '../usecases/jsonText.js';

type ErrorEnvelope = components['schemas']['ErrorEnvelope'];
type ErrorDetail = components['schemas']['ErrorDetail'];
/** The spec's error codes: a code added there fails to compile here until it has a status. */
export type ErrorCode = components['schemas']['ErrorCode'];

export const STATUS_OF: Record<ErrorCode, number> = {
  VALIDATION_ERROR: 400,
  EXCHANGE_RATE_UNAVAILABLE: 400,
  UNAUTHORIZED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  METHOD_NOT_ALLOWED: 405,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  INTERNAL_ERROR: 500,
  SERVICE_UNAVAILABLE: 503,
  FEE_HASH_EXPIRED: 400,
  FEE_HASH_MISMATCH: 400,
  INSUFFICIENT_FUNDS: 400,
  FEE_ESTIMATE_UNAVAILABLE: 400,
  FEE_HASH_ALREADY_USED: 409,
  QUOTE_EXPIRED: 409,
  INVALID_STATE: 409,
  IDEMPOTENCY_KEY_IN_PROGRESS: 409,
  DUPLICATE_BENEFICIARY: 409,
  IDEMPOTENCY_KEY_REUSED: 422,
  RATE_LIMITED: 429,
};

const SERVICE_UNAVAILABLE_RETRY_SECONDS = 2;

/**
 * Errors are written with res.end, past the response validator's res.json hook: an error
 * envelope must always reach the client, never turn into the framework's HTML 500. The spec
 * still lists every status each operation returns; the contract tests check the envelopes.
 */
export function sendError(res: Response, code: ErrorCode, message: string, status = STATUS_OF[code], details?: ErrorDetail[]): void {
  // A dependency that is away is usually back within seconds: say when to try again.
  if (status === 503 && !res.hasHeader('Retry-After')) res.setHeader('Retry-After', String(SERVICE_UNAVAILABLE_RETRY_SECONDS));
  const body: ErrorEnvelope = { success: false, error: { code, message, ...(details ? { details } : {}) } };
  res.status(status).type('application/json').end(JSON.stringify(body));
}

/**
 * The success envelope. JSON text already built is sent as it is, unless `parseJsonText` (the
 * response validator is on: it checks what passes through res.json, so the text is parsed for it).
 */
export function sendData<T>(res: Response, status: number, data: T | JsonText<T>, parseJsonText = false): void {
  if (!(data instanceof JsonText)) res.status(status).json({ success: true as const, data });
  else if (parseJsonText) res.status(status).json({ success: true as const, data: data.parse() });
  else sendParts(res.status(status).type('application/json'), ['{"success":true,"data":', ...data.parts, '}']);
}

/**
 * Writes the parts one after the other, never joined (JsonText says why), in one flush: corked
 * until end(), which uncorks fully. Node drops the body of an answer to HEAD.
 */
function sendParts(res: Response, parts: readonly string[]): void {
  res.setHeader(
    'Content-Length',
    parts.reduce((bytes, part) => bytes + Buffer.byteLength(part), 0),
  );
  res.cork();
  for (const part of parts) res.write(part);
  res.end();
}
