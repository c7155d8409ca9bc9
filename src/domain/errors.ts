import type { components } from '../../generated/api.js';

/**
 * Failures the domain and use cases report. The HTTP layer maps each code to its status;
 * messages are written for the API client (never a stack, SQL or secret). The codes are the
 * spec's ErrorCode, so a code the spec drops stops compiling here.
 */
export type ErrorCode = components['schemas']['ErrorCode'];

export class DomainError extends Error {
  /** The status this error takes when it is not its code's usual one (INSUFFICIENT_FUNDS is 409 at accept). */
  readonly httpStatus?: number;

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
