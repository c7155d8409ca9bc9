import type { components } from 'payroll-fee-service/types';

/** Machine-readable error codes of the spec's `ErrorCode`. */
export type ErrorCode = components['schemas']['ErrorCode'];
/** The error envelope every failure is answered with. */
export type ErrorEnvelope = components['schemas']['ErrorEnvelope'];
/** Which rule refused a request, where one code covers several (the spec's `ErrorReason`). */
export type ErrorReason = components['schemas']['ErrorReason'];
/** One of several problems of a request (the spec's `ErrorDetail`). */
export type ErrorDetail = components['schemas']['ErrorDetail'];

/** What an error envelope says besides its code and message: branch on these, never on the message. */
export interface ErrorFacts {
  reason?: ErrorReason;
  field?: string;
  entryIndex?: number;
  details?: ErrorDetail[];
}

/** An error answer of the API (or an answer that is not the API's), with what a caller branches on. */
export class PayrollApiError extends Error {
  override readonly name = 'PayrollApiError';
  /** HTTP status. */
  readonly status: number;
  /** The envelope's `error.code`, or `UNEXPECTED_RESPONSE` when the body is not an error envelope. */
  readonly code: ErrorCode | 'UNEXPECTED_RESPONSE';
  /** The `X-Request-Id` response header: quote it when reporting a problem. */
  readonly requestId: string | undefined;
  /** The envelope's `error.reason`: which rule refused the request, where the code covers several. */
  readonly reason: ErrorReason | undefined;
  /** The envelope's `error.field`: a JSON Pointer into the body (`/amountSplitDetails/3/amount`) or a parameter's name. */
  readonly field: string | undefined;
  /** The envelope's `error.entryIndex`: the `amountSplitDetails` entry at fault. */
  readonly entryIndex: number | undefined;
  /** The envelope's `error.details`: every problem, when several are known. */
  readonly details: ErrorDetail[] | undefined;

  constructor(status: number, code: ErrorCode | 'UNEXPECTED_RESPONSE', message: string, requestId?: string, facts: ErrorFacts = {}) {
    super(message);
    this.status = status;
    this.code = code;
    this.requestId = requestId;
    this.reason = facts.reason;
    this.field = facts.field;
    this.entryIndex = facts.entryIndex;
    this.details = facts.details;
  }
}

function isErrorEnvelope(value: unknown): value is ErrorEnvelope {
  if (typeof value !== 'object' || value === null) return false;
  const error = (value as { error?: unknown }).error;
  return (
    (value as { success?: unknown }).success === false &&
    typeof error === 'object' &&
    error !== null &&
    typeof (error as { code?: unknown }).code === 'string' &&
    typeof (error as { message?: unknown }).message === 'string'
  );
}

/**
 * The `data` of a success envelope, or a thrown {@link PayrollApiError} built from the error envelope.
 *
 * ```ts
 * const request = unwrap(await api.GET('/v1/customers/payroll/requests/{requestId}', { params: { path: { requestId } } }));
 * ```
 */
export function unwrap<T>(result: { data?: { data: T }; error?: unknown; response: Response }): T {
  const { data, error, response } = result;
  const requestId = response.headers.get('X-Request-Id') ?? undefined;
  if (response.ok && data !== undefined && typeof data === 'object' && data !== null && 'data' in data) return data.data;
  if (isErrorEnvelope(error)) {
    const { code, message, reason, field, entryIndex, details } = error.error;
    throw new PayrollApiError(response.status, code, message, requestId, { reason, field, entryIndex, details });
  }
  throw new PayrollApiError(response.status, 'UNEXPECTED_RESPONSE', `unexpected ${response.status} response from ${response.url || 'the API'}`, requestId);
}
