import type { RequestHandler } from 'express';
import { principalOf } from './auth.js';
import { sendError } from './envelope.js';

/**
 * Roles before validation: a verified caller who is not an admin gets 403 on every admin path
 * before its body is read or checked against the spec, so a refusal never depends on what the
 * body holds (and never says what a valid one would be). Callers without a valid token go on to
 * the validator's 401; the use cases check roles again.
 */
export function adminPathsForAdmins(): RequestHandler {
  return (req, res, next) => {
    const principal = principalOf(res);
    if (principal && principal.role !== 'admin' && req.path.startsWith('/v1/admin/')) {
      return sendError(res, 'FORBIDDEN', 'This operation requires the admin role', { reason: 'ROLE_NOT_ALLOWED' });
    }
    next();
  };
}
