import type { components } from '../../generated/api.js';

/**
 * Failures the domain and use cases report, as data: a code, a message written for the API client
 * (never a stack, SQL or secret), and where the problem is. How an error is answered over HTTP
 * belongs to src/http, which maps each code (and variant) to its status. The codes are the spec's
 * ErrorCode, so a code the spec drops stops compiling here.
 */
export type ErrorCode = components['schemas']['ErrorCode'];
/** One of several problems of a request (a CSV file's rows), reported together in `error.details`. */
export type ErrorDetail = components['schemas']['ErrorDetail'];

/**
 * A case of a code that the client must be able to tell apart by its status. INSUFFICIENT_FUNDS
 * is refused at creation (the request never existed) but is a conflict at accept (the request
 * exists and stays QUOTE_PROVIDED until the account is topped up).
 */
export type ErrorVariant = 'SHORTFALL_AT_ACCEPT';

/** Where a problem is, so that nobody has to read it back out of the message. */
export interface ErrorPlace {
  /** The request field at fault, as the message names it: 'amountSplitDetails[3].amount', 'body.exchangeRate'. */
  field?: string;
  /** The `amountSplitDetails` entry at fault (a CSV file reports it as its row). */
  entryIndex?: number;
}

export interface DomainErrorOptions extends ErrorPlace {
  /** Every problem, when more than one is known. */
  details?: ErrorDetail[];
  variant?: ErrorVariant;
}

/** `error.details` lists at most this many problems; `detailsOmitted` counts the rest, the message gives the total. */
const MAX_DETAILS = 100;
/** The most of a rejected input a message repeats: a 2 MB cell must not come back as a 4 MB answer. */
const MAX_ECHO = 64;

/** Input quoted in a message, cut to MAX_ECHO characters (an ellipsis says it was cut). */
export function echo(input: string): string {
  const characters = [...input];
  return characters.length <= MAX_ECHO ? input : `${characters.slice(0, MAX_ECHO).join('')}…`;
}

export class DomainError extends Error {
  readonly field?: string;
  readonly entryIndex?: number;
  readonly details?: ErrorDetail[];
  /** How many problems `details` does not list (beyond MAX_DETAILS). */
  readonly detailsOmitted?: number;
  readonly variant?: ErrorVariant;

  constructor(
    readonly code: ErrorCode,
    message: string,
    options: DomainErrorOptions = {},
  ) {
    super(message);
    this.name = 'DomainError';
    const { field, entryIndex, details, variant } = options;
    if (field !== undefined) this.field = field;
    if (entryIndex !== undefined) this.entryIndex = entryIndex;
    if (details && details.length > 0) this.details = details.slice(0, MAX_DETAILS);
    if (details && details.length > MAX_DETAILS) this.detailsOmitted = details.length - MAX_DETAILS;
    if (variant !== undefined) this.variant = variant;
  }
}

export const validationError = (message: string, place: ErrorPlace = {}) => new DomainError('VALIDATION_ERROR', message, place);
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
  return new DomainError('VALIDATION_ERROR', `${subject} has ${count}: ${shown.join('; ')}${more}`, { details: [...problems] });
}
