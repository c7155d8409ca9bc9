import type { Response } from 'express';
import type { components } from '../../../generated/api.js';
import { DomainError, type DomainErrorOptions, type ErrorCode, type ErrorVariant } from '../../domain/errors.js';
import { JsonText } from '../../usecases/answers/jsonText.js';

type ErrorEnvelope = components['schemas']['ErrorEnvelope'];

/** Each code's status: a code added to the spec fails to compile here until it has one. */
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
  SCREENING_HIT: 409,
  IDEMPOTENCY_KEY_REUSED: 422,
  RATE_LIMITED: 429,
};

const SERVICE_UNAVAILABLE_RETRY_SECONDS = 2;

/** The status of a variant, which overrides its code's (a variant added to the domain fails to compile here). */
const STATUS_OF_VARIANT: Record<ErrorVariant, number> = {
  // The request exists and stays QUOTE_PROVIDED: a conflict with its state, not a bad request.
  SHORTFALL_AT_ACCEPT: 409,
};

/** A domain error as it is answered: its status and the envelope. */
export interface ErrorResponse {
  status: number;
  body: ErrorEnvelope;
}

/** The one mapping of a domain error to its answer, for the error handler and for idempotent answers. */
export function errorResponse(error: DomainError): ErrorResponse {
  const { variant } = error;
  return { status: variant === undefined ? STATUS_OF[error.code] : STATUS_OF_VARIANT[variant], body: { success: false, error: wireError(error) } };
}

/**
 * The envelope's `error`, field by field in one order: whatever object it is read from (a domain
 * error, a stored answer), nothing else of it reaches the client. `reason`, `field` and
 * `entryIndex` are there whenever the problem has them, one problem or several.
 */
function wireError(error: ErrorEnvelope['error']): ErrorEnvelope['error'] {
  const { code, message, reason, field, entryIndex, details, detailsOmitted } = error;
  return {
    code,
    message,
    ...(reason !== undefined ? { reason } : {}),
    ...(field !== undefined ? { field } : {}),
    ...(entryIndex !== undefined ? { entryIndex } : {}),
    ...(details ? { details } : {}),
    ...(detailsOmitted ? { detailsOmitted } : {}),
  };
}

/**
 * Errors are written with res.end, past the response validator's res.json hook: an error
 * envelope must always reach the client, never turn into the framework's HTML 500. The spec
 * still lists every status each operation returns; the contract tests check the envelopes.
 * The envelope is built again from its fields, so that a stored answer reads as a fresh one.
 */
export function sendErrorResponse(res: Response, { status, body }: ErrorResponse): void {
  // A dependency that is away is usually back within seconds: say when to try again.
  if (status === 503 && !res.hasHeader('Retry-After')) res.setHeader('Retry-After', String(SERVICE_UNAVAILABLE_RETRY_SECONDS));
  const envelope: ErrorEnvelope = { success: false, error: wireError(body.error) };
  res.status(status).type('application/json').end(JSON.stringify(envelope));
}

/** An error said where it happens (a pipeline step before any use case): its code's status. */
export function sendError(res: Response, code: ErrorCode, message: string, options: DomainErrorOptions = {}): void {
  sendErrorResponse(res, errorResponse(new DomainError(code, message, options)));
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

const SUCCESS_HEAD = '{"success":true,"data":';

/**
 * The success envelope around JSON text taken a part at a time (a request streamed as it is read,
 * an answer held compressed): a part is taken only while the socket holds less than BUFFERED_BYTES,
 * so about a page is ever in the process. With its length known (`bytes`) the answer has a
 * Content-Length; else it is sent chunked. A client that goes away stops the reading. A failure
 * after the first bytes can only end the connection (the error handler does), which the client
 * sees as a body cut short.
 */
export async function streamData(res: Response, status: number, bytes: number | null, parts: AsyncIterable<string | Buffer>): Promise<void> {
  res.status(status).type('application/json');
  if (bytes !== null) res.setHeader('Content-Length', Buffer.byteLength(SUCCESS_HEAD) + bytes + 1);
  res.write(SUCCESS_HEAD);
  for await (const part of parts) {
    const full = !res.write(part) && res.writableLength >= BUFFERED_BYTES;
    if (res.destroyed || (full && !(await drained(res)))) return;
  }
  res.end('}');
}

/**
 * What an answer may leave in the socket's buffer before its reading waits for the socket: about
 * a page of a request's items. Waiting at the socket's own mark (a part or two) costs a turn of the
 * event loop and a write per part; this way a page goes out in a few large writes, and a slow
 * reader still holds only about a page in the process.
 */
const BUFFERED_BYTES = 1 << 20;

/** True once the socket has taken what was written; false when the connection closed first. */
function drained(res: Response): Promise<boolean> {
  if (res.destroyed) return Promise.resolve(false);
  return new Promise((resolve) => {
    const settle = (value: boolean) => () => {
      res.off('drain', onDrain);
      res.off('close', onClose);
      resolve(value);
    };
    const onDrain = settle(true);
    const onClose = settle(false);
    res.once('drain', onDrain);
    res.once('close', onClose);
  });
}
