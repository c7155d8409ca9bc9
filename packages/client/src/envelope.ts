import type { components } from 'payroll-fee-service/types';

/** Machine-readable error codes of the spec's `ErrorCode`. */
export type ErrorCode = components['schemas']['ErrorCode'];
/** The error envelope every failure is answered with. */
export type ErrorEnvelope = components['schemas']['ErrorEnvelope'];

/** An error answer of the API (or an answer that is not the API's), with what a caller branches on. */
export class PayrollApiError extends Error {
  override readonly name = 'PayrollApiError';
  /** HTTP status. */
  readonly status: number;
  /** The envelope's `error.code`, or `UNEXPECTED_RESPONSE` when the body is not an error envelope. */
  readonly code: ErrorCode | 'UNEXPECTED_RESPONSE';
  /** The `X-Request-Id` response header: quote it when reporting a problem. */
  readonly requestId: string | undefined;

  constructor(status: number, code: ErrorCode | 'UNEXPECTED_RESPONSE', message: string, requestId?: string) {
    super(message);
    this.status = status;
    this.code = code;
    this.requestId = requestId;
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
  if (isErrorEnvelope(error)) throw new PayrollApiError(response.status, error.error.code, error.error.message, requestId);
  throw new PayrollApiError(response.status, 'UNEXPECTED_RESPONSE', `unexpected ${response.status} response from ${response.url || 'the API'}`, requestId);
}
