import type { components } from '../../generated/api.js';

/**
 * Failures the domain and use cases report. The HTTP layer maps each code to its status;
 * messages are written for the API client (never a stack, SQL or secret). The codes are the
 * spec's ErrorCode, so a code the spec drops stops compiling here.
 */
export type ErrorCode = components['schemas']['ErrorCode'];
/** One of several problems of a request (a CSV file's rows), reported together in `error.details`. */
export type ErrorDetail = components['schemas']['ErrorDetail'];

/** `error.details` lists at most this many problems; the message gives the total. */
const MAX_DETAILS = 1000;

export class DomainError extends Error {
  /** The status this error takes when it is not its code's usual one (INSUFFICIENT_FUNDS is 409 at accept). */
  readonly httpStatus?: number;
  /** Every problem, when more than one is known. */
  readonly details?: ErrorDetail[];

  constructor(
    readonly code: ErrorCode,
    message: string,
    details?: ErrorDetail[],
  ) {
    super(message);
    this.name = 'DomainError';
    if (details && details.length > 0) this.details = details.slice(0, MAX_DETAILS);
  }
}

export const validationError = (message: string) => new DomainError('VALIDATION_ERROR', message);
export const notFound = (message: string) => new DomainError('NOT_FOUND', message);
export const forbidden = (message: string) => new DomainError('FORBIDDEN', message);

/** A row or field of a problem, as the message names it: "row 3, column amount", "body.x". */
function placeOf(detail: ErrorDetail): string {
  const place = [detail.row !== undefined ? `row ${detail.row}` : '', detail.column !== undefined ? `column ${detail.column}` : '', detail.field ?? '']
    .filter(Boolean)
    .join(', ');
  return place ? `${place}: ` : '';
}

/** One 400 for several problems: each in `details`, the first few in the message too. */
export function validationProblems(subject: string, problems: readonly ErrorDetail[]): DomainError {
  // A message that already names its field ("amountSplitDetails[0].amount must …") is shown as it is.
  const namesItsField = (problem: ErrorDetail) => problem.field !== undefined && problem.message.startsWith(problem.field.replace(/^body\./, ''));
  const shown = problems.slice(0, 5).map((problem) => (namesItsField(problem) ? problem.message : `${placeOf(problem)}${problem.message}`));
  const more = problems.length > shown.length ? `; and ${problems.length - shown.length} more (see details)` : '';
  const count = problems.length === 1 ? '1 problem' : `${problems.length} problems`;
  return new DomainError('VALIDATION_ERROR', `${subject} has ${count}: ${shown.join('; ')}${more}`, [...problems]);
}
