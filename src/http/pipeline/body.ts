import express, { type Request, type RequestHandler, type Response } from 'express';
import { principalOf } from '../access/auth.js';
import { sendError } from './envelope.js';

/** The most a request without a valid bearer token may send: enough for any small call, not for a flood. */
const ANONYMOUS_BODY_BYTES = 8 * 1024;

/**
 * The body, read after authentication: JSON, or a payroll CSV file (`text/csv`, as a string) for
 * a verified caller, up to `limit`; JSON of up to 8 KB otherwise, refused from its Content-Length
 * before a byte of it is read (413 PAYLOAD_TOO_LARGE, and the connection closed), so that junk
 * tokens cannot make the service receive, buffer and parse megabytes.
 */
export function requestBody(limit: string): RequestHandler {
  const verifiedJson = express.json({ limit });
  const verifiedCsv = express.text({ type: 'text/csv', limit });
  const anonymous = express.json({ limit: ANONYMOUS_BODY_BYTES });
  return (req, res, next) => {
    // Each parser passes a request of another content type through untouched.
    if (principalOf(res)) return verifiedJson(req, res, (error?: unknown) => (error ? next(error) : verifiedCsv(req, res, next)));
    if (Number(req.headers['content-length'] ?? 0) > ANONYMOUS_BODY_BYTES) {
      closeAfterAnswer(req, res);
      return sendError(res, 'PAYLOAD_TOO_LARGE', `Without a valid bearer token a request body may hold at most ${ANONYMOUS_BODY_BYTES / 1024} KB`);
    }
    return anonymous(req, res, next);
  };
}

/**
 * For a request without a valid token answered before its body was read: close the connection
 * after the answer, so that the rest of the body is never received (Node would otherwise read and
 * discard all of it to keep the connection alive: megabytes per request in a flood). A client still
 * uploading may see the connection reset instead of the answer; only callers without a valid
 * token are treated so, never a verified one.
 */
export function closeAfterAnswer(req: Request, res: Response): void {
  if (Number(req.headers['content-length'] ?? 0) > 0 || req.headers['transfer-encoding'] !== undefined) res.setHeader('Connection', 'close');
}
