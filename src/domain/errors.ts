/**
 * Failures the domain and use cases report. The HTTP layer maps each code to its status;
 * messages are written for the API client (never a stack, SQL or secret).
 */
export type ErrorCode =
  | 'VALIDATION_ERROR'
  | 'EXCHANGE_RATE_UNAVAILABLE'
  | 'UNAUTHORIZED'
  | 'FORBIDDEN'
  | 'NOT_FOUND'
  | 'METHOD_NOT_ALLOWED'
  | 'PAYLOAD_TOO_LARGE'
  | 'UNSUPPORTED_MEDIA_TYPE'
  | 'INTERNAL_ERROR'
  | 'SERVICE_UNAVAILABLE'
  | 'FEE_HASH_EXPIRED'
  | 'FEE_HASH_MISMATCH'
  | 'INSUFFICIENT_FUNDS'
  | 'FEE_ESTIMATE_UNAVAILABLE'
  | 'FEE_HASH_ALREADY_USED'
  | 'QUOTE_EXPIRED'
  | 'INVALID_STATE'
  | 'IDEMPOTENCY_KEY_IN_PROGRESS'
  | 'IDEMPOTENCY_KEY_REUSED'
  | 'RATE_LIMITED';

export class DomainError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'DomainError';
  }
}

export const validationError = (message: string) => new DomainError('VALIDATION_ERROR', message);
export const notFound = (message: string) => new DomainError('NOT_FOUND', message);
export const forbidden = (message: string) => new DomainError('FORBIDDEN', message);
