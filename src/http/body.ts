import express, { type RequestHandler } from 'express';
import { principalOf } from './auth.js';
import { sendError } from './envelope.js';

/** The most a request without a valid bearer token may send: enough for any small call, not for a flood. */
const ANONYMOUS_BODY_BYTES = 8 * 1024;

/**
 * The JSON body, read after authentication: up to `limit` for a verified caller; up to 8 KB
 * otherwise, refused from its Content-Length before a byte of it is read (413 PAYLOAD_TOO_LARGE),
 * so that junk tokens cannot make the service buffer and parse megabytes. Node discards the unread
 * rest without parsing it.
 */
export function jsonBody(limit: string): RequestHandler {
  const verified = express.json({ limit });
  const anonymous = express.json({ limit: ANONYMOUS_BODY_BYTES });
  return (req, res, next) => {
    if (principalOf(res)) return verified(req, res, next);
    if (Number(req.headers['content-length'] ?? 0) > ANONYMOUS_BODY_BYTES) {
      return sendError(res, 'PAYLOAD_TOO_LARGE', `Without a valid bearer token a request body may hold at most ${ANONYMOUS_BODY_BYTES / 1024} KB`);
    }
    return anonymous(req, res, next);
  };
}
