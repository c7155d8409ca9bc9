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
/** Which rule refused a request, where one code covers several: what a client branches on instead of the message. */
export type ErrorReason = components['schemas']['ErrorReason'];

/**
 * A case of a code that the client must be able to tell apart by its status. INSUFFICIENT_FUNDS
 * is refused at creation (the request never existed) but is a conflict at accept (the request
 * exists and stays QUOTE_PROVIDED until the account is topped up).
 */
export type ErrorVariant = 'SHORTFALL_AT_ACCEPT';

/** Where a problem is, so that nobody has to read it back out of the message. */
export interface ErrorPlace {
  /**
   * The request field at fault, as the spec's ErrorField writes it: a JSON Pointer into the body
   * ('/amountSplitDetails/3/amount', see bodyField) or a parameter's name ('limit', 'requestId').
   */
  field?: string;
  /** The `amountSplitDetails` entry at fault (a CSV file's data row, counted from 0). */
  entryIndex?: number;
}

/** What a refusal says besides its code and message: where, and by which rule. */
export interface ErrorFacts extends ErrorPlace {
  reason?: ErrorReason;
}

export interface DomainErrorOptions extends ErrorFacts {
  /** Every problem, when more than one is known. */
  details?: ErrorDetail[];
  variant?: ErrorVariant;
}

/** The JSON Pointer (RFC 6901) of a field of the body: bodyField('amountSplitDetails', 3, 'amount') is '/amountSplitDetails/3/amount'. */
export function bodyField(...path: ReadonlyArray<string | number>): string {
  return path.map((part) => `/${String(part).replace(/~/g, '~0').replace(/\//g, '~1')}`).join('');
}

/**
 * A field as a message names it ('body.amountSplitDetails[3].amount', 'amountSplitDetails[3].amount',
 * 'query.limit', 'path.requestId', 'header.Idempotency-Key') in the spec's ErrorField convention:
 * '/amountSplitDetails/3/amount', 'limit', 'requestId', 'Idempotency-Key'.
 */
export function fieldNamed(named: string): string {
  const parameter = /^(?:query|path|header)\.(.+)$/.exec(named);
  if (parameter) return parameter[1]!;
  return bodyField(
    ...named
      .replace(/^body\.?/, '')
      .replace(/\[(\d+)\]/g, '.$1')
      .split('.')
      .filter(Boolean),
  );
}

/** The pointer of a field of an `amountSplitDetails` entry, with the entry: both places of an entry's problem. */
export function entryPlace(entryIndex: number, name: string): Required<ErrorPlace> {
  return { field: bodyField('amountSplitDetails', entryIndex, name), entryIndex };
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
  readonly reason?: ErrorReason;
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
    const { reason, field, entryIndex, details, variant } = options;
    if (reason !== undefined) this.reason = reason;
    if (field !== undefined) this.field = field;
    if (entryIndex !== undefined) this.entryIndex = entryIndex;
    if (details && details.length > 0) this.details = details.slice(0, MAX_DETAILS);
    if (details && details.length > MAX_DETAILS) this.detailsOmitted = details.length - MAX_DETAILS;
    if (variant !== undefined) this.variant = variant;
  }
}

export const validationError = (message: string, facts: ErrorFacts = {}) => new DomainError('VALIDATION_ERROR', message, facts);
export const notFound = (message: string) => new DomainError('NOT_FOUND', message);
export const forbidden = (message: string, reason?: ErrorReason) => new DomainError('FORBIDDEN', message, reason ? { reason } : {});

/** A CSV problem's cell, as the message names it: "row 3, column amount: ". */
function cellOf(detail: ErrorDetail): string {
  const place = [detail.row !== undefined ? `row ${detail.row}` : '', detail.column !== undefined ? `column ${detail.column}` : ''].filter(Boolean).join(', ');
  return place ? `${place}: ` : '';
}

/**
 * The facts of several problems on the error itself, as a single problem's: the place of the first,
 * and the reason when every problem breaks the same rule (a client switching on it is never misled).
 */
function sharedFacts(problems: readonly ErrorDetail[]): ErrorFacts {
  const first = problems[0];
  const reason = first?.reason;
  const shared = reason !== undefined && problems.every((problem) => problem.reason === reason);
  return {
    ...(shared ? { reason } : {}),
    ...(first?.field === undefined ? {} : { field: first.field }),
    ...(first?.entryIndex === undefined ? {} : { entryIndex: first.entryIndex }),
  };
}

/** One 400 for several problems: each in `details`, the first few in the message too, the first one's place on the error. */
export function validationProblems(subject: string, problems: readonly ErrorDetail[]): DomainError {
  // A problem with a field has a message that already names it ("amountSplitDetails[0].amount must …").
  const shown = problems.slice(0, 5).map((problem) => (problem.field !== undefined ? problem.message : `${cellOf(problem)}${problem.message}`));
  const more = problems.length > shown.length ? `; and ${problems.length - shown.length} more (see details)` : '';
  const count = problems.length === 1 ? '1 problem' : `${problems.length} problems`;
  return new DomainError('VALIDATION_ERROR', `${subject} has ${count}: ${shown.join('; ')}${more}`, { details: [...problems], ...sharedFacts(problems) });
}
