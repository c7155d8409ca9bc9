import type { Request } from 'express';
import { DomainError, echo, validationError } from '../../domain/errors.js';

/** What the spec says of one operation's input beyond what the validator checks. */
export interface InputTraits {
  /** The query parameters whose schema is an integer (`limit`). */
  integerQuery: string[];
  /** Takes no request body and lists 415 among its answers: a body is refused. */
  refusesBody: boolean;
}

/** What the checks read of a request, whatever its typed params, query and body. */
type RequestLine = Pick<Request, 'originalUrl' | 'method' | 'path' | 'headers' | 'body'>;

const DECIMAL_DIGITS = /^[0-9]+$/;

/**
 * Refuses what the validator lets through. It reads an integer query value as a JSON Schema
 * number after coercion, so `0x10`, `1e1` and `+5` pass as 16, 10 and 5: an integer here is
 * written in decimal digits only, read from the raw query string (400, the parameter named). And
 * it ignores a body on an operation that declares none, which a client should hear about rather
 * than see silently dropped (415, as those operations document).
 */
export function refuseOutsideContract(req: RequestLine, traits: InputTraits): void {
  if (traits.integerQuery.length > 0) {
    const query = new URLSearchParams(req.originalUrl.split('?')[1] ?? '');
    for (const name of traits.integerQuery) {
      const bad = query.getAll(name).find((value) => !DECIMAL_DIGITS.test(value));
      if (bad !== undefined) throw validationError(`query.${name} must be written in decimal digits (0-9), not "${echo(bad)}"`, { field: name });
    }
  }
  if (traits.refusesBody && hasBody(req)) {
    throw new DomainError('UNSUPPORTED_MEDIA_TYPE', `${req.method} ${req.path} takes no request body; send none`);
  }
}

/**
 * Whether the request carries a body the operation would ignore. Clients of release 2.0.0 send a
 * JSON `{}` (or an empty body, chunked or not) to operations that take none, and that release
 * accepted it: both mean "nothing", so neither counts. The JSON parser has read any JSON body by now
 * (an empty one as `{}`); a body of another type is unread, so only its framing can tell.
 */
function hasBody(req: RequestLine): boolean {
  if (isEmptyObject(req.body)) return false;
  return Number(req.headers['content-length'] ?? 0) > 0 || req.headers['transfer-encoding'] !== undefined;
}

function isEmptyObject(body: unknown): boolean {
  return typeof body === 'object' && body !== null && !Array.isArray(body) && Object.keys(body).length === 0;
}
