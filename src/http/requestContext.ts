import { randomUUID } from 'node:crypto';
import type { RequestHandler } from 'express';
import type { Logger } from 'pino';

const CLIENT_REQUEST_ID = /^[A-Za-z0-9._:-]{1,200}$/;

/** X-Request-Id on every response: the client's own when it sent a sane one, else a new UUID. */
export const requestId: RequestHandler = (req, res, next) => {
  const given = req.header('X-Request-Id');
  res.setHeader('X-Request-Id', given && CLIENT_REQUEST_ID.test(given) ? given : randomUUID());
  next();
};

/**
 * One structured line per request. Only method, path, status and timing: never headers
 * (tokens), bodies or query strings (account details).
 */
export function accessLog(logger: Logger): RequestHandler {
  return (req, res, next) => {
    const started = process.hrtime.bigint();
    res.on('finish', () => {
      logger.info(
        {
          requestId: res.getHeader('X-Request-Id'),
          method: req.method,
          path: req.path,
          status: res.statusCode,
          ms: Number(process.hrtime.bigint() - started) / 1e6,
        },
        'request',
      );
    });
    next();
  };
}
