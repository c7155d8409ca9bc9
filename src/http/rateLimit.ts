import { createHash } from 'node:crypto';
import type { RequestHandler } from 'express';
import { ipKeyGenerator, rateLimit, type Store } from 'express-rate-limit';
import { RedisStore } from 'rate-limit-redis';
import { createClient } from 'redis';
import { sendError } from './envelope.js';

/**
 * Per-token rate limiting (express-rate-limit): a budget of `perMinute` requests per bearer token
 * (per client address without one), answered with 429 RATE_LIMITED in the envelope, Retry-After
 * and the RateLimit-* headers. In memory by default; with a Redis store every instance shares one
 * budget.
 */
export function rateLimiter(perMinute: number, store?: Store): RequestHandler {
  return rateLimit({
    windowMs: 60_000,
    limit: perMinute,
    standardHeaders: 'draft-6',
    legacyHeaders: false,
    ...(store && { store }),
    // The token itself is never stored: its hash is the key.
    keyGenerator: (req) => {
      const authorization = req.headers.authorization;
      return authorization ? `t:${createHash('sha256').update(authorization).digest('base64url')}` : `ip:${ipKeyGenerator(req.ip ?? '')}`;
    },
    handler: (_req, res, _next, options) => {
      res.setHeader('Retry-After', String(Math.ceil(options.windowMs / 1000)));
      sendError(res, 'RATE_LIMITED', `Too many requests: at most ${perMinute} a minute per token; retry after the Retry-After seconds`);
    },
  });
}

/** The shared store for several instances, on the Redis at REDIS_URL. */
export async function connectRedisStore(url: string, prefix = 'payroll-rl:'): Promise<{ store: Store; close: () => Promise<void> }> {
  const client = createClient({ url });
  client.on('error', () => undefined); // reconnects on its own; a failing command surfaces per request
  await client.connect();
  return {
    store: new RedisStore({ prefix, sendCommand: (...args: string[]) => client.sendCommand(args) }),
    close: async () => void (await client.quit()),
  };
}
