import type { ErrorRequestHandler, RequestHandler, Response } from 'express';
import type { Logger } from 'pino';
import { DomainError, type ErrorCode, type ErrorDetail, type ErrorPlace } from '../../domain/errors.js';
import { UUID_PATTERN } from '../../domain/ids.js';
import { BEARER_REQUIRED, unauthorizedReason } from '../access/auth.js';
import { requestFields } from './requestContext.js';
import { errorResponse, sendError, sendErrorResponse } from './envelope.js';

interface ValidatorIssue {
  path?: string;
  message?: string;
  /** The JSON Schema keyword that failed, as `<keyword>.openapi.validation`; absent for the validator's own checks of query strings. */
  errorCode?: string;
}

interface HttpLikeError {
  status?: number;
  type?: string;
  message?: string;
  errors?: ValidatorIssue[];
}

const CODE_OF_STATUS: Record<number, ErrorCode> = {
  400: 'VALIDATION_ERROR',
  401: 'UNAUTHORIZED',
  403: 'FORBIDDEN',
  404: 'NOT_FOUND',
  405: 'METHOD_NOT_ALLOWED',
  413: 'PAYLOAD_TOO_LARGE',
  415: 'UNSUPPORTED_MEDIA_TYPE',
};

/** Unknown routes: the same envelope as every other error. */
export const notFoundHandler: RequestHandler = (req, res) => {
  sendError(res, 'NOT_FOUND', `No route for ${req.method} ${req.path}`);
};

/**
 * The one place an error becomes a response: domain errors, the validator's errors, the JSON
 * body parser's errors and anything unexpected (500 INTERNAL_ERROR, details only in the log).
 * Each is said as a domain error first, then answered by errorResponse.
 */
export function errorHandler(logger: Logger): ErrorRequestHandler {
  return (error: unknown, req, res, _next) => {
    if (res.headersSent) {
      // Too late for an envelope. An answer streamed from the database that failed midway: the
      // connection is ended, and the client sees a body shorter than its Content-Length.
      if (!res.writableEnded) {
        logger.error({ err: error, ...requestFields(res) }, 'failure after the answer had begun');
        res.destroy();
      }
      return;
    }
    const refusal = asDomainError(error, req.method, req.path, logger, requestFields(res));
    sendErrorResponse(res, errorResponse(withWhyOfSecurityRefusal(refusal, res)));
  };
}

/** A token or a role refused: the validator's own error has lost why, the request's locals have it. */
function withWhyOfSecurityRefusal(refusal: DomainError, res: Response): DomainError {
  if (refusal.reason !== undefined) return refusal;
  if (refusal.code === 'UNAUTHORIZED') return new DomainError('UNAUTHORIZED', refusal.message, { reason: unauthorizedReason(res) });
  if (refusal.code === 'FORBIDDEN' && res.locals.roleRefusal) return res.locals.roleRefusal;
  return refusal;
}

function asDomainError(error: unknown, method: string, path: string, logger: Logger, request: ReturnType<typeof requestFields>): DomainError {
  if (error instanceof DomainError) return error;
  const http = (error ?? {}) as HttpLikeError;
  if (http.type === 'entity.parse.failed') return new DomainError('VALIDATION_ERROR', 'The request body is not valid JSON');
  if (http.type === 'entity.too.large') return new DomainError('PAYLOAD_TOO_LARGE', 'The request body is too large');
  if (http.type === 'encoding.unsupported' || http.type === 'charset.unsupported') {
    return new DomainError('UNSUPPORTED_MEDIA_TYPE', 'The request body encoding is not supported');
  }
  const code = http.status !== undefined ? CODE_OF_STATUS[http.status] : undefined;
  if (code) {
    const details = validatorDetails(code, http);
    const first = code === 'VALIDATION_ERROR' ? http.errors?.[0] : undefined;
    return new DomainError(code, clientMessage(code, http, method, path), { ...(first ? placeOf(first) : {}), ...(details ? { details } : {}) });
  }
  if (isDatabaseTimeout(error)) {
    logger.warn({ err: error, ...request }, 'database statement or lock wait timed out');
    return new DomainError('SERVICE_UNAVAILABLE', 'The database did not answer in time; nothing was changed. Retry after the Retry-After seconds');
  }
  if (isUnrepresentableInput(error)) {
    // The contract let through a value PostgreSQL cannot hold (a NUL character, an id the uuid
    // type does not parse): the transaction rolled back; the caller's input is at fault, not us.
    logger.warn({ err: error, ...request }, 'input the database cannot represent');
    return new DomainError('VALIDATION_ERROR', 'The request contains a value that cannot be stored (a NUL character or a malformed id)');
  }
  logger.error({ err: error, ...request }, 'unexpected failure');
  return new DomainError('INTERNAL_ERROR', 'An unexpected error occurred; quote the X-Request-Id header when contacting support');
}

/**
 * SQLSTATEs (pg sets `code`) of a text value the database cannot parse or hold:
 * 22P02 invalid_text_representation (e.g. 'urn:uuid:…' for a uuid), 22021
 * character_not_in_repertoire (a NUL byte in text), 22P05 untranslatable_character (\u0000 in jsonb).
 */
const UNREPRESENTABLE_INPUT = new Set(['22P02', '22021', '22P05']);

/**
 * SQLSTATEs of a session bound reached (src/store/database/postgres.ts): 55P03 lock_timeout, 57014
 * statement_timeout, 25P03 idle_in_transaction_session_timeout. The transaction rolled back.
 */
const DATABASE_TIMEOUT = new Set(['55P03', '57014', '25P03']);

const sqlStateIn = (states: ReadonlySet<string>, error: unknown): boolean => {
  const sqlState = (error as { code?: unknown } | null)?.code;
  return typeof sqlState === 'string' && states.has(sqlState);
};
const isUnrepresentableInput = (error: unknown) => sqlStateIn(UNREPRESENTABLE_INPUT, error);
const isDatabaseTimeout = (error: unknown) => sqlStateIn(DATABASE_TIMEOUT, error);

function clientMessage(code: ErrorCode, error: HttpLikeError, method: string, path: string): string {
  switch (code) {
    case 'VALIDATION_ERROR':
      return (error.errors ?? []).map(describeIssue).join('; ') || error.message || 'The request is not valid';
    case 'NOT_FOUND':
      return `No route for ${method} ${path}`;
    case 'METHOD_NOT_ALLOWED':
      return `${method} is not allowed on ${path}`;
    case 'UNSUPPORTED_MEDIA_TYPE':
      return 'The request body must be application/json (or text/csv where the operation takes a CSV file)';
    case 'PAYLOAD_TOO_LARGE':
      return 'The request body is too large';
    case 'UNAUTHORIZED':
      // The validator's own wording for a missing or non-Bearer header, said once our way.
      return error.message?.startsWith('Authorization header') ? BEARER_REQUIRED : (error.message ?? BEARER_REQUIRED);
    default:
      return error.message ?? code;
  }
}

/** Several validator issues: each in `details`, with its field (one issue is said by the message and the error's own field). */
function validatorDetails(code: ErrorCode, error: HttpLikeError): ErrorDetail[] | undefined {
  const issues = error.errors ?? [];
  if (code !== 'VALIDATION_ERROR' || issues.length < 2) return undefined;
  return issues.map((issue) => ({ ...placeOf(issue), message: describeIssue(issue) }));
}

/** Parameters in headers, as the spec names them (the validator's paths have them in lower case). */
const HEADER_NAMES: Record<string, string> = { 'idempotency-key': 'Idempotency-Key' };

/**
 * An issue's place in the spec's ErrorField convention: '/body/amountSplitDetails/0/beneficiaryId'
 * → field '/amountSplitDetails/0/beneficiaryId' and entryIndex 0 (the validator's path is already
 * a JSON Pointer: ajv's instancePath under its location); '/query/limit' → 'limit';
 * '/params/requestId' → 'requestId'; '/headers/idempotency-key' → 'Idempotency-Key'. The body as
 * a whole has no field.
 */
function placeOf(issue: ValidatorIssue): ErrorPlace {
  const [, location, rest = ''] = /^\/([^/]+)(\/.*)?$/.exec(issue.path ?? '') ?? [];
  if (location === 'body') {
    const entry = /^\/amountSplitDetails\/(\d+)(?:\/|$)/.exec(rest);
    return { ...(rest ? { field: rest } : {}), ...(entry ? { entryIndex: Number(entry[1]) } : {}) };
  }
  const name = rest.slice(1);
  if (!location || !name) return {};
  return { field: location === 'headers' ? (HEADER_NAMES[name] ?? name) : name };
}

/** '/body/amountSplitDetails/0/beneficiaryId' → 'body.amountSplitDetails[0].beneficiaryId', as the message says it. */
function fieldOf(issue: ValidatorIssue): string {
  return (issue.path ?? '')
    .split('/')
    .filter(Boolean)
    .map((part, index) => (/^\d+$/.test(part) ? `[${part}]` : index === 0 ? (part === 'params' ? 'path' : part) : `.${part}`))
    .join('');
}

/** '/body/amountSplitDetails/0/beneficiaryId' + 'must match format "uuid"' → 'body.amountSplitDetails[0].beneficiaryId must …'. */
function describeIssue(issue: ValidatorIssue): string {
  const field = fieldOf(issue);
  const message = issue.message ?? 'is not valid';
  if (issue.errorCode === 'required.openapi.validation') return `${field} is required`;
  if (message.startsWith('Unknown query parameter')) return `${field} is not an accepted query parameter`;
  // The Uuid schema's pattern only narrows format uuid (no 'urn:uuid:' prefix): say it as the format.
  if (message === `must match pattern "${UUID_PATTERN}"`) return `${field} must match format "uuid"`;
  return field ? `${field} ${message}` : message;
}
