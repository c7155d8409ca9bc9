import { randomUUID } from 'node:crypto';
import type { RequestHandler, Response } from 'express';
import type { Logger } from 'pino';
import { tracer } from '../../observability/telemetry.js';
import { runInWorkContext } from '../../observability/workContext.js';

const CLIENT_REQUEST_ID = /^[A-Za-z0-9._:-]{1,200}$/;

/**
 * X-Request-Id on every response: the client's own when it sent a sane one, else a new UUID. It is
 * kept for the request's log lines (requestFields), with the trace's id when tracing is on, and the
 * rest of the pipeline runs in the request's work context (a failure nobody handled names it).
 */
export const requestId: RequestHandler = (req, res, next) => {
  const given = req.header('X-Request-Id');
  const id = given && CLIENT_REQUEST_ID.test(given) ? given : randomUUID();
  res.setHeader('X-Request-Id', id);
  res.locals.requestId = id;
  const traceId = tracer.traceId();
  if (traceId) res.locals.traceId = traceId;
  runInWorkContext({ requestId: id, method: req.method, path: req.path }, next);
};

/** What every log line of a request carries: its request id, and its trace id when traced. */
export function requestFields(res: Response): { requestId: unknown; traceId?: unknown } {
  return res.locals.traceId ? { requestId: res.locals.requestId, traceId: res.locals.traceId } : { requestId: res.locals.requestId };
}

/**
 * One structured line per request. Only method, path, status and timing: never headers
 * (tokens), bodies or query strings (account details). The line is built here of those scalar
 * fields alone, so none of the logger's redaction paths can match it: it is written by a child
 * without them, which spares every request the redaction's walk of the line.
 */
export function accessLog(parent: Logger): RequestHandler {
  const logger = parent.child({}, { redact: [] });
  return (req, res, next) => {
    const started = process.hrtime.bigint();
    res.on('finish', () => {
      logger.info(
        {
          ...requestFields(res),
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
