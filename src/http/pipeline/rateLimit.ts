import type { Request, RequestHandler } from 'express';
import { ipKeyGenerator, rateLimit, type Store } from 'express-rate-limit';
import { metrics } from '../../observability/telemetry.js';
import { principalOf } from '../access/auth.js';
import { closeAfterAnswer } from './body.js';
import { sendError } from './envelope.js';
import type { OperationId } from './operations.js';
import { specRouter } from './specRoutes.js';

/**
 * Rate limiting (express-rate-limit), after authentication: a budget of `perMinute` requests per
 * verified user (per API key for a request made with one), and of `anonymousPerMinute` per client address for requests without a valid token
 * (none, or a junk one: a new token per request buys nothing, it spends the address's budget).
 * Beyond it, 429 RATE_LIMITED in the envelope, with Retry-After and the RateLimit-* headers. The
 * client address is Express's req.ip: the peer, or the client a trusted proxy names (TRUST_PROXY).
 * In memory by default; with a Redis store every instance shares one budget. The probes
 * (liveness and readiness, found by the spec's paths) are never limited: a load balancer polling
 * several instances from one address must not see liveness fail.
 */
const PROBES: ReadonlySet<string> = new Set<OperationId>(['getHealth', 'getReadiness']);

async function isProbe(req: Request): Promise<boolean> {
  const operationId = (await specRouter()).router.find(req.path)?.operationIds.get;
  return operationId !== undefined && PROBES.has(operationId);
}

export function rateLimiter(limits: { perMinute: number; anonymousPerMinute: number }, store?: Store): RequestHandler {
  return rateLimit({
    windowMs: 60_000,
    limit: (_req, res) => (principalOf(res) ? limits.perMinute : limits.anonymousPerMinute),
    standardHeaders: 'draft-6',
    legacyHeaders: false,
    ...(store && { store }),
    skip: isProbe,
    // A store that fails (it should not: SharedLimits falls back to memory) lets the request through.
    passOnStoreError: true,
    keyGenerator: (req, res) => {
      const principal = principalOf(res);
      // An API key has a bucket of its own (by its id, never its secret): a runaway job on one key
      // does not spend the budget of the user's other keys or of the user's own token.
      if (principal?.apiKeyId) return `k:${principal.apiKeyId}`;
      return principal ? `u:${principal.userId}` : `ip:${ipKeyGenerator(req.ip ?? '')}`;
    },
    handler: (req, res, _next, options) => {
      res.setHeader('Retry-After', String(Math.ceil(options.windowMs / 1000)));
      metrics.rateLimited(principalOf(res) ? 'user' : 'address');
      // Without a valid token, the unread body is not worth receiving; a verified client keeps its connection.
      if (!principalOf(res)) closeAfterAnswer(req, res);
      const budget = principalOf(res)
        ? `${limits.perMinute} a minute per ${principalOf(res)?.apiKeyId ? 'API key' : 'user'}`
        : `${limits.anonymousPerMinute} a minute per client address without a valid token`;
      sendError(res, 'RATE_LIMITED', `Too many requests: at most ${budget}; retry after the Retry-After seconds`);
    },
  });
}
